/* CUDA graphs' records (gpuprof/record_format.h) read into the report: a launch record's graph,
 * node and how; `graph` records (a graph whose nodes were not shadow-launched gives them a
 * note saying why); `sampled` records and their `P` lines, whose DRAM traffic is shared among
 * the kernel nodes of the graph launch (records/dram_shares.h) once every line is read.
 * Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_GRAPHS_H
#define GPUPROF_RECORDS_READ_GRAPHS_H

#include "records/reader.h"

#include <stdint.h>

/* A launch record's graph, node and how, when it has "how" (else GP_HOW_DIRECT, graph and
 * node 0); a graph range's node is 0, a shadow launch's 0 when the library did not learn it. */
int gp_records_how_of(gp_json_reader *j, const cJSON *o, gp_launch_how *how, uint64_t *graph,
                      uint64_t *node);

int gp_records_read_graph(reader *rd, const cJSON *o);
int gp_records_read_sampled(reader *rd, const cJSON *o);
/* `P` lines: the field out of range (NULL: none), and the line kept. */
const char *gp_records_sample_out_of_range(const uint64_t *p);
int gp_records_read_sample(reader *rd, const uint64_t *p);
/* A `K` line's time, kept where a sampled graph launch will need it to find overlaps. */
int gp_records_kernel_time(reader *rd, const uint64_t *k);
/* After every line, launches sorted and all searchable, activities not yet rebased: graph
 * nodes' notes, sampled DRAM bytes, metrics. */
int gp_records_finish_graphs(reader *rd);
void gp_records_free_graphs(reader *rd);

#endif
