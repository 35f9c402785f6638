/* The exec request's default and the names of its modes (gpuprof/exec_request.h): the words
 * of --replay and --graph-profiling, of the records and of the reports, one table in
 * src/report/exec_modes.c. */
#ifndef GPUPROF_EXEC_MODES_H
#define GPUPROF_EXEC_MODES_H

#include "gpuprof/exec_request.h"

#include <stdbool.h>

/* What a request is when no option changes it: no filter, no limit, auto, node,
 * GP_GRAPH_SAMPLES_DEFAULT sampled launches per graph, no per-line view, and the rank from the
 * environment. */
gp_exec_request gp_exec_request_default(void);

/* "auto", "rotate", "kernel", "application", indexed by mode. */
extern const char *const gp_exec_replay_names[GP_EXEC_REPLAY_MODES];
const char *gp_exec_replay_name(gp_exec_replay m);
/* false for another name. */
bool gp_exec_replay_from_name(const char *name, gp_exec_replay *m);

/* "node", "graph", "time", indexed by mode. */
extern const char *const gp_graph_profiling_names[GP_GRAPH_MODES];
const char *gp_graph_profiling_name(gp_graph_profiling m);
bool gp_graph_profiling_from_name(const char *name, gp_graph_profiling *m);

#endif
