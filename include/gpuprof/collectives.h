/* Collective kernels: those that communicate with other GPUs or processes while they run
 * (NCCL's device kernels, NVSHMEM's). Run alone, as kernel replay or a graph node's shadow
 * launch would run them, they wait for peers that never come (the job hangs) or exchange
 * stale data (it is corrupted); their time includes waiting for their peers. gpuprof exec
 * never replays them (src/inject/sessions.c) and its reports say so (src/records/read.c). */
#ifndef GPUPROF_COLLECTIVES_H
#define GPUPROF_COLLECTIVES_H

#include <stdbool.h>

/* Whether a kernel (its mangled or demangled name) is a collective. */
bool gp_kernel_is_collective(const char *name);

/* The note every collective launch of an exec report carries. */
extern const char gp_collective_note[];

#endif
