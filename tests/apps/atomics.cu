// atomics: global and shared atomics with known counts, for the tests of the atomic metrics
// (--metrics=atomics).
//
//   atomics                (no arguments)
//
// N = 2^20 threads (grid 4096, block 256), input in[i] = (i * 2654435761) >> 24 (0-255).
//   atomicTicket: counter[i % 32] is bumped with atomicAdd whose result is kept:
//       ticket[i] = atomicAdd(&counter[i % 32], 1), SASS ATOM.E.ADD (an atomic that returns).
//       One request per warp (N / 32 = 32768), the 32 lanes on 32 consecutive words (128 B).
//       Checked: counter[k] = N / 32, and the tickets of each k are a permutation of 0..N/32-1.
//   atomicSum: atomicAdd(&sum[i % 32], in[i]) with the result unused, SASS RED.E.ADD (a
//       reduction: no value comes back). N / 32 requests, 128 B each. Checked: each sum.
//   sharedHistogram: a 256-bin histogram of in[] per block in shared memory with
//       atomicAdd on shared words (SASS ATOMS.ADD, no global atomic), written out plainly
//       to hist[block][256]. Checked: every block's histogram.
// What the tests assert: atomic transactions > 0 for atomicTicket and atomicSum, their
// requests N / 32, and agreement with ncu. `atomics: ok` on stdout, exit 0 (1 on a wrong
// result, 2 on a CUDA error). Every kernel writes what it computes from zeroed or fresh
// buffers, so a replayed launch (device memory restored) computes the same.
#include "check.h"

#define N (1u << 20)
#define BLOCK 256
#define LANES 32
#define BINS 256

__global__ void atomicTicket(unsigned *ticket, unsigned *counter, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ticket[i] = atomicAdd(&counter[i % LANES], 1u);
}

__global__ void atomicSum(unsigned *sum, const unsigned *in, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&sum[i % LANES], in[i]);
}

// Block size BINS: each thread clears, then writes out, one bin.
__global__ void sharedHistogram(unsigned *hist, const unsigned *in, unsigned n)
{
    __shared__ unsigned bins[BINS];
    bins[threadIdx.x] = 0;
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] % BINS], 1u);
    __syncthreads();
    hist[blockIdx.x * BINS + threadIdx.x] = bins[threadIdx.x];
}

static int check_tickets(const unsigned *ticket, const unsigned *counter)
{
    const unsigned per = N / LANES;
    unsigned char *seen = (unsigned char *)host_alloc((size_t)N, "atomics");
    memset(seen, 0, (size_t)N);
    int bad = 0;
    for (unsigned k = 0; k < LANES && !bad; k++)
        if (counter[k] != per) {
            fprintf(stderr, "atomics: wrong result: counter[%u] = %u, expected %u\n", k,
                    counter[k], per);
            bad = 1;
        }
    // Lane slot k's tickets 0..per-1, each exactly once: slot k, ticket t at seen[k per + t].
    for (unsigned i = 0; i < N && !bad; i++) {
        const unsigned t = ticket[i];
        if (t >= per || seen[(size_t)(i % LANES) * per + t]++) {
            fprintf(stderr, "atomics: wrong result: ticket[%u] = %u repeated or out of range\n",
                    i, t);
            bad = 1;
        }
    }
    free(seen);
    return bad;
}

static int check_sums(const unsigned *sum, const unsigned *in)
{
    unsigned want[LANES] = {0};
    for (unsigned i = 0; i < N; i++)
        want[i % LANES] += in[i];
    for (unsigned k = 0; k < LANES; k++)
        if (sum[k] != want[k]) {
            fprintf(stderr, "atomics: wrong result: sum[%u] = %u, expected %u\n", k, sum[k],
                    want[k]);
            return 1;
        }
    return 0;
}

static int check_histograms(const unsigned *hist, const unsigned *in)
{
    for (unsigned b = 0; b < N / BINS; b++) {
        unsigned want[BINS] = {0};
        for (unsigned t = 0; t < BINS; t++)
            want[in[b * BINS + t] % BINS]++;
        if (memcmp(want, hist + (size_t)b * BINS, sizeof(want))) {
            fprintf(stderr, "atomics: wrong result: histogram of block %u\n", b);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "atomics");
    const size_t bytes = (size_t)N * sizeof(unsigned);
    unsigned *h_in = (unsigned *)host_alloc(bytes, "atomics");
    unsigned *h_ticket = (unsigned *)host_alloc(bytes, "atomics");
    unsigned *h_hist = (unsigned *)host_alloc(bytes, "atomics");
    for (unsigned i = 0; i < N; i++)
        h_in[i] = (i * 2654435761u) >> 24;
    unsigned *d_in, *d_ticket, *d_hist, *d_counter, *d_sum;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_ticket, bytes));
    CHECK(cudaMalloc(&d_hist, bytes));  // N / BINS blocks x BINS bins
    CHECK(cudaMalloc(&d_counter, LANES * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_sum, LANES * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_counter, 0, LANES * sizeof(unsigned)));
    CHECK(cudaMemset(d_sum, 0, LANES * sizeof(unsigned)));

    const unsigned grid = N / BLOCK;
    LAUNCH(atomicTicket<<<grid, BLOCK>>>(d_ticket, d_counter, N));
    LAUNCH(atomicSum<<<grid, BLOCK>>>(d_sum, d_in, N));
    LAUNCH(sharedHistogram<<<N / BINS, BINS>>>(d_hist, d_in, N));
    CHECK(cudaDeviceSynchronize());

    unsigned h_counter[LANES], h_sum[LANES];
    CHECK(cudaMemcpy(h_ticket, d_ticket, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_hist, d_hist, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_counter, d_counter, sizeof(h_counter), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost));
    const int bad = check_tickets(h_ticket, h_counter) || check_sums(h_sum, h_in) ||
                    check_histograms(h_hist, h_in);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_ticket));
    CHECK(cudaFree(d_hist));
    CHECK(cudaFree(d_counter));
    CHECK(cudaFree(d_sum));
    free(h_in);
    free(h_ticket);
    free(h_hist);
    return run_status(bad, "atomics");
}
