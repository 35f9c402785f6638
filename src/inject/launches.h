/* The kernel launch callbacks (metrics mode): each launch the filters choose is profiled in
 * its context's sessions, the others end the context's open pass before they run; a CUDA
 * graph launch goes to graph_launches.h. */
#ifndef GPUPROF_INJECT_LAUNCHES_H
#define GPUPROF_INJECT_LAUNCHES_H

#include "inject/inject.h"

#include <cupti.h>

/* A driver API callback of a kernel or graph launch (subscription.h), entry or exit. */
void gp_launches_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d);

#endif
