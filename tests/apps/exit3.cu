// exit3: one launch, a synchronisation, then exit status 3, for the test that
// `gpuprof exec` passes the program's exit status through (and still reports the launch).
//
//   exit3                  (no arguments)
//
// beforeExit3<<<64, 128>>> writes x[i] = i on 8192 ints; the host checks them.
// What the tests assert: one launch of beforeExit3, grid 64, block 128; the line
// `exit3: exiting with status 3` on stderr; exit status 3 (1 on a wrong result, 2 on a CUDA
// error).
#include "check.h"

__global__ void beforeExit3(int *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (int)i;
}

int main(void)
{
    const unsigned n = 64 * 128;
    static int h[64 * 128];
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    LAUNCH(beforeExit3<<<64, 128>>>(d, n));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    for (unsigned i = 0; i < n; i++)
        if (h[i] != (int)i) {
            fprintf(stderr, "exit3: wrong result: x[%u] = %d\n", i, h[i]);
            return 1;
        }
    fprintf(stderr, "exit3: exiting with status 3\n");
    return 3;
}
