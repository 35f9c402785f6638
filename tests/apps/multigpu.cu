// multigpu: one launch on every visible device, a kernel of its own per device, for the
// tests that exec attributes launches to the right device.
//
//   multigpu               (no arguments)
//
// For device d = 0 .. cudaGetDeviceCount() - 1: cudaSetDevice(d), then onDeviceK with
// K = d % 8 (kernels onDevice0 .. onDevice7; devices d and d + 8 share one), <<<d + 1, 128>>>,
// writes x[i] = 1000 d + i on (d + 1) * 128 ints of that device. All launches are queued
// first, then each device is synchronised and checked. Prints `multigpu: used D device(s)`
// on stdout.
// What the tests assert: D launches in all, on device d the kernel onDevice{d % 8} with grid
// d + 1 and block 128, its device field d; exit 0 with one device too (1 on a wrong result,
// 2 on a CUDA error, including no device).
#include "check.h"

#define ON_DEVICE(D)                                                                     \
    __global__ void onDevice##D(int *x, unsigned n, int dev)                             \
    {                                                                                    \
        const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                        \
        if (i < n)                                                                       \
            x[i] = 1000 * dev + (int)i;                                                  \
    }
ON_DEVICE(0)
ON_DEVICE(1)
ON_DEVICE(2)
ON_DEVICE(3)
ON_DEVICE(4)
ON_DEVICE(5)
ON_DEVICE(6)
ON_DEVICE(7)

typedef void (*kernel_fn)(int *, unsigned, int);
static const kernel_fn kernels[8] = {onDevice0, onDevice1, onDevice2, onDevice3,
                                     onDevice4, onDevice5, onDevice6, onDevice7};

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "multigpu");
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    int **bufs = (int **)host_alloc((size_t)count * sizeof(int *), "multigpu");
    for (int d = 0; d < count; d++) {
        const unsigned block = 128, grid = (unsigned)d + 1, n = grid * block;
        CHECK(cudaSetDevice(d));
        CHECK(cudaMalloc(&bufs[d], n * sizeof(int)));
        LAUNCH(kernels[d % 8]<<<grid, block>>>(bufs[d], n, d));
    }
    int bad = 0;
    for (int d = 0; d < count; d++) {
        const unsigned n = ((unsigned)d + 1) * 128;
        int *h = (int *)host_alloc(n * sizeof(int), "multigpu");
        CHECK(cudaSetDevice(d));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h, bufs[d], n * sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaFree(bufs[d]));
        for (unsigned i = 0; i < n && !bad; i++)
            if (h[i] != 1000 * d + (int)i) {
                fprintf(stderr, "multigpu: wrong result on device %d: x[%u] = %d\n", d, i, h[i]);
                bad = 1;
            }
        free(h);
    }
    free(bufs);
    if (bad)
        return 1;
    printf("multigpu: used %d device(s)\n", count);
    return 0;
}
