/* Collective kernels: NCCL's and NVSHMEM's, whose launches wait for the other ranks of a
 * distributed job. Their time includes that wait, so they are never replayed (a replay would
 * wait for peers that do not replay) and their slowest rank is usually the one that arrived
 * first, not the one the others waited for. */
#ifndef GPUPROF_COLLECTIVES_H
#define GPUPROF_COLLECTIVES_H

#include <stdbool.h>

/* Whether a kernel's name, mangled or demangled, is a collective's: it contains
 * "ncclDevKernel_" or "ncclKernel_", or starts with "nvshmem". NULL: false. */
bool gp_kernel_is_collective(const char *name);

#endif
