/* The error channel: one message and one hint, kept until main() prints them. */
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[GP_MESSAGE_LEN]; /* per thread: the profiler opens on
                                                         its own */
static _Thread_local char last_hint[GP_MESSAGE_LEN];

int gp_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    last_hint[0] = '\0';
    return code;
}

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

void gp_set_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_hint, sizeof last_hint, fmt, ap);
    va_end(ap);
}

const char *gp_error(void) { return last_error; }
const char *gp_hint(void) { return last_hint; }

void gp_clear_error(void)
{
    last_error[0] = '\0';
    last_hint[0] = '\0';
}
