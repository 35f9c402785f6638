/* The saxpy family: y = a*x + y.
 * The C ABI between kernels/saxpy.cu and its host side (src/catalogue/workload_saxpy.c). */
#ifndef GPUPROF_SAXPY_H
#define GPUPROF_SAXPY_H

#include "gpuprof/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const float *x;
    float *y;
    uint64_t n;
    float a;
    unsigned block;
    unsigned grid;             /* grid-stride variant; 0 = the launcher's default */
} gp_saxpy_args;

/* A launcher of the family: runs one variant (one or more kernels), a status back. */
typedef int gp_saxpy_launcher(const gp_saxpy_args *args, const gp_hooks *hooks);
typedef gp_saxpy_launcher *gp_saxpy_fn;

/* kernels/saxpy.cu — grid-stride loops */
gp_saxpy_launcher gp_saxpy_monolithic, gp_saxpy_gridstride, gp_saxpy_vec4;

#ifdef __cplusplus
}
#endif

#endif
