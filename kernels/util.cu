// Utility kernels used by the runner and profiler, not part of any family.
#include "common.cuh"

namespace {

// Step 1 of the L2 flush: write every 16-byte word of a buffer several times the L2's size.
// Writing (not reading) matters: the L2 prefers to evict clean lines, so a read-only sweep
// leaves earlier dirty lines (restored inputs, poisoned outputs) resident, and their
// write-back would then be counted as DRAM writes of the kernel measured next. Measured on
// an H100: ~22 MB of such write-back with a read-only sweep, none with this one.
__global__ void gp_flush_l2_write(int4 *__restrict__ buf, size_t words)
{
    const int4 zero = make_int4(0, 0, 0, 0);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        buf[i] = zero;
}

// Step 2: drop the flush buffer's own dirty lines without writing them back (its contents
// are never read), so the next kernel starts with an L2 that holds nothing dirty, as after
// Nsight Compute's cache flush. discard needs sm_80; on older GPUs the lines stay dirty.
__global__ void gp_flush_l2_discard(char *__restrict__ buf, size_t lines)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < lines;
         i += (size_t)gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(buf + i * 128) : "memory");
#else
    (void)buf;
    (void)lines;
#endif
}

}  // namespace

extern "C" int gp_flush_l2(void *buf, size_t bytes)
{
    const size_t words = bytes / sizeof(int4);
    if (words == 0)
        return GP_OK;
    gp_flush_l2_write<<<1024, 256>>>((int4 *)buf, words);
    GP_LAUNCHED();
    gp_flush_l2_discard<<<1024, 256>>>((char *)buf, bytes / 128);
    GP_LAUNCHED();
    return GP_OK;
}
