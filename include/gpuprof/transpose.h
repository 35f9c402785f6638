/* The transpose family: out (nx rows of ny) = the transpose of in (ny rows of nx).
 * The C ABI between kernels/transpose.cu and its host side (src/catalogue/workload_transpose.c). */
#ifndef GPUPROF_TRANSPOSE_H
#define GPUPROF_TRANSPOSE_H

#include "gpuprof/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const float *in;
    float *out;
    unsigned nx, ny;           /* columns, rows of the input */
    gp_dim3 block;
    int pad;                   /* shared-tile padding in 4-byte words */
} gp_transpose_args;

/* A launcher of the family: runs one variant (one or more kernels), a status back. */
typedef int gp_transpose_launcher(const gp_transpose_args *args, const gp_hooks *hooks);
typedef gp_transpose_launcher *gp_transpose_fn;

/* kernels/transpose.cu — ch. 5.4 of the book, and a modern tiled transpose */
gp_transpose_launcher gp_transpose_copy, gp_transpose_naive, gp_transpose_smem,
    gp_transpose_smemunroll, gp_transpose_tile;

#ifdef __cplusplus
}
#endif

#endif
