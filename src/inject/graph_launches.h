/* The program's CUDA graph launches under --graph-profiling (protocol.h):
 *   node   each profiled graph launch first launches the graph's kernel nodes one by one on
 *          a private stream ("shadow launches", in dependency order, child graphs walked,
 *          memcpy and memset nodes executed in between), each profiled as an ordinary launch
 *          of the context's sessions, with the context's device memory saved before and
 *          restored after by CUPTI's Checkpoint API; then the program's own graph launch
 *          runs, its DRAM traffic sampled (sampling.h). A graph whose nodes cannot be
 *          launched that way (graphs.h says why) is sampled and timed only.
 *   graph  one range around the whole graph launch (hardware counters only).
 *   time   timed, not profiled.
 * A graph launch is never swallowed: no range-profiler pass or session is open across it.
 * The caller holds the launch lock from the launch's entry to its exit.
 *
 * The library runs inside someone else's process: nothing here exits or prints. */
#ifndef GPUPROF_INJECT_GRAPH_LAUNCHES_H
#define GPUPROF_INJECT_GRAPH_LAUNCHES_H

#include "inject/sessions.h"
#include "gpuprof/protocol.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>

/* What the launch callbacks (launches.c) lend the graph launches. */
typedef struct {
    /* The context's sessions when this kernel node is to be profiled (the launch filters
     * count it as a launch), else NULL. */
    gp_sessions *(*choose)(CUcontext ctx, const gp_launch_info *node);
    /* The context's open pass ended, its launches written. */
    void (*end_pass)(CUcontext ctx);
    /* Every context's range profiler on the device suspended (before a sampling window). */
    void (*suspend_range_profilers)(uint32_t device);
} gp_graph_hooks;

void gp_graph_launches_start(gp_graph_profiling mode, bool profiling, const gp_graph_hooks *h);

/* The context is going: its private stream with it. */
void gp_graph_launches_forget(CUcontext ctx);

/* Whether this thread is running shadow launches: the launch callbacks leave them alone. */
bool gp_graph_launches_shadowing(void);

/* cuGraphLaunch's API entry and exit (launch lock held in between). */
void gp_graph_launch_enter(const CUpti_CallbackData *d);
void gp_graph_launch_exit(const CUpti_CallbackData *d);

#endif
