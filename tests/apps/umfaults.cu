// umfaults: managed memory touched by the host and the device in turn, round after round, so
// its pages migrate both ways and fault on both sides, for the tests of exec's unified-memory
// counters.
//
//   umfaults [ROUNDS] [BYTES]    (defaults 4, 2^24; BYTES decimal or 2^K, a multiple of 4)
//
// BYTES of cudaMallocManaged memory. Each round: the host writes every element
// (x[i] = i % 1000 + round: CPU page faults, pages migrated device to host after the first
// round), umfaultsTouch (grid BYTES/4/256, block 256) computes x[i] = 3 x[i] + 1 (GPU page
// faults, pages migrated host to device), then after cudaDeviceSynchronize the host checks
// every element. No prefetch and no advice, so the driver migrates on demand.
// Prints what it did on stdout, then `umfaults: ok`; exit 0 (1 on a wrong result, 2 on a CUDA
// or usage error).
#include "check.h"

__global__ void umfaultsTouch(unsigned *x, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3u * x[i] + 1u;
}

int main(int argc, char **argv)
{
    const unsigned long long rounds = argc > 1 ? parse_count(argv[1]) : 4;
    const unsigned long long bytes = argc > 2 ? parse_count(argv[2]) : 1ull << 24;
    if (argc > 3 || rounds == 0 || rounds > 1000 || bytes == 0 || bytes % 4)
        usage_error("umfaults [ROUNDS] [BYTES]");
    const size_t n = bytes / 4;
    unsigned *x;
    CHECK(cudaMallocManaged(&x, bytes, cudaMemAttachGlobal));
    const unsigned block = 256, grid = (unsigned)((n + block - 1) / block);
    int bad = 0;
    for (unsigned round = 0; round < rounds && !bad; round++) {
        for (size_t i = 0; i < n; i++)
            x[i] = (unsigned)(i % 1000) + round;
        LAUNCH(umfaultsTouch<<<grid, block>>>(x, n));
        CHECK(cudaDeviceSynchronize());
        for (size_t i = 0; i < n && !bad; i++) {
            const unsigned want = 3u * ((unsigned)(i % 1000) + round) + 1u;
            if (x[i] != want) {
                fprintf(stderr, "umfaults: wrong result, round %u: x[%zu] = %u, expected %u\n",
                        round, i, x[i], want);
                bad = 1;
            }
        }
    }
    CHECK(cudaFree(x));
    if (!bad)
        printf("umfaults: %llu rounds over %llu bytes of managed memory: host writes, "
               "umfaultsTouch, host reads\n", rounds, bytes);
    return run_status(bad, "umfaults");
}
