/* The launch callbacks (metrics mode) and the contexts' profilers: which launches are
 * profiled (--kernel, --launch-skip, --launch-count, --per-kernel) and their records. The
 * library runs inside someone else's process: nothing here exits, prints, or changes the
 * program's CUDA state beyond what profiling needs; what cannot be done becomes a warning
 * record. */
#ifndef GPUPROF_INJECT_LAUNCHES_H
#define GPUPROF_INJECT_LAUNCHES_H

#include "gpuprof/protocol.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>

/* Take the options' metrics and launch filters, before any callback; -1 when the kernel
 * filter does not compile here (nothing is then to be profiled). */
int gp_launches_start(const gp_exec_options *o);

/* Hand the graph launches (graph_launches.h) the options and what they borrow from here;
 * after gp_launches_start. */
void gp_launches_start_graphs(const gp_exec_options *o);

void gp_launches_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d);
void gp_launches_on_context_created(CUcontext ctx);
void gp_launches_on_context_destroyed(CUcontext ctx);
/* End every context's open pass, writing its launches: at the end of the process, and after
 * a crash (may_wait false: skipped when another thread is inside a launch). */
void gp_launches_end_passes(bool may_wait);

#endif
