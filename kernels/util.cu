// Utility kernels used by the runner and profiler, not part of any family.
#include "common.cuh"

namespace {

// Reads every 16-byte word of buf, a buffer several times the L2's size, so the next kernel
// finds none of its data in L2 (as after Nsight Compute's cache flush). Reading leaves no
// dirty lines of its own. Then, from sm_80 on, it discards buf's lines from L2, so the next
// kernel finds the L2 invalid rather than full of clean lines, as ncu's flush-and-invalidate
// leaves it, which brings its L2 hits closer to ncu's (bench/README.md). Discarding writes
// nothing back (the lines are clean) and leaves buf's contents undefined, which nothing
// reads for their value. The discards start at the lines read first, long evicted, so a
// thread that finishes its reads early reaches the lines read last after the others have
// read them.
// The sum is stored only if it hits an impossible value, so the loads cannot be optimised
// away.
__global__ void gp_flush_l2_kernel(const int4 *__restrict__ buf, size_t words, int *sink)
{
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    int acc = 0;
    for (size_t i = first; i < words; i += stride) {
        const int4 v = __ldcg(buf + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (sink && acc == 0x7e57f145)
        *sink = acc;
#if __CUDA_ARCH__ >= 800
    const size_t words_per_line = 128 / sizeof(int4);
    for (size_t line = first; line < words / words_per_line; line += stride)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(buf + line * words_per_line)
                     : "memory");
#endif
}

}  // namespace

extern "C" int gp_flush_l2(void *buf, size_t bytes)
{
    const size_t words = bytes / sizeof(int4);
    if (words == 0)
        return GP_OK;
    gp_flush_l2_kernel<<<1024, 256>>>((const int4 *)buf, words, nullptr);
    GP_LAUNCHED();
    return GP_OK;
}
