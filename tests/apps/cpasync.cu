// cpasync: global loads staged into shared memory through cp.async (LDGSTS), and a twin that
// stages them with plain loads and shared stores, for the tests of the asynchronous-copy
// metrics (--metrics=async).
//
//   cpasync                (no arguments)
//
// N = 2^20 floats (4 MiB), grid 1024, block 256: each block stages its 1024 floats into a
// shared tile, then thread t writes out[1024 b + t'] = 2 tile[t'] + 1 for its four floats
// t' = t, t + 256, t + 512, t + 768 (plain loads from shared, coalesced global stores).
//   stageCpAsync16: each thread copies one 16-byte float4 with __pipeline_memcpy_async
//       (cp.async.cg, SASS LDGSTS.E.BYPASS.128): one request per warp (N / 4 / 32 = 8192
//       requests), 16 sectors per request, 100 % efficiency.
//   stageCpAsync4: each thread copies four single floats (cp.async.ca, SASS LDGSTS.E), one
//       warp's 32 consecutive floats each time: 4 requests per warp (N / 32 = 32768
//       requests), 4 sectors per request, 100 % efficiency.
//   stagePlain: the same staging with LDG.E.128 and STS.128: no cp.async at all.
// What the tests assert: cp.async requests > 0 (those counts) for stageCpAsync16 and
// stageCpAsync4, 0 for stagePlain; agreement with ncu. `cpasync: ok` on stdout, exit 0 (1
// on a wrong result, 2 on a CUDA error). On GPUs before sm_80 cp.async is emulated with
// plain copies (no LDGSTS): the tests run on sm_90.
#include "check.h"
#include <cuda_pipeline.h>

#define N (1u << 20)
#define BLOCK 256
#define TILE 1024  // floats staged per block: 4 per thread

// Every thread's four outputs from the staged tile; the same in all three kernels.
__device__ inline void writeFromTile(float *out, const float *tile)
{
    const unsigned base = blockIdx.x * TILE;
#pragma unroll
    for (unsigned k = 0; k < TILE / BLOCK; k++) {
        const unsigned t = threadIdx.x + k * BLOCK;
        out[base + t] = 2.0f * tile[t] + 1.0f;
    }
}

__global__ void stageCpAsync16(float *out, const float *in)
{
    __shared__ __align__(16) float tile[TILE];
    const unsigned base = blockIdx.x * TILE;
    __pipeline_memcpy_async(&tile[4 * threadIdx.x], &in[base + 4 * threadIdx.x], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    writeFromTile(out, tile);
}

__global__ void stageCpAsync4(float *out, const float *in)
{
    __shared__ float tile[TILE];
    const unsigned base = blockIdx.x * TILE;
#pragma unroll
    for (unsigned k = 0; k < TILE / BLOCK; k++) {
        const unsigned t = threadIdx.x + k * BLOCK;
        __pipeline_memcpy_async(&tile[t], &in[base + t], 4);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    writeFromTile(out, tile);
}

__global__ void stagePlain(float *out, const float *in)
{
    __shared__ __align__(16) float tile[TILE];
    const unsigned base = blockIdx.x * TILE;
    reinterpret_cast<float4 *>(tile)[threadIdx.x] =
        reinterpret_cast<const float4 *>(in + base)[threadIdx.x];
    __syncthreads();
    writeFromTile(out, tile);
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "cpasync");
    // in: small integers, so that 2 x + 1 is exact in a float.
    static const struct affine_kernel kernels[] = {{"stageCpAsync16", stageCpAsync16, 2, 1},
                                                   {"stageCpAsync4", stageCpAsync4, 2, 1},
                                                   {"stagePlain", stagePlain, 2, 1}};
    const int bad = run_affine_kernels("cpasync", kernels, sizeof kernels / sizeof kernels[0],
                                       N, N / TILE, BLOCK);
    return run_status(bad, "cpasync");
}
