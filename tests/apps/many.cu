// many: a tiny kernel launched many times, for the timing-overhead and scale benchmarks.
//
//   many [LAUNCHES] [KERNELS]        defaults: 10000 2; LAUNCHES 1-10^8, KERNELS 1-4
//
// Launch l (0-based) runs manyTiny<l % KERNELS><<<1, 32>>> in the default stream, all queued
// without synchronising, then one cudaDeviceSynchronize; each instantiation increments its
// own counter (thread 0 only), and the host checks every counter. Prints nothing on success.
// Demangled names: `void manyTiny<0>(unsigned int*)` .. `void manyTiny<3>(unsigned int*)`.
// What the tests assert: LAUNCHES launches in all, ceil((LAUNCHES - k) / KERNELS) of
// manyTiny<k>, each grid 1, block 32; empty stdout, exit 0 (1 on a wrong count, 2 on a usage
// or CUDA error).
#include "check.h"

#define MAX_KERNELS 4

template <int K>
__global__ void manyTiny(unsigned *count)
{
    if (threadIdx.x == 0)
        count[K] += 1;
}

#define USAGE "many [LAUNCHES (1-100000000)] [KERNELS (1-4)]"

int main(int argc, char **argv)
{
    at_most_arguments(argc, 2, USAGE);
    const long launches = decimal_argument(argc, argv, 1, 10000, 1, 100000000, USAGE);
    const int kernels = (int)decimal_argument(argc, argv, 2, 2, 1, MAX_KERNELS, USAGE);
    unsigned *d, h[MAX_KERNELS] = {0};
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    for (long l = 0; l < launches; l++) {
        switch (l % kernels) {
        case 0: manyTiny<0><<<1, 32>>>(d); break;
        case 1: manyTiny<1><<<1, 32>>>(d); break;
        case 2: manyTiny<2><<<1, 32>>>(d); break;
        default: manyTiny<3><<<1, 32>>>(d); break;
        }
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    for (int k = 0; k < MAX_KERNELS; k++) {
        const unsigned long want =
            k < kernels ? (unsigned long)((launches - k + kernels - 1) / kernels) : 0;
        if (h[k] != want) {
            fprintf(stderr, "many: wrong count for manyTiny<%d>: %u, expected %lu\n", k, h[k], want);
            return 1;
        }
    }
    return 0;
}
