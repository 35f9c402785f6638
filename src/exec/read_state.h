/* gpuprof exec's record reader, shared by its files: read.c (processes, devices, profiler
 * set-ups, launches, the lines of numbers) and read_graph.c (CUDA graphs: shadow launches,
 * graph and sampled records, `P` lines, each kernel node's sampled DRAM traffic). Private to
 * src/exec/read*.c. */
#ifndef GPUPROF_EXEC_READ_STATE_H
#define GPUPROF_EXEC_READ_STATE_H

#include "gpuprof/collector.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/report.h"
#include "report/json_in.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_RECORD_IGNORED "the record is ignored"
#define GP_DURATION_COUNTER "gpu__time_duration.sum"

/* A context's counters as its profiler record gave them: what its launches' values mean. */
typedef struct {
    int pid;
    unsigned context;
    gp_collector collector;      /* no profiler: names, metrics and chip only */
    char *names[GP_MAX_COUNTERS];
} context_counters;

/* What read_graph.c keeps until every record and line is read. */
typedef struct graph_records graph_records;

typedef struct {
    gp_report *report;
    gp_hashmap demangled;        /* mangled name -> char *: its demangled name, NULL when it
                                    is not a C++ name (a program launches few kernels, many
                                    times) */
    gp_hashmap numbered;         /* uint64_t {pid, number} -> char *: a process's kernel names
                                    by the numbers its `name` records gave them */
    size_t n_recorded;           /* launches sorted by (pid, id, node) that find_launch
                                    searches: those of launch records, then all */
    context_counters **contexts; /* each its own block: a collector is never moved (its
                                    metrics point into it) */
    size_t n_contexts;
    bool *ended;                 /* per process index: wrote its end record */
    int *pids;
    size_t n_pids;
    gp_json_reader json;         /* the line being read, for the layer's messages */
    char where[320];             /* "<file> line <n>" */
    size_t n_ignored;            /* records and lines that were not as the library writes */
    graph_records *graphs;       /* NULL until a graph record, sampled record or P line */
} reader;

/* ---- read.c's, for read_graph.c ------------------------------------------------------------ */

/* The problem the JSON layer just recorded, said as a warning with its consequence. */
int gp_records_ignore(reader *rd, const char *consequence);
const context_counters *gp_records_counters_of(const reader *rd, int pid, unsigned context);
/* The order of the launches find_launch searches: by pid, id, then graph node (qsort). */
int gp_records_compare_launches(const void *a, const void *b);
/* The launch (pid, id, node) among the first rd->n_recorded launches; NULL: none. */
gp_exec_launch *gp_records_find_launch(reader *rd, int pid, uint64_t id, uint64_t node);
/* A profiled launch's metrics from its values (one per counter of c), its duration from the
 * duration counter; passes: the groups it collected (0: every counter). */
int gp_records_launch_metrics(const gp_collector *c, const double *v, uint32_t passes,
                              gp_exec_launch *l);

/* ---- read_graph.c's, for read.c ------------------------------------------------------------ */

/* How a launch record's launch was made (its key "how"). */
typedef enum { GP_HOW_DIRECT, GP_HOW_SHADOW, GP_HOW_GRAPH } gp_launch_how;

/* A launch record's graph, node and how, when it has "how" (else GP_HOW_DIRECT, graph and
 * node 0); a graph range's node is 0, a shadow launch's 0 when the library did not learn it. */
int gp_records_how_of(gp_json_reader *j, const cJSON *o, gp_launch_how *how, uint64_t *graph,
                      uint64_t *node);
/* The shadow launch of node 0 (its id unknown to the library) of the same graph launch,
 * kernel (mangled name) and shape as the `K` line k, now given k's node; NULL: none. */
gp_exec_launch *gp_records_adopt_shadow(reader *rd, const uint64_t *k, const char *name);
/* "CUDA graph <id>": a graph range's names, demangled and mangled. */
int gp_records_name_graph(gp_exec_launch *l);

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
