/* Device discovery and description through the CUDA runtime. */
#include "gpuprof/device.h"

#include "gpuprof/status.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

/* gpuprof issues all its work in order on the default stream, so one hardware work queue
 * serves it as well as the driver's default of eight, and a context with one is cheaper to
 * create and to tear down (bench/README.md, "Why the code is the way it is"). */
void gp_device_use_one_queue(void)
{
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0); /* 0: a value the user set stays */
}

int gp_device_count(int *count)
{
    cudaError_t e = cudaGetDeviceCount(count);
    if (e == cudaSuccess && *count > 0)
        return GP_OK;
    if (e == cudaSuccess)
        return gp_fail(GP_ERR_NODEVICE, "no CUDA device found");
    /* The runtime says "insufficient driver" also when there is no driver at all. */
    if (e == cudaErrorInsufficientDriver)
        return gp_fail(GP_ERR_NODEVICE, "no usable CUDA device or driver: no NVIDIA driver "
                                        "found, or one older than CUDA %d.%d (%s)",
                       CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10, cudaGetErrorName(e));
    return gp_fail(GP_ERR_NODEVICE, "no usable CUDA device or driver: %s (%s)",
                   cudaGetErrorName(e), cudaGetErrorString(e));
}

static int attribute(int device, enum cudaDeviceAttr attr, int *value)
{
    GP_CUDA(cudaDeviceGetAttribute(value, attr, device));
    return GP_OK;
}

int gp_device_open(int index, gp_device_info *info)
{
    int count;
    GP_TRY(gp_device_count(&count));
    if (index >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s found)", index,
                       count, count == 1 ? "" : "s");
    GP_CUDA(cudaSetDevice(index));
    GP_CUDA(cudaFree(0)); /* create the context now, not inside the first timed call */

    struct cudaDeviceProp prop;
    GP_CUDA(cudaGetDeviceProperties(&prop, index));
    memset(info, 0, sizeof *info);
    info->index = index;
    snprintf(info->name, sizeof info->name, "%.*s", (int)sizeof info->name - 1, prop.name);
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->memory_bytes = prop.totalGlobalMem;

    int sms, l2, sm_khz, mem_khz, bus_bits;
    GP_TRY(attribute(index, cudaDevAttrMultiProcessorCount, &sms));
    GP_TRY(attribute(index, cudaDevAttrL2CacheSize, &l2));
    GP_TRY(attribute(index, cudaDevAttrClockRate, &sm_khz));
    GP_TRY(attribute(index, cudaDevAttrMemoryClockRate, &mem_khz));
    GP_TRY(attribute(index, cudaDevAttrGlobalMemoryBusWidth, &bus_bits));
    info->multiprocessors = sms;
    info->l2_bytes = (uint64_t)l2;
    info->sm_clock_mhz = sm_khz / 1000.0;
    info->memory_clock_mhz = mem_khz / 1000.0;
    info->memory_bus_bits = bus_bits;
    /* Double data rate: two transfers per memory clock over the whole bus. */
    info->peak_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    info->copy_gbps = -1.0;
    return gp_device_versions(&info->driver_version, &info->runtime_version);
}

int gp_device_versions(int *driver, int *runtime)
{
    GP_CUDA(cudaDriverGetVersion(driver));
    GP_CUDA(cudaRuntimeGetVersion(runtime));
    return GP_OK;
}

/* cuCtxGetCurrent through the runtime's entry-point query: gpuprof links no libcuda, so that
 * it starts (and says why there is no GPU) on machines without a driver. */
int gp_device_use(int device, void **context)
{
    typedef CUresult (*get_current_fn)(CUcontext *);
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    GP_CUDA(cudaSetDevice(device)); /* creates the primary context (CUDA 12 and later) */
    GP_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault,
                                             &found));
    if (found != cudaDriverEntryPointSuccess || !fn)
        return gp_fail(GP_ERR_RUNTIME, "cuCtxGetCurrent not found in the CUDA driver");
    CUcontext ctx = NULL;
    if (((get_current_fn)fn)(&ctx) != CUDA_SUCCESS || !ctx)
        return gp_fail(GP_ERR_RUNTIME, "no current CUDA context to profile");
    *context = ctx;
    return GP_OK;
}

int gp_device_memory(uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t f, t;
    GP_CUDA(cudaMemGetInfo(&f, &t));
    *free_bytes = f;
    *total_bytes = t;
    return GP_OK;
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

#define COPY_WARMUPS 3
#define COPY_REPEATS 15

/* Time the copies between two events; the median milliseconds. */
static int time_with(cudaEvent_t start, cudaEvent_t stop, void *dst, const void *src,
                     size_t bytes, float *median_ms)
{
    float times[COPY_REPEATS];
    for (int i = 0; i < COPY_WARMUPS; i++)
        GP_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
    for (int i = 0; i < COPY_REPEATS; i++) {
        GP_CUDA(cudaEventRecord(start, 0));
        GP_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0));
        GP_CUDA(cudaEventRecord(stop, 0));
        GP_CUDA(cudaEventSynchronize(stop));
        GP_CUDA(cudaEventElapsedTime(&times[i], start, stop));
    }
    qsort(times, COPY_REPEATS, sizeof times[0], compare_float);
    *median_ms = times[COPY_REPEATS / 2];
    return GP_OK;
}

static int time_copies(void *dst, const void *src, size_t bytes, float *median_ms)
{
    cudaEvent_t start = NULL, stop = NULL;
    GP_CUDA(cudaEventCreate(&start));
    int rc = GP_OK;
    cudaError_t e = cudaEventCreate(&stop);
    if (e != cudaSuccess)
        rc = gp_fail_cuda((int)e, "cudaEventCreate", __FILE__, __LINE__);
    else
        rc = time_with(start, stop, dst, src, bytes, median_ms);
    GP_CUDA_RELEASE(rc, cudaEventDestroy(start));
    if (stop)
        GP_CUDA_RELEASE(rc, cudaEventDestroy(stop));
    return rc;
}

static int copy_buffers(size_t bytes, void **src, void **dst)
{
    GP_CUDA(cudaMalloc(src, bytes));
    GP_CUDA(cudaMalloc(dst, bytes));
    GP_CUDA(cudaMemset(*src, 0x5a, bytes));
    return GP_OK;
}

int gp_device_measure_copy(gp_device_info *info)
{
    /* 1 GiB each way (less on small GPUs): far beyond any L2, long enough to time well. */
    uint64_t free_bytes = 0, total = 0;
    GP_TRY(gp_device_memory(&free_bytes, &total));
    size_t bytes = (size_t)1 << 30;
    while (bytes > ((size_t)16 << 20) && 2 * (uint64_t)bytes > free_bytes / 2)
        bytes /= 2;
    void *src = NULL, *dst = NULL;
    float ms = 0.0f;
    int rc = copy_buffers(bytes, &src, &dst);
    if (rc == GP_OK)
        rc = time_copies(dst, src, bytes, &ms);
    GP_CUDA_RELEASE(rc, cudaFree(src));
    GP_CUDA_RELEASE(rc, cudaFree(dst));
    if (rc == GP_OK)
        info->copy_gbps = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
    return rc;
}
