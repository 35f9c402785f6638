// The saxpy family (y = a·x + y): the "monolithic" kernel with one thread per element, and the
// grid-stride loop of "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops".
//
// What differs from the seed, and why:
//  * 64-bit sizes and indices: n reaches 2^36, and the seed's int i (and its int stride
//    blockDim.x * gridDim.x) overflow past 2^31.
//  * The monolithic launcher checks its grid (at most 2^31 - 1 blocks) instead of launching an
//    invalid one.
//  * gridstride is the seed's scalar loop. vec4, the modern variant next to it, walks the
//    arrays in float4 steps where x and y are 16-byte aligned (always, for cudaMalloc'ed
//    arrays). saxpy is memory-bound (12 bytes per element and one FMA): 16-byte accesses move
//    4x the bytes per load instruction and per loop trip, so each resident thread keeps 32
//    bytes in flight instead of 8, which a modest grid (the default, 32 blocks per
//    multiprocessor) needs to reach full DRAM bandwidth. The DRAM traffic is the same. The
//    n % 4 elements left over, or all of them when the pointers are not aligned, go through
//    the scalar loop, so --grid=1 --block=1 still runs serially.
#include "common.cuh"
#include "gpuprof/saxpy.h"

#include <cstdint>

namespace {


// ---- monolithic: one thread per element ------------------------------------------------------
__global__ void saxpyMonolithic(size_t n, float a, const float *__restrict__ x,
                                float *__restrict__ y)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// ---- grid-stride: any grid covers any n --------------------------------------------------------
// nvec: number of float4 vectors handled in the vector loop (0 when x or y is not aligned);
// elements from 4 * nvec to n go through the scalar loop.
__global__ void saxpyGridStride(size_t n, size_t nvec, float a, const float *__restrict__ x,
                                float *__restrict__ y)
{
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)blockDim.x * gridDim.x;
    const float4 *__restrict__ x4 = reinterpret_cast<const float4 *>(x);
    float4 *__restrict__ y4 = reinterpret_cast<float4 *>(y);
    for (size_t i = first; i < nvec; i += stride) {
        const float4 xv = x4[i];
        float4 yv = y4[i];
        yv.x = a * xv.x + yv.x;
        yv.y = a * xv.y + yv.y;
        yv.z = a * xv.z + yv.z;
        yv.w = a * xv.w + yv.w;
        y4[i] = yv;
    }
    for (size_t i = 4 * nvec + first; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

// ---- host side --------------------------------------------------------------------------------

int check_args(const gp_saxpy_args *s)
{
    if (s->n < 1)
        return gp_fail(GP_ERR_USAGE, "saxpy: the size must be at least 1");
    if (s->block < 1 || s->block > GP_MAX_THREADS_PER_BLOCK)
        return gp_fail(GP_ERR_USAGE, "saxpy: block %u: must be 1 to %u threads", s->block,
                       GP_MAX_THREADS_PER_BLOCK);
    if (!s->x || !s->y)
        return gp_fail(GP_ERR_RUNTIME, "internal error: saxpy called without its arrays");
    return GP_OK;
}

bool aligned16(const void *p)
{
    return (reinterpret_cast<uintptr_t>(p) & 15u) == 0;
}

// The seed's default grid: 32 blocks per multiprocessor, so that every SM gets the same work.
int default_grid(unsigned *grid)
{
    int device = 0, sms = 0;
    GP_CUDA(cudaGetDevice(&device));
    GP_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    *grid = 32u * (unsigned)(sms > 0 ? sms : 1);
    return GP_OK;
}

}  // namespace

extern "C" {

int gp_saxpy_monolithic(const gp_saxpy_args *s, const gp_hooks *h)
{
    GP_TRY(check_args(s));
    const unsigned long long blocks = (s->n + s->block - 1) / s->block;
    if (blocks > GP_MAX_GRID_X)
        return gp_fail(GP_ERR_USAGE, "saxpy monolithic: %llu elements in blocks of %u need %llu "
                                     "blocks, more than a grid holds (2^31 - 1); use a larger "
                                     "block or the gridstride variant",
                       (unsigned long long)s->n, s->block, blocks);
    const dim3 grid((unsigned)blocks), block(s->block);
    return gp_launch(h, gp_info("saxpyMonolithic", grid, block), [&] {
        saxpyMonolithic<<<grid, block>>>((size_t)s->n, s->a, s->x, s->y);
    });
}

}  // extern "C"

namespace {

// vectorised: use the float4 loop where the arrays allow it; otherwise the seed's scalar loop.
int launch_gridstride(const gp_saxpy_args *s, const gp_hooks *h, bool vectorised,
                      const char *name)
{
    GP_TRY(check_args(s));
    unsigned blocks = s->grid;
    if (blocks == 0)
        GP_TRY(default_grid(&blocks));
    if (blocks > GP_MAX_GRID_X)
        return gp_fail(GP_ERR_USAGE, "saxpy: grid %u: at most 2^31 - 1 blocks", blocks);
    const size_t nvec =
        vectorised && aligned16(s->x) && aligned16(s->y) ? (size_t)(s->n / 4) : 0;
    const dim3 grid(blocks), block(s->block);
    return gp_launch(h, gp_info(name, grid, block), [&] {
        saxpyGridStride<<<grid, block>>>((size_t)s->n, nvec, s->a, s->x, s->y);
    });
}

}  // namespace

extern "C" {

int gp_saxpy_gridstride(const gp_saxpy_args *s, const gp_hooks *h)
{
    return launch_gridstride(s, h, false, "saxpyGridStride");
}

int gp_saxpy_vec4(const gp_saxpy_args *s, const gp_hooks *h)
{
    return launch_gridstride(s, h, true, "saxpyGridStrideVec4");
}

}  // extern "C"
