// The seeded inputs, generated where the kernels read them: the same splitmix64 values the
// host generates (include/gpuprof/seeded.h), without filling a host array and uploading it,
// which cost more of every run's start-up than the kernel does.
#include "common.cuh"
#include "gpuprof/seeded.h"

namespace {

// One draw per thread and step of a grid-stride loop: values [k * per_draw, (k + 1) * per_draw)
// of the stream, the tail of the last draw cut at n.
template <typename T, unsigned PerDraw, typename ValueOf>
__global__ void gp_seeded_fill_kernel(T *x, uint64_t n, uint64_t seed, ValueOf value_of)
{
    const uint64_t draws = (n + PerDraw - 1) / PerDraw;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < draws; k += stride) {
        const uint64_t draw = gp_seeded_draw(seed, k);
#pragma unroll
        for (unsigned j = 0; j < PerDraw; j++)
            if (k * PerDraw + j < n)
                x[k * PerDraw + j] = value_of(draw, j);
    }
}

struct int32_of {
    __device__ int32_t operator()(uint64_t draw, unsigned j) const
    {
        return gp_seeded_int32_of(draw, j);
    }
};

struct float_of {
    __device__ float operator()(uint64_t draw, unsigned j) const
    {
        return gp_seeded_float_of(draw, j);
    }
};

template <typename T, unsigned PerDraw, typename ValueOf>
int fill(T *x, uint64_t n, uint64_t seed)
{
    if (n == 0)
        return GP_OK;
    const uint64_t draws = (n + PerDraw - 1) / PerDraw;
    const unsigned block = 256;
    const uint64_t blocks = (draws + block - 1) / block;
    const unsigned grid = blocks < 4096 ? (unsigned)blocks : 4096u;
    gp_seeded_fill_kernel<T, PerDraw><<<grid, block>>>(x, n, seed, ValueOf{});
    GP_LAUNCHED();
    return GP_OK;
}

}  // namespace

extern "C" int gp_fill_int32_device(int32_t *x, uint64_t n, uint64_t seed)
{
    return fill<int32_t, GP_INT32_PER_DRAW, int32_of>(x, n, seed);
}

extern "C" int gp_fill_float_device(float *x, uint64_t n, uint64_t seed)
{
    return fill<float, GP_FLOAT_PER_DRAW, float_of>(x, n, seed);
}
