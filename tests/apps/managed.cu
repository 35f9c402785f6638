// managed: a kernel reads and writes a cudaMallocManaged buffer that the host initialised,
// then the host reads it back, for the tests that exec copes with managed memory.
//
//   managed                (no arguments)
//
// 2^20 floats (4 MiB) of managed memory; the host writes x[i] = i % 1000, then
// managedTouch<<<4096, 256>>> computes x[i] = 3 x[i] + 1 and the host checks every element
// after cudaDeviceSynchronize (the host touches the buffer only while no kernel runs, so
// it works without concurrent managed access too).
// What the tests assert: one launch of managedTouch, grid 4096, block 256; `managed: ok` on
// stdout, exit 0 (1 on a wrong result, 2 on a CUDA error).
#include "check.h"

__global__ void managedTouch(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3.0f * x[i] + 1.0f;
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "managed");
    const unsigned n = 1u << 20;
    float *x;
    CHECK(cudaMallocManaged(&x, n * sizeof(float), cudaMemAttachGlobal));
    for (unsigned i = 0; i < n; i++)
        x[i] = (float)(i % 1000);
    const unsigned block = 256, grid = (n + block - 1) / block;
    LAUNCH(managedTouch<<<grid, block>>>(x, n));
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        const float want = 3.0f * (float)(i % 1000) + 1.0f;
        if (x[i] != want) {
            fprintf(stderr, "managed: wrong result: x[%u] = %g, expected %g\n", i, x[i], want);
            bad = 1;
            break;
        }
    }
    CHECK(cudaFree(x));
    return run_status(bad, "managed");
}
