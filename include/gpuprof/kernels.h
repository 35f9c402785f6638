/* The C ABI between host code (src/) and kernels (kernels/<family>.cu).
 *
 * A launcher runs one whole variant of a workload: one or more kernels on the default
 * stream, each followed by a launch-error check. Around every kernel it calls the caller's
 * hooks (timing events, profiler ranges), so per-launch times and counters need no
 * knowledge of the kernel inside the runner. Launchers return a gpuprof status. */
#ifndef GPUPROF_KERNELS_H
#define GPUPROF_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GP_INT32 = 0, GP_FLOAT32 = 1 } gp_dtype;

typedef struct {
    unsigned x, y, z;
} gp_dim3;

/* One kernel launch as the reports show it. */
typedef struct {
    const char *kernel;        /* name in reports and profiler ranges */
    gp_dim3 grid, block;
    size_t shared_bytes;
    unsigned in_nx, in_ny;     /* multi-pass workloads: the pass's input shape … */
    unsigned out_nx, out_ny;   /* … and output shape (0 when not meaningful) */
    int opaque;                /* 1: a library call whose own kernels are not visible */
} gp_kernel_info;

typedef struct {
    void *ctx;
    int (*before)(void *ctx, const gp_kernel_info *info);
    int (*after)(void *ctx);
} gp_hooks;

/* ---- reduce: sum of n int32 or float32 values ------------------------------------ */
typedef struct {
    gp_dtype dtype;
    void *in;                  /* n elements; in-place variants overwrite them */
    void *partials;            /* per-block partial sums, 8 bytes each (int64 / float) */
    void *total;               /* single-pass variants: int64 (int32 input) or float */
    unsigned *counter;         /* blocks-done counter, zero before the first launch */
    void *scratch;             /* library temporary storage (cub) */
    size_t scratch_bytes;
    uint64_t n;
    unsigned block;
} gp_reduce_args;

typedef int (*gp_reduce_fn)(const gp_reduce_args *args, const gp_hooks *hooks);

/* Bytes of temporary storage the cub variant needs for n elements (0 on failure). */
int gp_reduce_cub_scratch(gp_dtype dtype, uint64_t n, size_t *bytes);
/* Upper bound of the grid of the persistent single-pass variants, which size their grid
 * from occupancy: blocks resident on one multiprocessor never exceed this. */
#define GP_MAX_BLOCKS_PER_SM 32u

/* ---- transpose: out (ny × nx… transposed: nx rows of ny) = in (ny rows of nx) ------ */
typedef struct {
    const float *in;
    float *out;
    unsigned nx, ny;           /* columns, rows of the input */
    gp_dim3 block;
    int pad;                   /* shared-tile padding in 4-byte words */
} gp_transpose_args;

typedef int (*gp_transpose_fn)(const gp_transpose_args *args, const gp_hooks *hooks);

/* ---- reduce2d: multi-pass sum of an nx × ny float matrix ------------------------- */
typedef struct {
    const float *in;
    float *buf[2];             /* ping-pong buffers for the passes after the first */
    unsigned nx, ny;
    unsigned group;
    gp_dim3 block;
    float **result;            /* out: where the final 1 × 1 value lies */
} gp_reduce2d_args;

typedef int (*gp_reduce2d_fn)(const gp_reduce2d_args *args, const gp_hooks *hooks);

/* ---- saxpy: y = a·x + y -------------------------------------------------------- */
typedef struct {
    const float *x;
    float *y;
    uint64_t n;
    float a;
    unsigned block;
    unsigned grid;             /* grid-stride variant; 0 = the launcher's default */
} gp_saxpy_args;

typedef int (*gp_saxpy_fn)(const gp_saxpy_args *args, const gp_hooks *hooks);

/* ---- utilities ---------------------------------------------------------------- */
/* Leave the L2 cache holding nothing of earlier work by reading `bytes` of `buf` (several
 * times the L2 size) with one kernel. */
int gp_flush_l2(void *buf, size_t bytes);

/* Fill n device values with the seeded stream of include/gpuprof/seeded.h (the values the
 * host's gp_fill_float and gp_seeded_*_sum see), asynchronously on the default stream. */
int gp_fill_int32_device(int32_t *x, uint64_t n, uint64_t seed);
int gp_fill_float_device(float *x, uint64_t n, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
