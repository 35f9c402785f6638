/* libgpuprof-inject.so's CUPTI subscriber: which callbacks it receives. The library runs
 * inside someone else's process: nothing here exits or prints; what cannot be done becomes a
 * warning record. */
#ifndef GPUPROF_INJECT_SUBSCRIPTION_H
#define GPUPROF_INJECT_SUBSCRIPTION_H

#include <cupti.h>
#include <stdbool.h>

/* Subscribe on_callback to the contexts' creation and destruction and, with `launches`, to
 * the kernel and graph launches. -1 (a warning written) when another CUPTI tool holds the
 * subscription. */
int gp_subscription_start(CUpti_CallbackFunc on_callback, bool launches);

/* No more kernel launch callbacks: every launch --launch-count allows was profiled. The graph
 * launches keep theirs. */
void gp_subscription_stop_launches(void);

#endif
