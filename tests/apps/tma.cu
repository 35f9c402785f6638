// tma: bulk copies by the Tensor Memory Accelerator (sm_90: cp.async.bulk, SASS UBLKCP) from
// global to shared memory and from shared to global memory, and a twin with plain loads, for
// the tests of the TMA metrics (--metrics=async). Built for sm_90 only (tests/apps/apps.mk);
// on another GPU it exits 2 before launching.
//
//   tma                    (no arguments)
//
// N = 2^20 floats (4 MiB), grid 256, block 256, a tile of 4096 floats (16 KiB) per block.
//   tmaBulkLoad: thread 0 arms an mbarrier with the tile's 16384 bytes and issues one
//       cp.async.bulk.shared::cluster.global (UBLKCP) for the tile; every thread waits on the
//       mbarrier, then writes out[i] = 2 tile[t] + 1 for its 16 floats with plain stores.
//       TMA loads: 4 MiB in all (16 KiB per block).
//   tmaBulkStore: the threads fill the tile with 3 in[i] - 1 (plain loads, shared stores),
//       fence the shared writes for the async proxy, and thread 0 issues one
//       cp.async.bulk.global.shared::cta (UBLKCP) for the tile and waits for it.
//       TMA stores: 4 MiB in all.
//   plainTileLoad: tmaBulkLoad's work with the tile loaded by LDG.E.128 and STS.128.
// What the tests assert: tmaBulkLoad's TMA load bytes >= 4 MiB, tmaBulkStore's TMA store
// bytes >= 4 MiB, plainTileLoad's TMA bytes 0; agreement with ncu. `tma: ok` on stdout,
// exit 0 (1 on a wrong result, 2 on a CUDA error or a GPU without TMA).
#include "check.h"

#define N (1u << 20)
#define BLOCK 256
#define TILE 4096  // floats per block
#define TILE_BYTES (TILE * 4u)

__device__ inline unsigned sharedAddress(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// Thread 0 initialises the block's mbarrier for one arrival; everyone sees it initialised,
// the async proxy (where the bulk copy completes its bytes) too.
__device__ inline void initBarrier(unsigned long long *bar)
{
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sharedAddress(bar))
                     : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
}

// One bulk copy of `bytes` from global `src` into shared `dst`, completing on `bar`.
__device__ inline void bulkLoad(void *dst, const void *src, unsigned bytes,
                                unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     sharedAddress(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(sharedAddress(dst)),
                 "l"(src), "r"(bytes), "r"(sharedAddress(bar))
                 : "memory");
}

__device__ inline void waitBarrier(unsigned long long *bar, unsigned phase)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(sharedAddress(bar)), "r"(phase)
                     : "memory");
}

__device__ inline void writeFromTile(float *out, const float *tile)
{
    const unsigned base = blockIdx.x * TILE;
#pragma unroll
    for (unsigned k = 0; k < TILE / BLOCK; k++) {
        const unsigned t = threadIdx.x + k * BLOCK;
        out[base + t] = 2.0f * tile[t] + 1.0f;
    }
}

__global__ void tmaBulkLoad(float *out, const float *in)
{
    __shared__ __align__(128) float tile[TILE];
    __shared__ __align__(8) unsigned long long bar;
    initBarrier(&bar);
    if (threadIdx.x == 0)
        bulkLoad(tile, in + blockIdx.x * TILE, TILE_BYTES, &bar);
    waitBarrier(&bar, 0);
    writeFromTile(out, tile);
}

__global__ void tmaBulkStore(float *out, const float *in)
{
    __shared__ __align__(128) float tile[TILE];
    const unsigned base = blockIdx.x * TILE;
#pragma unroll
    for (unsigned k = 0; k < TILE / BLOCK; k++) {
        const unsigned t = threadIdx.x + k * BLOCK;
        tile[t] = 3.0f * in[base + t] - 1.0f;
    }
    // Shared writes by the generic proxy, made visible to the bulk copy's async proxy.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                         out + base),
                     "r"(sharedAddress(tile)), "r"(TILE_BYTES)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

__global__ void plainTileLoad(float *out, const float *in)
{
    __shared__ __align__(16) float tile[TILE];
    const float4 *src = reinterpret_cast<const float4 *>(in + blockIdx.x * TILE);
#pragma unroll
    for (unsigned k = 0; k < TILE / 4 / BLOCK; k++)
        reinterpret_cast<float4 *>(tile)[threadIdx.x + k * BLOCK] = src[threadIdx.x + k * BLOCK];
    __syncthreads();
    writeFromTile(out, tile);
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "tma");
    int device, major;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major < 9) {
        fprintf(stderr, "tma: needs compute capability 9.0 or later (TMA), not %d.x\n", major);
        return 2;
    }
    // in: small integers, so that 2 x + 1 and 3 x - 1 are exact in a float.
    static const struct affine_kernel kernels[] = {{"tmaBulkLoad", tmaBulkLoad, 2, 1},
                                                   {"tmaBulkStore", tmaBulkStore, 3, -1},
                                                   {"plainTileLoad", plainTileLoad, 2, 1}};
    const int bad = run_affine_kernels("tma", kernels, sizeof kernels / sizeof kernels[0], N,
                                       N / TILE, BLOCK);
    return run_status(bad, "tma");
}
