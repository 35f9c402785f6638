/* What `gpuprof exec` and the library it injects into the program (libgpuprof-inject.so)
 * say to each other: the one definition both sides build on. protocol.c is linked into both
 * (no cJSON, no cudart, no printing).
 *
 * Options go to the library through the environment: gp_exec_options_encode (gpuprof)
 * writes them, gp_exec_options_decode (the library) reads them back. The library writes one
 * record per line to <GPUPROF_EXEC_DIR>/<pid>.jsonl, as each thing happens, so a program
 * that crashes loses at most the launch in flight. Never the program's own stdout or
 * stderr: those pass through untouched. The records themselves: gpuprof/record_format.h. */
#ifndef GPUPROF_PROTOCOL_H
#define GPUPROF_PROTOCOL_H

#include "gpuprof/exec_request.h"
#include "gpuprof/record_format.h"
#include "gpuprof/metrics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_ENV_INJECTION "CUDA_INJECTION64_PATH"
#define GP_ENV_DIR "GPUPROF_EXEC_DIR"
/* none | default | all | list:a,b,... (group names, keys, raw names) */
#define GP_ENV_METRICS "GPUPROF_EXEC_METRICS"
#define GP_ENV_KERNEL "GPUPROF_EXEC_KERNEL"         /* extended regular expression */
#define GP_ENV_SKIP "GPUPROF_EXEC_LAUNCH_SKIP"
#define GP_ENV_COUNT "GPUPROF_EXEC_LAUNCH_COUNT"
#define GP_ENV_PER_KERNEL "GPUPROF_EXEC_PER_KERNEL"
#define GP_ENV_PARENT "GPUPROF_EXEC_PARENT"         /* gpuprof's pid: the process it started
                                                       is the one whose parent it is */
#define GP_ENV_FOLLOW "GPUPROF_EXEC_FOLLOW"         /* 1: that process's children too */
#define GP_ENV_REPLAY "GPUPROF_EXEC_REPLAY"         /* auto | rotate | kernel | application */
#define GP_ENV_APP_PASS "GPUPROF_EXEC_APP_PASS"     /* application: the pass this run takes */
#define GP_ENV_GRAPH "GPUPROF_EXEC_GRAPH_PROFILING" /* node | graph | time */
#define GP_ENV_GRAPH_SAMPLES "GPUPROF_EXEC_GRAPH_SAMPLES" /* a count, or all */
#define GP_ENV_SOURCE "GPUPROF_EXEC_SOURCE"       /* 1: --source (each kernel's per-line view) */
#define GP_ENV_NVTX "GPUPROF_EXEC_NVTX"           /* 1: --nvtx (each launch's NVTX ranges) */
#define GP_ENV_STALLS "GPUPROF_EXEC_STALLS"       /* --stalls' period (log2 cycles); 0: off */
/* --nvtx-include and --nvtx-exclude in the order given, each '+' (include) or '-' (exclude)
 * then its expression, separated by GP_NVTX_FILTER_SEP (no expression holds it); "": none */
#define GP_ENV_NVTX_FILTERS "GPUPROF_EXEC_NVTX_FILTERS"
#define GP_NVTX_FILTER_SEP '\x1f'
/* NVTX loads the library it names as its tool (src/inject/nvtx.c): set to the library with
 * --nvtx, left as the user's environment has it otherwise. */
#define GP_ENV_NVTX_INJECTION "NVTX_INJECTION64_PATH"

/* ---- the options, through the environment ---------------------------------------------- */

/* What gpuprof exec asks of the library: the user's request and what gpuprof adds to it.
 * Decoded, library and records_dir point into the environment they were read from (the
 * request holds its own). */
typedef struct {
    const char *library;           /* libgpuprof-inject.so: the driver loads it */
    const char *records_dir;       /* NULL: not set (the library then stays out of the way) */
    gp_metrics_request metrics;    /* kind NONE: time every kernel, profile none */
    gp_exec_request request;       /* the filters, children, replay, CUDA graphs */
    long parent_pid;               /* gpuprof's pid; -1: not set */
    unsigned app_pass;             /* application: the one-pass group this run collects */
} gp_exec_options;

/* The variables gp_exec_options_encode writes at most. */
#define GP_EXEC_OPTION_VARS 18

/* The options as environment entries "NAME=VALUE" (malloc'd, the caller frees each) in
 * vars[0 .. *n): GP_ENV_INJECTION, DIR, METRICS, PARENT, FOLLOW, KERNEL, REPLAY, APP_PASS,
 * GRAPH, GRAPH_SAMPLES, SOURCE, NVTX (and NVTX_INJECTION, the library, with --nvtx),
 * NVTX_FILTERS, STALLS, then
 * SKIP, COUNT and PER_KERNEL unless UINT64_MAX.
 * GP_ERR_RUNTIME when memory runs out (nothing is then left allocated). */
int gp_exec_options_encode(const gp_exec_options *o, char *vars[GP_EXEC_OPTION_VARS],
                           size_t *n);

/* The options read from an environment (NULL-terminated "NAME=VALUE" entries, the first of
 * a name counting, as getenv). What is unset or malformed takes its default: metrics NONE
 * when unset and DEFAULT when unknown, the request's defaults (gp_exec_request_default: no
 * filter, skip 0, no count or per-kernel limit, children not followed, replay auto, graph
 * profiling node, GP_GRAPH_SAMPLES_DEFAULT sampled graph launches, no --source unless
 * GP_ENV_SOURCE is "1", no --nvtx unless GP_ENV_NVTX is "1", no --stalls unless GP_ENV_STALLS
 * is a period within GP_STALL_PERIOD_MIN..MAX), no parent, application pass 0. A --kernel pattern too long for the
 * request is no filter that matches nothing: the library says so. */
void gp_exec_options_decode(char *const *env, gp_exec_options *o);

#endif
