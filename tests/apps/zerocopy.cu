// zerocopy: kernels that read and write mapped pinned host memory over the bus (zero-copy),
// for the tests of the host-memory metrics (--metrics=sysmem).
//
//   zerocopy               (no arguments)
//
// N = 2^20 floats (4 MiB) in each of two host buffers allocated with
// cudaHostAlloc(cudaHostAllocMapped), reached by the kernels through
// cudaHostGetDevicePointer; grid 4096, block 256, one float per thread.
//   zeroCopyRead: dev[i] = 2 host_in[i] + 1: reads 4 MiB of host memory (LDG.E from a
//       system-memory address), writes device memory.
//   zeroCopyWrite: host_out[i] = 3 dev[i] - 1: reads device memory, writes 4 MiB of host
//       memory (STG.E to a system-memory address).
// Both are idempotent (they never read what they write), so a replayed launch computes the
// same even though kernel replay restores device memory only.
// What the tests assert: zeroCopyRead's system-memory read bytes >= 4 MiB, zeroCopyWrite's
// system-memory write bytes >= 4 MiB; agreement with ncu. `zerocopy: ok` on stdout, exit 0
// (1 on a wrong result, 2 on a CUDA error).
#include "check.h"

#define N (1u << 20)
#define BLOCK 256

__global__ void zeroCopyRead(float *dev, const float *hostIn, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dev[i] = 2.0f * hostIn[i] + 1.0f;
}

__global__ void zeroCopyWrite(float *hostOut, const float *dev, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        hostOut[i] = 3.0f * dev[i] - 1.0f;
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "zerocopy");
    const size_t bytes = (size_t)N * sizeof(float);
    float *hostIn, *hostOut, *mappedIn, *mappedOut, *dev;
    CHECK(cudaHostAlloc((void **)&hostIn, bytes, cudaHostAllocMapped));
    CHECK(cudaHostAlloc((void **)&hostOut, bytes, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&mappedIn, hostIn, 0));
    CHECK(cudaHostGetDevicePointer((void **)&mappedOut, hostOut, 0));
    CHECK(cudaMalloc(&dev, bytes));
    // Small integers: 2 x + 1 and then 3 y - 1 stay exact in a float.
    for (unsigned i = 0; i < N; i++) {
        hostIn[i] = (float)((i * 2654435761u) >> 12);
        hostOut[i] = 0.0f;
    }

    LAUNCH(zeroCopyRead<<<N / BLOCK, BLOCK>>>(dev, mappedIn, N));
    LAUNCH(zeroCopyWrite<<<N / BLOCK, BLOCK>>>(mappedOut, dev, N));
    CHECK(cudaDeviceSynchronize());

    int bad = 0;
    for (unsigned i = 0; i < N && !bad; i++) {
        const float want = 3.0f * (2.0f * hostIn[i] + 1.0f) - 1.0f;
        if (hostOut[i] != want) {
            fprintf(stderr, "zerocopy: wrong result: out[%u] = %g, expected %g\n", i,
                    hostOut[i], want);
            bad = 1;
        }
    }
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(hostIn));
    CHECK(cudaFreeHost(hostOut));
    return run_status(bad, "zerocopy");
}
