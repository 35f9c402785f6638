/* What the families' workloads share besides the seeded inputs (random.c): the grid-size
 * check of their launch arithmetic, the float32 sum check, and device memory calls that name
 * what failed. */
#include "catalogue/workload.h"

#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The float32 sum check (reduce and reduce2d): against a double-precision reference
 * (gp_seeded_float_sum), |got - ref| <= 1e-5 * sum |x_i|, the bound the man page states. */
#define REL_TOL 1e-5

int gp_check_grid_x(uint64_t n, uint64_t per_block, const char *what)
{
    const uint64_t blocks = (n + per_block - 1) / per_block;
    if (blocks <= GP_MAX_GRID_X)
        return GP_OK;
    return gp_fail(GP_ERR_USAGE, "%s: %llu elements need %llu blocks, more than a grid holds "
                                 "(2^31 - 1); use a larger block",
                   what, (unsigned long long)n, (unsigned long long)blocks);
}

void gp_check_float_sum(double got, double ref, double ref_abs, gp_check *check)
{
    memset(check, 0, sizeof *check);
    check->exact = false;
    check->expected = ref;
    check->got = got;
    check->tolerance = REL_TOL * ref_abs;
    const bool ok = fabs(got - ref) <= check->tolerance; /* NaN fails */
    check->status = ok ? GP_CHECK_PASSED : GP_CHECK_FAILED;
    snprintf(check->detail, sizeof check->detail,
             "sum %.9g, expected %.9g, |error| %.3g <= %.3g (1e-5 * sum|x|)", got, ref,
             fabs(got - ref), check->tolerance);
}

int gp_device_alloc(void **ptr, uint64_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(ptr, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        *ptr = NULL;
        return gp_fail(GP_ERR_RUNTIME, "cudaMalloc of %llu bytes for %s failed: %s",
                       (unsigned long long)bytes, what, cudaGetErrorName(e));
    }
    return GP_OK;
}

int gp_download(void *dst, const void *src, uint64_t bytes)
{
    GP_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return GP_OK;
}
