// reset: launches around cudaDeviceReset() (the primary context destroyed and a new one
// created), or a launch still running when main returns, for the tests of context teardown.
//
//   reset [reset]                    (the default)
//       beforeReset<<<16, 64>>> writes x[i] = i (1024 ints), cudaDeviceSynchronize, check,
//       cudaDeviceReset(), a fresh allocation, afterReset<<<8, 128>>> writes x[i] = 2 i,
//       cudaDeviceSynchronize, check; `reset: ok` on stdout.
//   reset noexit_sync [SPIN_MS]      SPIN_MS default 50 (0-10000)
//       noSyncExit<<<4, 256>>> writes x[i] = i, and thread 0 then spins on %globaltimer
//       for SPIN_MS ms; main prints `reset: returning without synchronising` on stderr
//       and returns 0 right after the launch (and its cudaGetLastError check), so the kernel
//       is most likely still running when the process starts its exit.
// What the tests assert: reset: one launch of beforeReset (grid 16, block 64) and one of
// afterReset (grid 8, block 128), each reported, in separate contexts (the context id, if
// reported, differs); exit 0. noexit_sync: one launch of noSyncExit (grid 4, block 256) is
// reported (its duration at least SPIN_MS if the profiler waits for it); exit 0. Exit 1 on a
// wrong result, 2 on a usage or CUDA error.
#include "check.h"

__global__ void beforeReset(int *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (int)i;
}

__global__ void afterReset(int *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2 * (int)i;
}

__device__ unsigned long long globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void noSyncExit(int *x, unsigned n, unsigned long long spin_ns)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (int)i;
    if (i == 0) {
        const unsigned long long t0 = globaltimer_ns();
        while (globaltimer_ns() - t0 < spin_ns)
            __nanosleep(1000);
    }
}

#define USAGE "reset [reset | noexit_sync [SPIN_MS]]"

// Launches one kernel (beforeReset or afterReset) on a fresh buffer and checks it.
static int launch_and_check(int after)
{
    const unsigned n = 1024, block = after ? 128 : 64, grid = n / block;
    static int h[1024];
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    if (after)
        LAUNCH(afterReset<<<grid, block>>>(d, n));
    else
        LAUNCH(beforeReset<<<grid, block>>>(d, n));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
    for (unsigned i = 0; i < n; i++)
        if (h[i] != (after ? 2 : 1) * (int)i) {
            fprintf(stderr, "reset: wrong result (%s): x[%u] = %d\n",
                    after ? "afterReset" : "beforeReset", i, h[i]);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "reset";
    if (!strcmp(mode, "reset")) {
        at_most_arguments(argc, 1, USAGE);
        if (launch_and_check(0))
            return 1;
        CHECK(cudaDeviceReset());
        if (launch_and_check(1))
            return 1;
        printf("reset: ok\n");
        return 0;
    }
    if (strcmp(mode, "noexit_sync") || argc > 3)
        usage_error(USAGE);
    const long spin_ms = decimal_argument(argc, argv, 2, 50, 0, 10000, USAGE);
    int *d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
    LAUNCH(noSyncExit<<<4, 256>>>(d, 1024, (unsigned long long)spin_ms * 1000000ull));
    fprintf(stderr, "reset: returning without synchronising\n");
    return 0;
}
