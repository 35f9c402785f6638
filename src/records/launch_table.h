/* The launches read so far (the report's exec.launches): their order, finding one, naming
 * one, a graph node's shadow launch adopted by its `K` line, and a profiled launch's metrics
 * from its counter values. The general reader (read.c, read_lines.c) and the graph reader
 * (read_graphs.c) both stand on it. Private to src/records/. */
#ifndef GPUPROF_RECORDS_LAUNCH_TABLE_H
#define GPUPROF_RECORDS_LAUNCH_TABLE_H

#include "records/reader.h"

#include <stdint.h>

/* The order of launches, and of what a launch did (its copies, its samples): by process, then
 * by CUPTI's correlation id (launch order within the process); 0: the same launch's. */
int gp_records_launch_order(int pid_a, uint64_t id_a, int pid_b, uint64_t id_b);
/* The order of the launches find_launch searches: by pid, id, then graph node (qsort). */
int gp_records_compare_launches(const void *a, const void *b);
/* The launch (pid, id, node) among the first rd->n_recorded launches; NULL: none. */
gp_exec_launch *gp_records_find_launch(reader *rd, int pid, uint64_t id, uint64_t node);
/* The shadow launch of node 0 (its id unknown to the library) of the same graph launch,
 * kernel (the mangled name and code of k's `name` record) and shape as the `K` line k, now
 * given k's node; NULL: none. */
gp_exec_launch *gp_records_adopt_shadow(reader *rd, const uint64_t *k,
                                        const numbered_name *name);

/* The launch's names: as ncu prints it (demangled, once per name), and the mangled one when
 * it was mangled. */
int gp_records_name_launch(reader *rd, gp_exec_launch *l, const char *name);
/* "CUDA graph <id>": a graph range's names, demangled and mangled. */
int gp_records_name_graph(gp_exec_launch *l);

/* A sentence added to the launch's note ("; " between sentences). */
int gp_records_add_note(gp_exec_launch *l, const char *text);

/* A profiled launch's metrics from its values (one per counter of c), its duration from the
 * duration counter; passes: the groups it collected (0: every counter). */
int gp_records_launch_metrics(const gp_collector *c, const double *v, uint32_t passes,
                              gp_exec_launch *l);

#endif
