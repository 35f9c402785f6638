// spill: a kernel that needs more registers than a cap allows, for the tests of the local
// memory metrics (--metrics=local). Built twice from this file (tests/apps/apps.mk):
//   spill      with -maxrregcount=32: spillHeavy spills to local memory (STL/LDL in its SASS);
//   nospill    without a cap: spillHeavy keeps everything in registers (no LDL/STL).
//
//   spill | nospill [LAUNCHES]        default 1 (1-1000)
//
// N = 2^15 threads (grid 128, block 256). spillHeavy: thread i loads LIVE = 48 words
// in[j N + i] (coalesced, one plane per j), mixes them for ROUNDS = 4 rounds in which every
// word depends on another (all 48 stay live: with sm_90 ptxas, 64 registers uncapped), and
// stores one word out[i]. noPressure: out[i] = in[i] + 1, a few registers, no spill in either
// build (the control within one program). The two are launched in turn LAUNCHES times
// (spillHeavy, noPressure, spillHeavy, ...), each launch writing the same output again: with
// 2, each kernel's second launch is the one `gpuprof exec --source` patches.
// What the tests assert: spill's spillHeavy has local load and store transactions > 0,
// nospill's 0; noPressure 0 in both; each agrees with ncu. `spill: ok` (or `nospill: ok`) on
// stdout, exit 0 (1 on a wrong result, 2 on a CUDA error). Unsigned arithmetic, so the host
// computes exactly what the device does.
#include "check.h"

#define LIVE 48
#define ROUNDS 4
#define BLOCK 256
#define N (1u << 15)

// The host compiles mixWords too, and its compiler knows no `#pragma unroll`.
#ifdef __CUDA_ARCH__
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

// The mixing both sides compute: every word takes in the one five places on.
__host__ __device__ inline unsigned mixWords(const unsigned *in, unsigned n, unsigned i)
{
    unsigned v[LIVE];
UNROLL
    for (int j = 0; j < LIVE; j++)
        v[j] = in[j * n + i];
UNROLL
    for (int r = 0; r < ROUNDS; r++) {
UNROLL
        for (int j = 0; j < LIVE; j++)
            v[j] = v[j] * 2654435761u + (v[(j + 5) % LIVE] ^ (unsigned)r);
    }
    unsigned acc = 0;
UNROLL
    for (int j = 0; j < LIVE; j++)
        acc = acc * 31u + v[j];
    return acc;
}

__global__ void spillHeavy(unsigned *out, const unsigned *in, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = mixWords(in, n, i);
}

__global__ void noPressure(unsigned *out, const unsigned *in, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1u;
}

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    char usage[64];
    snprintf(usage, sizeof usage, "%s [LAUNCHES (1-1000)]", name);
    at_most_arguments(argc, 1, usage);
    const int launches = (int)decimal_argument(argc, argv, 1, 1, 1, 1000, usage);
    const size_t words = (size_t)LIVE * N;
    unsigned *h_in = (unsigned *)host_alloc(words * sizeof(unsigned), name);
    unsigned *h_out = (unsigned *)host_alloc(N * sizeof(unsigned), name);
    for (size_t k = 0; k < words; k++)
        h_in[k] = (unsigned)(k * 2246822519u) ^ 0x9e3779b9u;
    unsigned *d_in, *d_heavy, *d_light;
    CHECK(cudaMalloc(&d_in, words * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_heavy, N * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_light, N * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, h_in, words * sizeof(unsigned), cudaMemcpyHostToDevice));

    const unsigned grid = N / BLOCK;
    for (int l = 0; l < launches; l++) {
        LAUNCH(spillHeavy<<<grid, BLOCK>>>(d_heavy, d_in, N));
        LAUNCH(noPressure<<<grid, BLOCK>>>(d_light, d_in, N));
    }
    CHECK(cudaDeviceSynchronize());

    int bad = 0;
    CHECK(cudaMemcpy(h_out, d_heavy, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N && !bad; i++) {
        const unsigned want = mixWords(h_in, N, i);
        if (h_out[i] != want) {
            fprintf(stderr, "%s: wrong result: spillHeavy out[%u] = %u, expected %u\n", name, i,
                    h_out[i], want);
            bad = 1;
        }
    }
    CHECK(cudaMemcpy(h_out, d_light, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N && !bad; i++) {
        if (h_out[i] != h_in[i] + 1u) {
            fprintf(stderr, "%s: wrong result: noPressure out[%u] = %u, expected %u\n", name, i,
                    h_out[i], h_in[i] + 1u);
            bad = 1;
        }
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_heavy));
    CHECK(cudaFree(d_light));
    free(h_in);
    free(h_out);
    return run_status(bad, name);
}
