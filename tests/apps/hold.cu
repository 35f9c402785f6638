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
#include "check.h"

#define N (1u << 20)
#define MAX_GIB 200

__global__ void holdCopy(float *__restrict__ out, const float *__restrict__ in, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

#define USAGE "hold [GIB (0-200)] [LAUNCHES (1-100000)]"

int main(int argc, char **argv)
{
    at_most_arguments(argc, 2, USAGE);
    const long gib = decimal_argument(argc, argv, 1, 0, 0, MAX_GIB, USAGE);
    const long launches = decimal_argument(argc, argv, 2, 40, 1, 100000, USAGE);
    static void *held[MAX_GIB];
    for (long g = 0; g < gib; g++)
        CHECK(cudaMalloc(&held[g], (size_t)1 << 30));
    float *buf[2];
    CHECK(cudaMalloc(&buf[0], N * sizeof(float)));
    CHECK(cudaMalloc(&buf[1], N * sizeof(float)));
    CHECK(cudaMemset(buf[0], 0, N * sizeof(float)));
    for (long l = 0; l < launches; l++)
        LAUNCH(holdCopy<<<N / 256, 256>>>(buf[(l + 1) % 2], buf[l % 2], N));
    CHECK(cudaDeviceSynchronize());
    float *h = (float *)host_alloc(N * sizeof(float), "app");
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
