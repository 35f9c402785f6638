// inplace: an in-place kernel launched K times on one buffer, for the test that kernel replay
// (which re-runs a kernel to collect more counters) restores the memory it modifies.
//
//   inplace [K] [N]        defaults: K = 3, N = 2^22 floats; K from 1 to 20
//
// scaleInPlace: x[i] = 2 x[i] + 1, block 256, grid ceil(N / 256), in the default stream.
// x starts as x0 = i % 8, so after K launches x = (x0 + 1) 2^K - 1, exact in a float for
// K <= 20. A replay that did not restore x between passes applies the kernel more than K times.
//
// What the tests assert: K launches of scaleInPlace, each grid (N + 255) / 256, block 256;
// global load and store 4 sectors/request, efficiency 100 %; `inplace: ok` on stdout and exit
// 0, else `inplace: wrong result` on stderr and exit 1 (exit 2 on a usage or CUDA error).
#include "check.h"

__global__ void scaleInPlace(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * x[i] + 1.0f;
}

#define USAGE "inplace [K (1-20)] [N (1-2^30)]"

int main(int argc, char **argv)
{
    at_most_arguments(argc, 2, USAGE);
    const int k = (int)decimal_argument(argc, argv, 1, 3, 1, 20, USAGE);
    const unsigned n = (unsigned)decimal_argument(argc, argv, 2, 1L << 22, 1, 1L << 30, USAGE);
    const size_t bytes = (size_t)n * sizeof(float);

    float *h = (float *)host_alloc(bytes, "inplace");
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 8);
    float *d;
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    const unsigned block = 256, grid = (n + block - 1) / block;
    for (int l = 0; l < k; l++)
        LAUNCH(scaleInPlace<<<grid, block>>>(d, n));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));

    int bad = 0;
    for (unsigned i = 0; i < n && !bad; i++) {
        const float want = (float)((i % 8 + 1) * (1L << k) - 1);
        if (h[i] != want) {
            fprintf(stderr, "inplace: wrong result: x[%u] = %g after %d launches, expected %g\n",
                    i, h[i], k, want);
            bad = 1;
        }
    }
    free(h);
    return run_status(bad, "inplace");
}
