// broadcast: shared-memory loads that every thread of a warp aims at the same 16 bytes, for
// the test of what a broadcast does to shared_efficiency (issue 28). Measured on the H100: it
// lowers it to 9.1 % (CUPTI counts the 16 bytes once per wavefront, not once per thread), as
// ncu's metric; its twin, 16 distinct bytes a thread, is 100 %.
//
//   broadcast              (no arguments)
//
// Grid 1024, block 256. Each block stores 64 float4 into shared memory (threads 0-63), then
// each thread reads 16 of them: sharedBroadcast tile[(i + block) % 64], the same for the
// whole warp; sharedDistinct tile[(i + thread) % 64], a different one for each thread of a
// warp (no bank conflict: 16 bytes a thread, 4 wavefronts a warp). Both sum what they read
// into out[thread]; the host checks every sum. `broadcast: ok`, exit 0 (1 on a wrong result,
// 2 on a CUDA error).
#define CHECK_PREFIX "broadcast"  // failed CUDA calls are reported as broadcast's
#include "check.h"

enum { GRID = 1024, BLOCK = 256, TILE = 64, READS = 16 };

__device__ float4 tile_value(unsigned j)
{
    return make_float4((float)j, 1.0f, 2.0f, 3.0f);
}

// Both kernels' work: the block's tile stored, then the thread's READS reads of it, from
// tile[base % TILE] on, summed into out[thread].
__device__ __forceinline__ void sumTileReads(float *out, unsigned base)
{
    __shared__ float4 tile[TILE];
    if (threadIdx.x < TILE)
        tile[threadIdx.x] = tile_value(threadIdx.x);
    __syncthreads();
    float sum = 0;
    for (unsigned i = 0; i < READS; i++) {
        const float4 v = tile[(i + base) % TILE];
        sum += v.x + v.y + v.z + v.w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void sharedBroadcast(float *out)
{
    sumTileReads(out, blockIdx.x);
}

__global__ void sharedDistinct(float *out)
{
    sumTileReads(out, threadIdx.x);
}

// What thread t of block b sums when it reads tile[(i + base) % TILE], i = 0..READS-1.
static float expected(unsigned base)
{
    float sum = 0;
    for (unsigned i = 0; i < READS; i++)
        sum += (float)((i + base) % TILE) + 6.0f;
    return sum;
}

static int check(const float *out, bool broadcast)
{
    for (unsigned b = 0; b < GRID; b++)
        for (unsigned t = 0; t < BLOCK; t++) {
            const float want = expected(broadcast ? b : t);
            if (out[b * BLOCK + t] != want) {
                fprintf(stderr, "broadcast: %s out[%u] = %g, expected %g\n",
                        broadcast ? "sharedBroadcast" : "sharedDistinct", b * BLOCK + t,
                        out[b * BLOCK + t], want);
                return 1;
            }
        }
    return 0;
}

int main()
{
    const size_t n = (size_t)GRID * BLOCK;
    float *d = NULL, *h = (float *)malloc(n * sizeof *h);
    if (!h)
        return 2;
    CHECK(cudaMalloc(&d, n * sizeof *d));
    LAUNCH(sharedBroadcast<<<GRID, BLOCK>>>(d));
    CHECK(cudaMemcpy(h, d, n * sizeof *d, cudaMemcpyDeviceToHost));
    int bad = check(h, true);
    LAUNCH(sharedDistinct<<<GRID, BLOCK>>>(d));
    CHECK(cudaMemcpy(h, d, n * sizeof *d, cudaMemcpyDeviceToHost));
    bad = bad || check(h, false);
    CHECK(cudaFree(d));
    free(h);
    return run_status(bad, "broadcast");
}
