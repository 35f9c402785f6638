/* Device memory helpers for the workloads: every failure names what was being allocated. */
#include "catalogue/workload.h"

#include "gpuprof/status.h"

#include <cuda_runtime_api.h>

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
