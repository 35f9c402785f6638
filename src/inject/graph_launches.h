/* The program's CUDA graph launches under --graph-profiling (gpuprof/protocol.h):
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
 * The kernel nodes are chosen and profiled through the contexts (contexts.h), as launches. */
#ifndef GPUPROF_INJECT_GRAPH_LAUNCHES_H
#define GPUPROF_INJECT_GRAPH_LAUNCHES_H

#include "inject/inject.h"

#include "gpuprof/exec_request.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>
#include <stdint.h>

/* The mode, --graph-samples (each graph's launches sampled or ranged, the later ones only
 * timed; UINT64_MAX: all), and whether metrics were asked for; before any callback. */
void gp_graph_launches_start(gp_graph_profiling mode, uint64_t samples, bool profiling);

/* Whether this thread is running shadow launches: the launch callbacks leave them alone. */
bool gp_graph_launches_shadowing(void);

/* cuGraphLaunch's API entry and exit (launch lock held in between). */
void gp_graph_launch_enter(const CUpti_CallbackData *d);
void gp_graph_launch_exit(const CUpti_CallbackData *d);

#endif
