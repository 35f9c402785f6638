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

/* kernels/transpose.cu — ch. 5.4 of the book, and a modern tiled transpose */
int gp_transpose_copy(const gp_transpose_args *a, const gp_hooks *h);
int gp_transpose_naive(const gp_transpose_args *a, const gp_hooks *h);
int gp_transpose_smem(const gp_transpose_args *a, const gp_hooks *h);
int gp_transpose_smemunroll(const gp_transpose_args *a, const gp_hooks *h);
int gp_transpose_tile(const gp_transpose_args *a, const gp_hooks *h);

/* kernels/reduce2d.cu — the OpenCL 2-D multi-pass reduction, ported */
int gp_reduce2d_inner(const gp_reduce2d_args *a, const gp_hooks *h);
int gp_reduce2d_outer(const gp_reduce2d_args *a, const gp_hooks *h);

/* kernels/saxpy.cu — grid-stride loops */
int gp_saxpy_monolithic(const gp_saxpy_args *a, const gp_hooks *h);
int gp_saxpy_gridstride(const gp_saxpy_args *a, const gp_hooks *h);
int gp_saxpy_vec4(const gp_saxpy_args *a, const gp_hooks *h);

#ifdef __cplusplus
}
#endif

#endif
