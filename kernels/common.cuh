// Helpers shared by the kernel families: hook calls around every launch, the block-size
// dispatcher for templated kernels, and warp/block sums.
#pragma once

#include "gpuprof/kernels.h"
#include "gpuprof/status.h"

#include <cuda_runtime.h>
#include <type_traits>

static inline gp_kernel_info gp_info(const char *name, dim3 grid, dim3 block, size_t smem = 0)
{
    gp_kernel_info i = {};
    i.kernel = name;
    i.grid = {grid.x, grid.y, grid.z};
    i.block = {block.x, block.y, block.z};
    i.shared_bytes = smem;
    return i;
}

// Every kernel launch goes through here: caller's "before" hook, the launch, the launch-error
// check, the "after" hook. `launch` is a <<<>>> launch (returns void) or a library call
// returning a cudaError_t.
template <typename Launch>
static int gp_launch(const gp_hooks *hooks, const gp_kernel_info &info, Launch &&launch)
{
    if (hooks && hooks->before)
        GP_TRY(hooks->before(hooks->ctx, &info));
    if constexpr (std::is_void_v<decltype(launch())>) {
        launch();
    } else {
        const int err = (int)launch();
        if (err != 0)
            return gp_fail_cuda(err, info.kernel, __FILE__, __LINE__);
    }
    GP_LAUNCHED();
    if (hooks && hooks->after)
        GP_TRY(hooks->after(hooks->ctx));
    return GP_OK;
}

// Calls f(std::integral_constant<unsigned, B>{}) for the block size B = block (a power of
// two from 32 to 1024): one dispatcher instead of a switch per templated kernel.
template <typename F>
static int gp_with_block_size(unsigned block, F &&f)
{
    switch (block) {
    case 32: return f(std::integral_constant<unsigned, 32>{});
    case 64: return f(std::integral_constant<unsigned, 64>{});
    case 128: return f(std::integral_constant<unsigned, 128>{});
    case 256: return f(std::integral_constant<unsigned, 256>{});
    case 512: return f(std::integral_constant<unsigned, 512>{});
    case 1024: return f(std::integral_constant<unsigned, 1024>{});
    }
    return gp_fail(GP_ERR_USAGE, "block size %u is not a power of two from 32 to 1024", block);
}

template <typename A>
__device__ __forceinline__ A gp_warp_sum(A v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Sum over the block (blockDim.x a multiple of 32); the result is valid in thread 0.
template <typename A>
__device__ __forceinline__ A gp_block_sum(A v)
{
    __shared__ A warp_sums[32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = gp_warp_sum(v);
    __syncthreads();  // warp_sums may still be read by an earlier call
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    const unsigned nwarps = (blockDim.x + 31u) >> 5;
    v = threadIdx.x < nwarps ? warp_sums[threadIdx.x] : A(0);
    if (warp == 0)
        v = gp_warp_sum(v);
    return v;
}

static inline unsigned gp_ceil_div(unsigned long long a, unsigned long long b)
{
    return (unsigned)((a + b - 1) / b);
}
