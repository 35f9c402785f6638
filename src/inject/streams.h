/* The private stream of each context, made at its first shadow launch (graph_launches.c):
 * shadow launches, and the copies and memsets between them, run there and nowhere in the
 * program's own streams. CUPTI's id of each is kept (profiled.h), so that its kernels and
 * copies stay out of the program's activities. Every caller holds the launch lock. */
#ifndef GPUPROF_INJECT_STREAMS_H
#define GPUPROF_INJECT_STREAMS_H

#include "inject/inject.h"

#include <cuda.h>

/* The context's private stream (the context current); NULL when none can be made, *why then
 * saying why (the table is full, or the name of cuStreamCreate's error; NULL when the driver
 * does not know it). */
CUstream gp_streams_private(CUcontext ctx, const char **why);
/* The context is going: its private stream with it. */
void gp_streams_forget(CUcontext ctx);

#endif
