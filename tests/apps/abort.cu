// abort: four launches, a synchronisation, then abort(), for the test that what
// `gpuprof exec` collected before the program crashed is still reported, and that the
// program's death by SIGABRT is passed on as exit status 128 + 6 = 134.
//
//   abort                  (no arguments)
//
// beforeAbort<<<32, 256>>> x[i] += 1 on 8192 floats, launched 4 times in the default
// stream, cudaDeviceSynchronize, the result checked, then `abort: calling abort()` on stderr
// and abort(): no cudart teardown, no atexit handlers, no flush of stdio buffers.
// What the tests assert: 4 launches of beforeAbort, grid 32, block 256; exit status 134
// (1 on a wrong result, 2 on a CUDA error).
#include "check.h"

__global__ void beforeAbort(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

int main(void)
{
    const unsigned n = 32 * 256;
    static float h[32 * 256];
    float *d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int l = 0; l < 4; l++)
        LAUNCH(beforeAbort<<<32, 256>>>(d, n));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        if (h[i] != 4.0f) {
            fprintf(stderr, "abort: wrong result: x[%u] = %g, expected 4\n", i, h[i]);
            return 1;
        }
    fprintf(stderr, "abort: calling abort()\n");
    abort();
}
