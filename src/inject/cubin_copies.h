/* The cubins kept for the per-line views: a copy of each module the driver loads, so that an
 * instruction's file and line can be looked up after the load callback returned
 * (gpuprof/sass_source.h's gp_cubins_*). Kept only when a view needs lines: --source's
 * patched counts (source_pass.h) and --stalls' samples (stalls.h).
 * Guard: the cubins' own lock (counters/cubins.c); `keep` is set before any callback. */
#ifndef GPUPROF_INJECT_CUBIN_COPIES_H
#define GPUPROF_INJECT_CUBIN_COPIES_H

#include "inject/inject.h"

#include <cupti.h>
#include <stdbool.h>

/* Before any callback: whether the modules' cubins are kept. */
void gp_cubin_copies_start(bool keep);
/* A resource callback: a module loaded keeps its cubin. */
void gp_cubin_copies_on_module(CUpti_CallbackId cbid, const CUpti_ResourceData *r);

#endif
