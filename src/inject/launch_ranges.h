/* --nvtx: each kernel launch's NVTX range path (nvtx_ranges.h), taken on the launching
 * thread at the launch's API entry and read back, by correlation id, by CUPTI's activity
 * thread when it writes the kernel's `K` line (an `R` line after it) and by the sessions when
 * they write a profiled launch's record. A new path's `range` record is written when it is
 * first seen. A graph's kernel nodes also keep the path of their capture (`capture`). */
#ifndef GPUPROF_INJECT_LAUNCH_RANGES_H
#define GPUPROF_INJECT_LAUNCH_RANGES_H

#include "inject/inject.h"

#include <cupti.h>

#include <stdbool.h>
#include <stdint.h>

/* On with --nvtx (before any callback); false when its table could not be made (a warning
 * record says so). */
bool gp_launch_ranges_start(bool nvtx);
bool gp_launch_ranges_on(void);

/* At a kernel or graph launch's API entry, on the launching thread. */
void gp_launch_ranges_note(uint32_t correlation_id);
/* The range number noted for the launch; 0 when none was open, or when the launch is so far
 * behind that its slot was taken again (2^20 launches later). */
uint32_t gp_launch_ranges_of(uint32_t correlation_id);

/* A graph's kernel nodes keep the path open when they were made, on the thread that made
 * them (a stream capture's launch, or cuGraphAddKernelNode): a resource callback,
 * CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, and CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, which
 * gives an executable graph's node its original's path. Ignores other callbacks. */
void gp_launch_ranges_on_node(CUpti_CallbackId cbid, const CUpti_ResourceData *r);
/* The path number of graph node `node_id` (the kernel activity's graphNodeId) at its
 * making; 0 when none was open or the node is unknown. */
uint32_t gp_launch_ranges_of_node(uint64_t node_id);

#endif
