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
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "app: %s failed: %s\n", #call, cudaGetErrorString(err_));    \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

__global__ void copiesScale(unsigned *a, size_t n, unsigned round)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 2u * a[i] + round;
}

// "4096" or "2^12"; 0 when malformed.
static unsigned long long parse_count(const char *s)
{
    char *end;
    if (strncmp(s, "2^", 2) == 0) {
        const unsigned long k = strtoul(s + 2, &end, 10);
        return *end || k > 40 ? 0 : 1ull << k;
    }
    const unsigned long long v = strtoull(s, &end, 10);
    return *end ? 0 : v;
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
    if (argc > 3 || bytes == 0 || bytes % 4 || rounds == 0 || rounds > 1000) {
        fprintf(stderr, "usage: copies [BYTES] [ROUNDS]\n");
        return 2;
    }
    const size_t n = bytes / 4;
    unsigned *pageable = (unsigned *)malloc(bytes), *pinned, *a, *b;
    if (!pageable) {
        fprintf(stderr, "copies: out of host memory\n");
        return 2;
    }
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
        copiesScale<<<grid, block>>>(a, n, round);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaMemcpy(pageable, b, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(pinned, b, bytes, cudaMemcpyDeviceToHost));
        bad = check(pageable, n, round, "pageable") || check(pinned, n, round, "pinned");
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFreeHost(pinned));
    free(pageable);
    if (bad)
        return 1;
    printf("copies: %llu rounds of %llu bytes: each 1 memset, 2 HtoD (pageable, pinned), "
           "1 launch of copiesScale, 1 DtoD, 2 DtoH (pageable, pinned)\n", rounds, bytes);
    printf("copies: ok\n");
    return 0;
}
