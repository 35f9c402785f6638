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
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "app: %s failed: %s\n", #call, cudaGetErrorString(err_));    \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

__global__ void scaleInPlace(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * x[i] + 1.0f;
}

static long arg(int argc, char **argv, int i, long def, long lo, long hi)
{
    if (argc <= i)
        return def;
    char *end;
    const long v = strtol(argv[i], &end, 10);
    if (*end || end == argv[i] || v < lo || v > hi) {
        fprintf(stderr, "usage: inplace [K (1-20)] [N (1-2^30)]\n");
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 3)
        arg(argc, argv, 1, 0, 1, 0);  // prints the usage and exits
    const int k = (int)arg(argc, argv, 1, 3, 1, 20);
    const unsigned n = (unsigned)arg(argc, argv, 2, 1L << 22, 1, 1L << 30);
    const size_t bytes = (size_t)n * sizeof(float);

    float *h = (float *)malloc(bytes);
    if (!h) {
        fprintf(stderr, "inplace: out of host memory\n");
        return 2;
    }
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 8);
    float *d;
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    const unsigned block = 256, grid = (n + block - 1) / block;
    for (int l = 0; l < k; l++) {
        scaleInPlace<<<grid, block>>>(d, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));

    for (unsigned i = 0; i < n; i++) {
        const float want = (float)((i % 8 + 1) * (1L << k) - 1);
        if (h[i] != want) {
            fprintf(stderr, "inplace: wrong result: x[%u] = %g after %d launches, expected %g\n",
                    i, h[i], k, want);
            free(h);
            return 1;
        }
    }
    free(h);
    printf("inplace: ok\n");
    return 0;
}
