/* A context's profiling sessions, and the records of the launches they profile.
 *
 * A configuration of several passes needs kernel replay: a session per launch, started at
 * its API entry and decoded at its exit (CUPTI replays the kernel inside the launch call).
 * A configuration of one pass needs no replay: the program's own run of each kernel is the
 * pass, and one pass holds the consecutive profiled launches of the context, a range each,
 * decoded every GP_PASS_RANGES launches and before anything that must not become a range
 * runs there (a launch not profiled, a graph), and at the end of the context or process.
 * On the H100 a start and stop cost about 17 ms, a range inside a pass 0.6 ms
 * (bench/README.md, replay_cost). */
#ifndef GPUPROF_INJECT_SESSIONS_H
#define GPUPROF_INJECT_SESSIONS_H

#include "gpuprof/collector.h"

#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

/* Ranges of one pass: its start costs more the more it holds (bench/README.md). */
#define GP_PASS_RANGES 32

/* A profiled launch, as its record says it. */
typedef struct {
    uint32_t id;                       /* correlation id */
    uint32_t stream;
    char *kernel;                      /* mangled name; owned while pending */
    unsigned grid[3], block[3], smem;
} gp_launch_info;

typedef struct {
    CUcontext ctx;
    uint32_t uid, device;
    gp_collector *collector;           /* NULL: nothing is profiled on this context */
    bool pass_open;
    gp_launch_info pending[GP_PASS_RANGES];
    size_t n_pending;
} gp_sessions;

/* Attach an opened collector to the context, with the replay and capacity its passes need;
 * on success the sessions own it. */
int gp_sessions_attach(gp_sessions *s, gp_collector *c);

/* At a profiled launch's API entry: its session or pass is running once this is true. */
bool gp_sessions_start(gp_sessions *s);
/* At its API exit: `ran` when the launch succeeded. Its record is written now (a session of
 * its own) or when its pass ends. True when it has (or will have) counters. */
bool gp_sessions_launched(gp_sessions *s, const gp_launch_info *l, bool ran);
/* Before anything that must not be counted runs on the context: the open pass is stopped,
 * decoded, and its launches written. */
void gp_sessions_end_pass(gp_sessions *s);

#endif
