// hold: device memory held and never touched, beside a small kernel launched many times: what
// a profiled launch costs when the profiler saves and restores all of a program's memory
// (kernel replay) and when it does not (one pass), for the rotation tests and benchmarks.
//
//   hold [GIB] [LAUNCHES]      defaults: 0 40; GIB 0-200, LAUNCHES 1-100000
//
// Allocates GIB GiB with cudaMalloc (in 1 GiB pieces, never written), then launches
// `holdCopy` (grid 4096, block 256: a copy of 2^20 floats, 4 MiB, in[i] + 1) LAUNCHES times
// on one pair of buffers, alternating which is read, and checks the last result on the host.
// What the tests assert: LAUNCHES launches of `holdCopy(float*, float const*, unsigned long)`,
// grid 4096, block 256; `hold: ok` on stdout, exit 0 (1 on a wrong result, 2 on a usage or
// CUDA error, including memory the GPU does not have).
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

#define N (1u << 20)
#define MAX_GIB 200

__global__ void holdCopy(float *__restrict__ out, const float *__restrict__ in, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

static long arg(int argc, char **argv, int i, long def, long lo, long hi)
{
    if (argc <= i)
        return def;
    char *end;
    const long v = strtol(argv[i], &end, 10);
    if (*end || end == argv[i] || v < lo || v > hi) {
        fprintf(stderr, "usage: hold [GIB (0-200)] [LAUNCHES (1-100000)]\n");
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc > 3)
        arg(argc, argv, 1, 0, 1, 0);  // prints the usage and exits
    const long gib = arg(argc, argv, 1, 0, 0, MAX_GIB);
    const long launches = arg(argc, argv, 2, 40, 1, 100000);
    static void *held[MAX_GIB];
    for (long g = 0; g < gib; g++)
        CHECK(cudaMalloc(&held[g], (size_t)1 << 30));
    float *buf[2];
    CHECK(cudaMalloc(&buf[0], N * sizeof(float)));
    CHECK(cudaMalloc(&buf[1], N * sizeof(float)));
    CHECK(cudaMemset(buf[0], 0, N * sizeof(float)));
    for (long l = 0; l < launches; l++) {
        holdCopy<<<N / 256, 256>>>(buf[(l + 1) % 2], buf[l % 2], N);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    float *h = (float *)malloc(N * sizeof(float));
    if (!h) {
        fprintf(stderr, "app: out of host memory\n");
        return 2;
    }
    CHECK(cudaMemcpy(h, buf[launches % 2], N * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < N; i++)
        if (h[i] != (float)launches) {
            fprintf(stderr, "hold: wrong result at %zu: %g, expected %ld\n", i, h[i], launches);
            return 1;
        }
    free(h);
    for (long g = 0; g < gib; g++)
        CHECK(cudaFree(held[g]));
    printf("hold: ok\n");
    return 0;
}
