// copies: the same number of bytes copied from pageable and from pinned host memory, both
// ways, a device-to-device copy and a memset, round after round, for the tests of exec's GPU
// activities (copies, memsets, their host memory and throughput).
//
//   copies [BYTES] [ROUNDS]     (defaults 2^24, 3; BYTES decimal or 2^K, a multiple of 4)
//
// Each round, in the default stream, in this order:
//   cudaMemset       b, BYTES                          1 memset (device memory)
//   cudaMemcpy HtoD  a <- pageable host, BYTES          (malloc'd)
//   cudaMemcpy HtoD  a <- pinned host, BYTES            (cudaMallocHost)
//   copiesScale      a[i] = 2 a[i] + round              1 launch, grid BYTES/4/256, block 256
//   cudaMemcpy DtoD  b <- a, BYTES
//   cudaMemcpy DtoH  pageable host <- b, BYTES
//   cudaMemcpy DtoH  pinned host <- b, BYTES
// so over the run: ROUNDS memsets, 2 ROUNDS HtoD (half pageable, half pinned), ROUNDS DtoD,
// 2 ROUNDS DtoH (half each), ROUNDS launches of copiesScale, each copy and memset of BYTES.
// Both host copies of the result are checked every round. Prints what it did on stdout, then
// `copies: ok`; exit 0 (1 on a wrong result, 2 on a CUDA or usage error).
#include "check.h"

__global__ void copiesScale(unsigned *a, size_t n, unsigned round)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 2u * a[i] + round;
}

static int check(const unsigned *got, size_t n, unsigned round, const char *which)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned want = 2u * (unsigned)(i % 1000) + round;
        if (got[i] != want) {
            fprintf(stderr, "copies: wrong result in %s memory, round %u: [%zu] = %u, expected "
                            "%u\n", which, round, i, got[i], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const unsigned long long bytes = argc > 1 ? parse_count(argv[1]) : 1ull << 24;
    const unsigned long long rounds = argc > 2 ? parse_count(argv[2]) : 3;
    if (argc > 3 || bytes == 0 || bytes % 4 || rounds == 0 || rounds > 1000)
        usage_error("copies [BYTES] [ROUNDS]");
    const size_t n = bytes / 4;
    unsigned *pageable = (unsigned *)host_alloc(bytes, "copies"), *pinned, *a, *b;
    CHECK(cudaMallocHost(&pinned, bytes));
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    const unsigned block = 256, grid = (unsigned)((n + block - 1) / block);
    int bad = 0;
    for (unsigned round = 0; round < rounds && !bad; round++) {
        for (size_t i = 0; i < n; i++)
            pageable[i] = pinned[i] = (unsigned)(i % 1000);
        CHECK(cudaMemset(b, 0, bytes));
        CHECK(cudaMemcpy(a, pageable, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(a, pinned, bytes, cudaMemcpyHostToDevice));
        LAUNCH(copiesScale<<<grid, block>>>(a, n, round));
        CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaMemcpy(pageable, b, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(pinned, b, bytes, cudaMemcpyDeviceToHost));
        bad = check(pageable, n, round, "pageable") || check(pinned, n, round, "pinned");
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFreeHost(pinned));
    free(pageable);
    if (!bad)
        printf("copies: %llu rounds of %llu bytes: each 1 memset, 2 HtoD (pageable, pinned), "
               "1 launch of copiesScale, 1 DtoD, 2 DtoH (pageable, pinned)\n", rounds, bytes);
    return run_status(bad, "copies");
}
