/* exec --stalls: each context's warp stalls, sampled by CUPTI's PC sampling
 * (gpuprof/pc_sampler.h) during the program's own launches, in a run that collects nothing
 * else (the range profiler and SASS patching spoil PC sampling in their context). A sampler
 * is opened when a context is created; what CUPTI has decoded is drained at a launch's API
 * exit once GP_STALLS_DRAIN_MS have passed since the last drain (continuous mode keeps no
 * per-launch data, so draining is only about CUPTI's buffers), and at the context's end or
 * the process's, when the sampler is closed and its records written: a `stalls` record of
 * the context (period, reasons, CUPTI's totals), then a `stall` record per sampled
 * instruction with its file and line (the cubins kept, inject/cubin_copies.h).
 *
 * Guard: the sampler table's own lock (inject.h's lock order), taken on the program's
 * threads at launch exits and context ends, and at the process's end. */
#ifndef GPUPROF_INJECT_STALLS_H
#define GPUPROF_INJECT_STALLS_H

#include "inject/inject.h"

#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

/* Drain at most this often per context, so that a program of many short launches does not
 * call GetData at each one. CUPTI keeps what it decoded a record per distinct PC, not per
 * sample, in its 16 MiB scratch buffer between drains; no drain failed or lost samples in
 * the H200's runs (bench/README.md, Warp stalls). Neither this interval nor a drain's cost
 * was measured apart. */
#define GP_STALLS_DRAIN_MS 20

/* Before any callback: --stalls' period (log2 cycles), 0 when not asked. */
void gp_stalls_start(unsigned period_log2);
bool gp_stalls_on(void);
/* A context created: its sampler opened (a failure is said once in a warning). */
void gp_stalls_on_created(CUcontext ctx);
/* A launch's API exit on the context: drained when due. */
void gp_stalls_after_launch(CUcontext ctx);
/* The context's end: its sampler closed and its records written. */
void gp_stalls_on_destroyed(CUcontext ctx);
/* The process's end: every sampler still open closed and written. */
void gp_stalls_finish(void);

#endif
