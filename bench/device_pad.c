/* LD_PRELOAD helper of bench_ncu.py: before the program's main, take GPUPROF_BENCH_PAD_MB
 * MiB of device memory on device 0 and keep it, so that the program's own buffers land
 * elsewhere in the GPU's physical memory. DRAM and L2 counts that depend on the cache state
 * move with where the buffers lie (the L2 slices and sets their lines map to); the bench
 * samples several placements instead of trusting one. Unset or 0: does nothing. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void fail(const char *what, CUresult r)
{
    /* A run that silently went unpadded would be counted as a placement it is not. */
    fprintf(stderr, "device_pad: %s failed (CUDA driver error %d)\n", what, (int)r);
    _exit(3);
}

__attribute__((constructor)) static void take_padding(void)
{
    const char *text = getenv("GPUPROF_BENCH_PAD_MB");
    const long mib = text ? strtol(text, NULL, 10) : 0;
    if (mib <= 0)
        return;
    CUdevice dev;
    CUcontext ctx;
    CUdeviceptr pad;
    CUresult r;
    if ((r = cuInit(0)) != CUDA_SUCCESS)
        fail("cuInit", r);
    if ((r = cuDeviceGet(&dev, 0)) != CUDA_SUCCESS)
        fail("cuDeviceGet", r);
    /* The primary context: the one the CUDA runtime in the program will use. */
    if ((r = cuDevicePrimaryCtxRetain(&ctx, dev)) != CUDA_SUCCESS)
        fail("cuDevicePrimaryCtxRetain", r);
    if ((r = cuCtxPushCurrent(ctx)) != CUDA_SUCCESS)
        fail("cuCtxPushCurrent", r);
    if ((r = cuMemAlloc(&pad, (size_t)mib << 20)) != CUDA_SUCCESS)
        fail("cuMemAlloc", r);
    if ((r = cuCtxPopCurrent(&ctx)) != CUDA_SUCCESS)
        fail("cuCtxPopCurrent", r);
}
