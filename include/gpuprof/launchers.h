/* Every launcher the kernels export (extern "C"); the registry's rows point at these. */
#ifndef GPUPROF_LAUNCHERS_H
#define GPUPROF_LAUNCHERS_H

#include "gpuprof/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* kernels/reduce.cu — "Professional CUDA C Programming" ch. 3 and the modern references */
int gp_reduce_neighbored(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_neighboredless(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_interleaved(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_unrolling2(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_unrolling4(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_unrolling8(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_unrollwarps8(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_completeunrollwarps8(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_completeunroll(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_threadfence(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_shfl(const gp_reduce_args *a, const gp_hooks *h);
int gp_reduce_cub(const gp_reduce_args *a, const gp_hooks *h);

#ifdef __cplusplus
}
#endif

#endif
