/* Collective kernels told by their names (gpuprof/collectives.h). NCCL's device kernels are
 * plain C functions (ncclDevKernel_AllReduce_Sum_f32_RING_LL, ncclKernel_... before NCCL
 * 2.19), so their names read the same mangled or not; NVSHMEM's start with its prefix.
 * Base layer: never prints, never exits, never links cudart. */
#include "gpuprof/collectives.h"

#include <string.h>

bool gp_kernel_is_collective(const char *name)
{
    if (!name)
        return false;
    return strstr(name, "ncclDevKernel_") || strstr(name, "ncclKernel_") ||
           strncmp(name, "nvshmem", 7) == 0;
}
