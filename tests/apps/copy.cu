// copy: a float copy with coalesced stores (copyCoalesced) and with strided stores
// (copyStrided), for `gpuprof exec` tests of the memory metrics, the program's exit status and
// its own output.
//
//   copy [coalesced|strided|both] [N] [LAUNCHES]      defaults: coalesced 2^24 1
//
// N is a count of floats, decimal or 2^K. `both` runs LAUNCHES coalesced launches, then
// LAUNCHES strided ones. Block 256, grid ceil(N / 256), one element per thread.
//
// What the tests assert (N a multiple of 1024, e.g. the default 2^24):
//   copyCoalesced: thread i stores out[i] = in[i]; each warp's store is 128 contiguous bytes:
//       global store 4 sectors/request, store efficiency 100 %;
//       global load  4 sectors/request, load efficiency 100 %.
//   copyStrided: in each tile of 1024 floats, thread t = 32 w + l (warp w of the tile, lane l)
//       stores out[32 l + w] = in[32 w + l] (a 32x32 transpose of the tile): the 32 lanes of a
//       warp store 128 bytes apart, one 4-byte word in each of 32 sectors:
//       global store 32 sectors/request, store efficiency 12.5 %;
//       global load   4 sectors/request, load efficiency 100 % (loads stay coalesced).
//   Both: one launch per LAUNCHES per mode, grid (N + 255) / 256 x 1 x 1, block 256 x 1 x 1,
//       no dynamic shared memory; 4 N bytes read and 4 N bytes written (DRAM reads ~4 N;
//       DRAM writes up to 4 N, less whatever stays dirty in L2 when the kernel ends).
//   Output: `copy: mode=... n=... launches=...` on stderr before launching and `copy: ok` on
//       stdout on success; exit 0, 1 on a wrong result, 2 on a usage or CUDA error.
// A partial last tile (N not a multiple of 1024) is copied straight, so the strided metrics
// are exact only for N a multiple of 1024.
// Built twice: `copy` (static cudart, nvcc's default) and `copy_dynamic` (-cudart shared).
#include "check.h"

#define TILE 1024
#define BLOCK 256

__global__ void copyCoalesced(float *__restrict__ out, const float *__restrict__ in, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copyStrided(float *__restrict__ out, const float *__restrict__ in, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const size_t base = i - i % TILE;
    const unsigned t = (unsigned)(i % TILE);
    // One store instruction either way: a partial last tile is copied straight.
    const size_t d = base + TILE <= n ? base + (t % 32) * 32 + t / 32 : i;
    out[d] = in[i];
}

// Where copyStrided puts in[i].
static size_t strided_dest(size_t i, size_t n)
{
    const size_t base = i - i % TILE;
    const size_t t = i % TILE;
    return base + TILE <= n ? base + (t % 32) * 32 + t / 32 : i;
}

static int parse_size(const char *s, size_t *v)
{
    char *end;
    if (s[0] == '2' && s[1] == '^') {
        const unsigned long k = strtoul(s + 2, &end, 10);
        if (*end || end == s + 2 || k > 40)
            return -1;
        *v = (size_t)1 << k;
        return 0;
    }
    const unsigned long long x = strtoull(s, &end, 10);
    if (*end || end == s || s[0] == '-')
        return -1;
    *v = (size_t)x;
    return 0;
}

#define USAGE "copy [coalesced|strided|both] [N] [LAUNCHES]"

// Runs `launches` launches of one mode into d_out (first filled with -1), checks on the host.
static int run_mode(int strided, float *d_out, const float *d_in, const float *h_in,
                    float *h_out, size_t n, int launches)
{
    const size_t bytes = n * sizeof(float);
    for (size_t i = 0; i < n; i++)
        h_out[i] = -1.0f;
    CHECK(cudaMemcpy(d_out, h_out, bytes, cudaMemcpyHostToDevice));
    const unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
    for (int l = 0; l < launches; l++) {
        if (strided)
            LAUNCH(copyStrided<<<grid, BLOCK>>>(d_out, d_in, n));
        else
            LAUNCH(copyCoalesced<<<grid, BLOCK>>>(d_out, d_in, n));
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        const size_t d = strided ? strided_dest(i, n) : i;
        if (h_out[d] != h_in[i]) {
            fprintf(stderr, "copy: wrong result (%s): out[%zu] = %g, expected %g\n",
                    strided ? "strided" : "coalesced", d, h_out[d], h_in[i]);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "coalesced";
    size_t n = (size_t)1 << 24;
    at_most_arguments(argc, 3, USAGE);
    if (strcmp(mode, "coalesced") && strcmp(mode, "strided") && strcmp(mode, "both"))
        usage_error(USAGE);
    if (argc > 2 && (parse_size(argv[2], &n) || n == 0 || (n + BLOCK - 1) / BLOCK > 0x7fffffff))
        usage_error(USAGE);
    const int launches = (int)decimal_argument(argc, argv, 3, 1, 1, 1000000, USAGE);
    fprintf(stderr, "copy: mode=%s n=%zu launches=%d\n", mode, n, launches);

    const size_t bytes = n * sizeof(float);
    float *h_in = (float *)host_alloc(bytes, "copy");
    float *h_out = (float *)host_alloc(bytes, "copy");
    // Distinct-enough values, each exact in a float (below 2^24).
    for (size_t i = 0; i < n; i++)
        h_in[i] = (float)((i * 2654435761u) & 0xffffff);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));

    int bad = 0;
    if (!strcmp(mode, "coalesced") || !strcmp(mode, "both"))
        bad |= run_mode(0, d_out, d_in, h_in, h_out, n, launches);
    if (!bad && (!strcmp(mode, "strided") || !strcmp(mode, "both")))
        bad |= run_mode(1, d_out, d_in, h_in, h_out, n, launches);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return run_status(bad, "copy");
}
