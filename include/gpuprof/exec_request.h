/* What `gpuprof exec` is asked to do, in one struct: the command line fills it
 * (gp_request.exec), the library injected into the program receives it through the
 * environment (gp_exec_options.request, gpuprof/protocol.h), and the report keeps it
 * (gp_exec_info.request). Plain data, declarations only: it owns its strings, so a copy is
 * a copy. Its default and the modes' names (the words of --replay and --graph-profiling, of
 * the records and of the reports) are gpuprof/exec_modes.h's, one table in
 * src/report/exec_modes.c. */
#ifndef GPUPROF_EXEC_REQUEST_H
#define GPUPROF_EXEC_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

/* How gpuprof exec collects counters that take several passes (--replay). */
typedef enum {
    GP_EXEC_REPLAY_AUTO = 0,      /* each kernel signature's first launch by kernel replay,
                                     the later ones one pass each, no replay */
    GP_EXEC_REPLAY_ROTATE,        /* never replay: one pass per launch */
    GP_EXEC_REPLAY_KERNEL,        /* kernel replay of every profiled launch */
    GP_EXEC_REPLAY_APPLICATION,   /* the program run once per pass, each run one pass */
    GP_EXEC_REPLAY_MODES
} gp_exec_replay;

/* How gpuprof exec profiles the kernels of CUDA graphs (--graph-profiling, ncu's option). */
typedef enum {
    GP_GRAPH_NODE = 0,            /* each kernel node: instruction-level counters from shadow
                                     launches, DRAM traffic sampled in the program's own run */
    GP_GRAPH_WHOLE,               /* "graph": one range around each graph launch (hardware
                                     counters only) */
    GP_GRAPH_TIME,                /* timed, not profiled */
    GP_GRAPH_MODES
} gp_graph_profiling;

/* --graph-samples' default: each executable graph's first 10 launches with a profiled kernel
 * node are sampled (node) or ranged (graph), the later ones only timed. A sampled launch costs
 * about 30 ms (a synchronisation, PM sampling's start and its window's decoding) against about
 * 10 us timed; 10 windows give every node 10 DRAM readings, whose spread from launch to launch
 * is well under the sampling's own error (bench/README.md, Graph loops). */
#define GP_GRAPH_SAMPLES_DEFAULT 10

/* --stall-period's default and bounds, as log2 cycles (CUPTI takes 5 to 31). 2^15 cycles on an
 * H200's 528 SM sub-partitions at 1.98 GHz is about 32,000 samples per ms of a full GPU's
 * time: a 40 % line's share has a standard error under 1 point from about 3,000 samples,
 * and on the H200 kernel times stayed 1.000x and no sample was dropped (bench/README.md,
 * Warp stalls); 2^5 dropped 73 % in the probe. */
#define GP_STALL_PERIOD_DEFAULT 15
#define GP_STALL_PERIOD_MIN 5
#define GP_STALL_PERIOD_MAX 31

/* The longest --kernel pattern, with its terminating NUL. */
#define GP_KERNEL_REGEX_LEN 256

/* --nvtx-include and --nvtx-exclude: at most 16 expressions in all, each at most 255
 * characters (gpuprof/nvtx_filter.h's grammar). */
#define GP_EXEC_NVTX_FILTERS 16
#define GP_EXEC_NVTX_FILTER_LEN 256

typedef struct {
    char kernel_regex[GP_KERNEL_REGEX_LEN]; /* --kernel; "": every kernel */
    uint64_t launch_skip;                   /* --launch-skip */
    uint64_t launch_count;                  /* --launch-count (UINT64_MAX: no limit) */
    uint64_t per_kernel;                    /* --per-kernel (UINT64_MAX: no limit) */
    bool follow_children;                   /* --follow-children */
    gp_exec_replay replay;                  /* --replay */
    gp_graph_profiling graph_profiling;     /* --graph-profiling */
    uint64_t graph_samples;                 /* --graph-samples (UINT64_MAX: all) */
    bool source;                            /* --source: one launch of each profiled kernel
                                               patched, its SASS instructions counted, for
                                               the per-line view (gpuprof/source_view.h) */
    bool nvtx;                              /* --nvtx: the program's NVTX ranges kept, each
                                               launch's range path recorded (the library is
                                               NVTX's tool, NVTX_INJECTION64_PATH) */
    /* --nvtx-include and --nvtx-exclude (each implies --nvtx), in the order given */
    char nvtx_include[GP_EXEC_NVTX_FILTERS][GP_EXEC_NVTX_FILTER_LEN];
    char nvtx_exclude[GP_EXEC_NVTX_FILTERS][GP_EXEC_NVTX_FILTER_LEN];
    unsigned n_nvtx_include, n_nvtx_exclude;
    bool stalls;                            /* --stalls: warp-stall reasons from CUPTI's PC
                                               sampling in the program's own launches, in a
                                               run without counters (gpuprof/pc_sampler.h) */
    unsigned stall_period;                  /* --stall-period: 2^N cycles between samples;
                                               0: GP_STALL_PERIOD_DEFAULT */
    int rank;                               /* --rank (-1: from the launcher's environment);
                                               the report's alone, never sent to the library */
} gp_exec_request;

#endif
