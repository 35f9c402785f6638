/* The reduce family: sum of n int32 or float32 values.
 * The C ABI between kernels/reduce.cu and its host side (src/catalogue/workload_reduce.c). */
#ifndef GPUPROF_REDUCE_H
#define GPUPROF_REDUCE_H

#include "gpuprof/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    gp_dtype dtype;
    void *in;                  /* n elements; in-place variants overwrite them */
    void *partials;            /* per-block partial sums: the input type for the book's
                                  kernels, the total's type for the single-pass ones, so
                                  GP_PARTIAL_BYTES per slot */
    void *total;               /* single-pass variants: int64 (int32 input) or float */
    unsigned *counter;         /* blocks-done counter, zero before the first launch */
    void *scratch;             /* library temporary storage (cub) */
    size_t scratch_bytes;
    uint64_t n;
    unsigned block;
} gp_reduce_args;

/* A launcher of the family: runs one variant (one or more kernels), a status back. */
typedef int gp_reduce_launcher(const gp_reduce_args *args, const gp_hooks *hooks);
typedef gp_reduce_launcher *gp_reduce_fn;

/* The widest partial a reduction leaves: an int64 total of int32 input. */
#define GP_PARTIAL_BYTES 8u

/* Bytes of temporary storage the cub variant needs for n elements (0 on failure). */
int gp_reduce_cub_scratch(gp_dtype dtype, uint64_t n, size_t *bytes);
/* Upper bound of the grid of the persistent single-pass variants, which size their grid
 * from occupancy: blocks resident on one multiprocessor never exceed this. */
#define GP_MAX_BLOCKS_PER_SM 32u

/* kernels/reduce.cu — "Professional CUDA C Programming" ch. 3 and the modern references */
gp_reduce_launcher gp_reduce_neighbored, gp_reduce_neighboredless, gp_reduce_interleaved,
    gp_reduce_unrolling2, gp_reduce_unrolling4, gp_reduce_unrolling8, gp_reduce_unrollwarps8,
    gp_reduce_completeunrollwarps8, gp_reduce_completeunroll, gp_reduce_threadfence,
    gp_reduce_shfl, gp_reduce_cub;

#ifdef __cplusplus
}
#endif

#endif
