/* The C ABI between host code (src/) and kernels (kernels/<family>.cu): what every family
 * shares; each family's arguments and launchers are in its own header (gpuprof/reduce.h, …).
 *
 * A launcher runs one whole variant of a workload: one or more kernels on the default
 * stream, each followed by a launch-error check. Around every kernel it calls the caller's
 * hooks (timing events, profiler ranges), so per-launch times and counters need no
 * knowledge of the kernel inside the runner. Launchers return a gpuprof status. */
#ifndef GPUPROF_KERNELS_H
#define GPUPROF_KERNELS_H

#include "gpuprof/limits.h"
#include "gpuprof/types.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
