/* What the families' workloads share besides the seeded inputs (random.c): the grid-size
 * check of their launch arithmetic, the float32 sum check, device memory calls that name what
 * failed, and the state every family's begins with, whose buffers one destroy frees. */
#include "catalogue/workload.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int gp_workload_create(const gp_problem *p, const gp_device_info *dev, void **state)
{
    const gp_workload_ops *ops = p->family->workload;
    if (ops->state_bytes < sizeof(gp_workload_state))
        return gp_fail(GP_ERR_RUNTIME, "internal error: %s's workload names no state size",
                       p->family->name);
    gp_workload_state *w = calloc(1, ops->state_bytes);
    if (!w)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    w->p = *p;
    *state = w; /* from here on, destroy() frees whatever was created */
    return ops->create(w, dev);
}

int gp_state_device_alloc(gp_workload_state *w, void **ptr, uint64_t bytes, const char *what)
{
    if (w->n_device == GP_WORKLOAD_MAX_BUFFERS) {
        *ptr = NULL;
        return gp_fail(GP_ERR_RUNTIME, "internal error: more than %d device buffers for %s",
                       GP_WORKLOAD_MAX_BUFFERS, what);
    }
    GP_TRY(gp_device_alloc(ptr, bytes, what));
    w->device[w->n_device++] = *ptr;
    return GP_OK;
}

void *gp_state_host_alloc(gp_workload_state *w, size_t bytes)
{
    void *buffer = w->n_host < GP_WORKLOAD_MAX_BUFFERS ? malloc(bytes) : NULL;
    if (buffer)
        w->host[w->n_host++] = buffer;
    return buffer;
}

void gp_workload_destroy(void *state)
{
    gp_workload_state *w = state;
    if (!w)
        return;
    for (size_t i = 0; i < w->n_device; i++)
        GP_CHECKED(cudaFree(w->device[i]), "a workload's device buffer was not freed");
    for (size_t i = 0; i < w->n_host; i++)
        free(w->host[i]);
    free(w);
}
