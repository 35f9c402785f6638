/* CUDA runtime errors in the error channel (GP_CUDA, GP_LAUNCHED of gpuprof/status.h): kept
 * apart from src/base/status.c so that code without the runtime (the library exec injects)
 * can record errors too, and here beside the kernels, the lowest code that calls the runtime,
 * so that every caller (kernels/, the workloads, the runner) reaches it downwards. */
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <string.h>

static int is_no_device_error(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
           e == cudaErrorInvalidDevice || e == cudaErrorInitializationError ||
           e == cudaErrorCallRequiresNewerDriver || e == cudaErrorSystemDriverMismatch ||
           e == cudaErrorDevicesUnavailable;
}

int gp_fail_cuda(int cuda_error, const char *call, const char *file, int line)
{
    cudaError_t e = (cudaError_t)cuda_error;
    const char *name = cudaGetErrorName(e);
    const char *text = cudaGetErrorString(e);
    /* Trim the argument list: "cudaMalloc(&p, n)" reads better as "cudaMalloc". */
    size_t len = strcspn(call, "(");
    int code = is_no_device_error(e) ? GP_ERR_NODEVICE : GP_ERR_RUNTIME;
    gp_fail(code, "%.*s failed: %s (%s) at %s:%d", (int)len, call, name ? name : "?",
            text ? text : "?", file, line);
    return code;
}

