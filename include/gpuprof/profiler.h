/* Hardware counters per range through CUPTI's Range Profiler and Profiler Host API (CUDA 13).
 * counters/profiler.c is the one file that drives the range profiler (inject/ uses
 * CUPTI's callbacks and activity records besides). It knows counters, contexts, passes and
 * ranges; nothing of kernels, requests, results or metric names.
 *
 * Use: open (device or chip) → configure (the counters; several configurations may be added,
 * numbered from 0, each collected in sessions of its own) → attach (a context, a replay
 * policy) → sessions: begin (a configuration, a replay), then pass start/stop until the last
 * pass (user replay reruns the work each pass; kernel replay needs one), end (decode), read
 * each range's values. */
#ifndef GPUPROF_PROFILER_H
#define GPUPROF_PROFILER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gp_profiler gp_profiler;

typedef enum {
    GP_REPLAY_USER,    /* the caller reruns its work once per pass, restoring its inputs */
    GP_REPLAY_KERNEL,  /* CUPTI replays each kernel, saving and restoring device memory */
    GP_REPLAY_USER_RANGE /* user replay of one range, from each pass's start to its stop: a
                            whole CUDA graph launch, its nodes one workload */
} gp_replay;

/* CUPTI for a device: initialised, checked for range profiling, its chip's counters known.
 * On failure nothing is held; the error (with a hint where one helps) is recorded. */
int gp_profiler_open(int device, gp_profiler **out);
/* The same for a chip named without a GPU (e.g. "GH100"): configure and count passes only. */
int gp_profiler_open_chip(const char *chip, gp_profiler **out);
void gp_profiler_close(gp_profiler *p);

const char *gp_profiler_chip(const gp_profiler *p);
/* Whether the chip has the counter `name`; its unit when it does. */
bool gp_profiler_has_counter(const gp_profiler *p, const char *name, const char **unit);
#define GP_PROFILER_MAX_CONFIGS 32

/* Add a configuration of counters collected together (kept by pointer: they must outlive
 * the profiler); *passes: the replay passes it takes. The first added is configuration 0. */
int gp_profiler_configure(gp_profiler *p, const char *const *counters, size_t n, int *passes);
/* The passes the counters would take together, without adding a configuration. */
int gp_profiler_count_passes(const gp_profiler *p, const char *const *counters, size_t n,
                             int *passes);
size_t gp_profiler_configurations(const gp_profiler *p);
/* Configuration 0's passes; the counters of the latest session's configuration. */
int gp_profiler_passes(const gp_profiler *p);
size_t gp_profiler_counters(const gp_profiler *p);

/* Start the range profiler on a context (a CUcontext) with one range per kernel launch and
 * the given replay, with room for sessions of `ranges` ranges (0: decide at the first). */
int gp_profiler_attach(gp_profiler *p, void *context, gp_replay replay, size_t ranges);

/* Give the context's range profiler back to CUPTI, keeping the configurations: the device's
 * performance monitors are then free for PM sampling (which CUPTI refuses beside an enabled
 * range profiler: CUPTI_ERROR_HARDWARE_BUSY). The next session enables it again. */
void gp_profiler_suspend(gp_profiler *p);

/* A session of at most `ranges` ranges of a configuration with a replay: its counter data
 * is reset. gp_profiler_begin: configuration 0 with the replay given at attach. */
int gp_profiler_begin_with(gp_profiler *p, size_t config, gp_replay replay, size_t ranges);
int gp_profiler_begin(gp_profiler *p, size_t ranges);
/* A pass (a GP_REPLAY_USER_RANGE session's one range opens and closes with it). *last: CUPTI
 * has every pass it needs (always, with kernel replay). */
int gp_profiler_start(gp_profiler *p);
int gp_profiler_stop(gp_profiler *p, bool *last);
/* Decode the session: the number of ranges it recorded. */
int gp_profiler_end(gp_profiler *p, size_t *ranges);
/* The counters' values for one range of the session, in its configuration's order
 * (values[gp_profiler_counters]). */
int gp_profiler_read(const gp_profiler *p, size_t range, double *values);

/* Chip name of a device (e.g. "GH100"); needs the driver but no profiling permission. */
int gp_profiler_device_chip(int device, char *chip, size_t len);

#endif
