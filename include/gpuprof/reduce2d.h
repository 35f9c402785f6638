/* The reduce2d family: multi-pass sum of an nx x ny float matrix.
 * The C ABI between kernels/reduce2d.cu and its host side (src/catalogue/workload_reduce2d.c). */
#ifndef GPUPROF_REDUCE2D_H
#define GPUPROF_REDUCE2D_H

#include "gpuprof/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const float *in;
    float *buf[2];             /* ping-pong buffers for the passes after the first */
    unsigned nx, ny;
    unsigned group;
    gp_dim3 block;
    float **result;            /* out: where the final 1 × 1 value lies */
} gp_reduce2d_args;

/* A launcher of the family: runs one variant (one or more kernels), a status back. */
typedef int gp_reduce2d_launcher(const gp_reduce2d_args *args, const gp_hooks *hooks);
typedef gp_reduce2d_launcher *gp_reduce2d_fn;

/* kernels/reduce2d.cu — the OpenCL 2-D multi-pass reduction, ported */
gp_reduce2d_launcher gp_reduce2d_inner, gp_reduce2d_outer;

#ifdef __cplusplus
}
#endif

#endif
