/* Which launches are profiled: ncu's filters, in ncu's order. The NVTX filters
 * (--nvtx-include, --nvtx-exclude: the launching thread's ranges, nvtx_ranges.h; a graph's
 * nodes get the graph launch's thread's) and the name filter (--kernel,
 * matched against the mangled and the demangled name), then --launch-skip and
 * --launch-count over the launches it takes, then at most --per-kernel of each kernel. A
 * launch being captured into a CUDA graph does not run now and is not asked about; a graph's
 * kernel nodes are, each as a launch (graph_launches.c). Every caller holds the launch lock. */
#ifndef GPUPROF_INJECT_FILTERS_H
#define GPUPROF_INJECT_FILTERS_H

#include "inject/inject.h"

#include "gpuprof/exec_request.h"

#include <stdbool.h>

typedef enum {
    GP_FILTER_NOT_CHOSEN,
    GP_FILTER_BEYOND_QUOTA,   /* its kernel has its --per-kernel launches: profiled only if
                                 its signature still lacks a pass (sessions.h) */
    GP_FILTER_CHOSEN
} gp_filter_choice;

/* A distinct kernel as the filters know it. */
typedef struct gp_filter_kernel gp_filter_kernel;

/* Take the request's filters, before any callback; -1 when the --kernel pattern or an NVTX
 * filter does not compile here (no launch is then chosen). */
int gp_filters_start(const gp_exec_request *r);
/* The filters' choice for a launch of the kernel (mangled name): it counts as a launch. */
gp_filter_choice gp_filters_choose(const char *mangled, gp_filter_kernel **kernel);
/* Whether the name filter (--kernel) takes the kernel and the NVTX filters the calling
 * thread's launch now; no launch is counted. */
bool gp_filters_matches(const char *mangled);
/* The chosen launch is profiled: it counts toward its kernel's --per-kernel and toward
 * --launch-count. */
void gp_filters_profiled(gp_filter_kernel *kernel);
/* --launch-count's launches are all profiled: no later launch will be. */
bool gp_filters_done(void);

#endif
