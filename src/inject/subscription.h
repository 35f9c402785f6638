/* libgpuprof-inject.so's CUPTI subscriber: which callbacks it receives. What cannot be done
 * becomes a warning record. */
#ifndef GPUPROF_INJECT_SUBSCRIPTION_H
#define GPUPROF_INJECT_SUBSCRIPTION_H

#include "inject/inject.h"

#include <cupti.h>
#include <stdbool.h>

/* Subscribe on_callback to the contexts' creation and destruction and, with `launches`, to
 * the kernel and graph launches; with `graphs` too, to the executable graphs' instantiation,
 * changes and destruction (graphs.h); with `source`, to the whole resource domain (module
 * loads among it; the SASS metrics count only the process's first flush without it,
 * source_pass.h). -1 (a warning written) when another CUPTI tool holds the subscription. */
int gp_subscription_start(CUpti_CallbackFunc on_callback, bool launches, bool graphs,
                          bool source);

/* Whether a driver callback is one of graphs.h's. */
bool gp_subscription_is_graph_callback(CUpti_CallbackId cbid);
/* --nvtx: the graph nodes made and cloned (launch_ranges.h: a node's path at its capture). */
void gp_subscription_watch_graph_nodes(void);

/* No more kernel launch callbacks: every launch --launch-count allows was profiled. The graph
 * launches keep theirs. */
void gp_subscription_stop_launches(void);

#endif
