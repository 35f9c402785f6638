/* How gpuprof exec collects counters that take several passes (--replay), the one word that
 * the command line, the injected library and the reports share. The names are defined with
 * exec's protocol (src/exec/protocol.c). */
#ifndef GPUPROF_EXEC_REPLAY_H
#define GPUPROF_EXEC_REPLAY_H

#include <stdbool.h>

typedef enum {
    GP_EXEC_REPLAY_AUTO = 0,      /* each kernel signature's first launch by kernel replay,
                                     the later ones one pass each, no replay */
    GP_EXEC_REPLAY_ROTATE,        /* never replay: one pass per launch */
    GP_EXEC_REPLAY_KERNEL,        /* kernel replay of every profiled launch */
    GP_EXEC_REPLAY_APPLICATION,   /* the program run once per pass, each run one pass */
    GP_EXEC_REPLAY_MODES
} gp_exec_replay;

/* "auto", "rotate", "kernel", "application", indexed by mode. */
extern const char *const gp_exec_replay_names[GP_EXEC_REPLAY_MODES];
const char *gp_exec_replay_name(gp_exec_replay m);
/* false for another name. */
bool gp_exec_replay_from_name(const char *name, gp_exec_replay *m);

/* How gpuprof exec profiles the kernels of CUDA graphs (--graph-profiling, ncu's option). */
typedef enum {
    GP_GRAPH_NODE = 0,            /* each kernel node: instruction-level counters from shadow
                                     launches, DRAM traffic sampled in the program's own run */
    GP_GRAPH_WHOLE,               /* "graph": one range around each graph launch (hardware
                                     counters only) */
    GP_GRAPH_TIME,                /* timed, not profiled */
    GP_GRAPH_MODES
} gp_graph_profiling;

/* "node", "graph", "time", indexed by mode. */
extern const char *const gp_graph_profiling_names[GP_GRAPH_MODES];
const char *gp_graph_profiling_name(gp_graph_profiling m);
bool gp_graph_profiling_from_name(const char *name, gp_graph_profiling *m);

#endif
