/* Opening a collector for the kernel commands on a thread of its own, so that CUPTI's
 * set-up overlaps the caller's creating the context and its data (user replay, on the
 * device's primary context). */
#ifndef GPUPROF_RUNNER_COLLECTOR_OPENING_H
#define GPUPROF_RUNNER_COLLECTOR_OPENING_H

#include "gpuprof/collector.h"

typedef struct gp_collector_opener gp_collector_opener;

/* Start opening; `ranges`: the size of the first session (see gp_profiler_attach). It may
 * start before the caller opens the device: CUPTI's own initialisation needs none. */
int gp_collector_open_async(int device, const gp_metrics_request *request, size_t ranges,
                            gp_collector_opener **out);
/* What gp_collector_open and attach gave (the error and hint in the waiting thread's
 * channel); frees the opener. */
int gp_collector_open_wait(gp_collector_opener *o, gp_collector **out);
/* Wait, and let go of whatever was opened. */
void gp_collector_open_cancel(gp_collector_opener *o);

#endif
