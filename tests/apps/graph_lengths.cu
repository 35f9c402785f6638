// graph_lengths: streaming copies of four lengths (about 2, 5, 20 and 100 us on an H100),
// first as the kernel nodes of a CUDA graph, then launched directly, for the benchmark that
// sets the DRAM bytes sampled per graph node against those of the same kernels profiled as
// ordinary launches (bench/bench_graphs.py).
//
//   graph_lengths [SCALE] [LAUNCHES]   (defaults 1 and 5; SCALE 0.01 to 100, LAUNCHES 1 to
//                                       1000)
//
// Kernel lengthCopyKus copies n_K floats, out[i] = in[i] + 1, block 256, grid ceil(n_K / 256),
// with its own two buffers; n_K is what moves K us of bytes at 3 TB/s read + written (8 bytes
// an element), times SCALE:
//   lengthCopy2us    n =    750,000   (6 MB moved)
//   lengthCopy5us    n =  1,875,000   (15 MB)
//   lengthCopy20us   n =  7,500,000   (60 MB)
//   lengthCopy100us  n = 37,500,000   (300 MB: it evicts L2, 50 MB on the H100, so every
//                                      copy reads its input from DRAM at the next round)
// lengthGap<<<1, 32>>> (counter += 1) runs after each copy, so that no two copies touch in
// time. A round is: lengthCopy2us, lengthGap, lengthCopy5us, lengthGap, lengthCopy20us,
// lengthGap, lengthCopy100us, lengthGap.
//   1. a graph of one round, captured from one stream (8 kernel nodes in a chain), launched
//      LAUNCHES times back to back;
//   2. then LAUNCHES rounds of the same kernels with the same arguments launched directly on
//      the same stream (no graph).
// The copies are checked on the host (in = i % 11, out = in + 1) and the counter must be
// 8 LAUNCHES.
// What the tests and the benchmark may assert: per copy kernel 2 LAUNCHES launches, the first
// LAUNCHES graph nodes (graph, graph_node non-zero), the rest direct (graph_node 0); lengthGap
// 8 LAUNCHES launches; the copy kernels' DRAM reads about 4 n (their input) whichever way they
// were launched, writes up to 4 n (L2 write-back). The sizes are printed on stderr
// (`graph_lengths: scale=S n=N2,N5,N20,N100 launches=L`); `graph_lengths: ok (L graph
// launches, L direct rounds)` on stdout, exit 0 (1 on a wrong result, 2 on a CUDA or usage
// error).
#include "graph_apps.h"

#define BLOCK 256
#define LENGTHS 4
#define BYTES_PER_SECOND 3e12  /* an H100's DRAM, roughly */
#define BYTES_PER_ELEMENT 8.0  /* a float read and a float written */

__device__ __forceinline__ void copy_plus_one(float *out, const float *in, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

// One kernel per length, so that each has its own name in a report.
__global__ void lengthCopy2us(float *out, const float *in, unsigned n)
{
    copy_plus_one(out, in, n);
}

__global__ void lengthCopy5us(float *out, const float *in, unsigned n)
{
    copy_plus_one(out, in, n);
}

__global__ void lengthCopy20us(float *out, const float *in, unsigned n)
{
    copy_plus_one(out, in, n);
}

__global__ void lengthCopy100us(float *out, const float *in, unsigned n)
{
    copy_plus_one(out, in, n);
}

__global__ void lengthGap(unsigned *counter)
{
    if (threadIdx.x == 0)
        *counter += 1;
}

typedef void (*copy_kernel)(float *, const float *, unsigned);

static const struct {
    copy_kernel kernel;
    double microseconds;
} lengths[LENGTHS] = {
    {lengthCopy2us, 2}, {lengthCopy5us, 5}, {lengthCopy20us, 20}, {lengthCopy100us, 100},
};

typedef struct {
    float *in[LENGTHS], *out[LENGTHS];
    unsigned n[LENGTHS];
    unsigned *counter;
} buffers;

// One round: each copy followed by the gap kernel.
static void round_of_launches(const buffers *b, cudaStream_t s)
{
    for (int k = 0; k < LENGTHS; k++) {
        const unsigned grid = (b->n[k] + BLOCK - 1) / BLOCK;
        LAUNCH(lengths[k].kernel<<<grid, BLOCK, 0, s>>>(b->out[k], b->in[k], b->n[k]));
        LAUNCH(lengthGap<<<1, 32, 0, s>>>(b->counter));
    }
}

#define USAGE "graph_lengths [SCALE] [LAUNCHES]   (0.01 to 100, default 1; 1 to 1000, default 5)"

// SCALE, argv[1]: from 0.01 to 100, 1 when absent.
static double scale_argument(int argc, char **argv)
{
    if (argc <= 1)
        return 1.0;
    char *end;
    const double scale = strtod(argv[1], &end);
    if (*end || !(scale >= 0.01 && scale <= 100))
        usage_error(USAGE);
    return scale;
}

static void allocate(buffers *b, double scale, float *host)
{
    for (int k = 0; k < LENGTHS; k++) {
        const double elements = lengths[k].microseconds * 1e-6 * BYTES_PER_SECOND /
                                BYTES_PER_ELEMENT * scale;
        b->n[k] = elements < 1 ? 1 : (unsigned)elements;
        const size_t bytes = (size_t)b->n[k] * sizeof(float);
        CHECK(cudaMalloc(&b->in[k], bytes));
        CHECK(cudaMalloc(&b->out[k], bytes));
        CHECK(cudaMemcpy(b->in[k], host, bytes, cudaMemcpyHostToDevice));
    }
    CHECK(cudaMalloc(&b->counter, sizeof(unsigned)));
    CHECK(cudaMemset(b->counter, 0, sizeof(unsigned)));
}

// 0 when every output is its input + 1 and the gap kernel ran 8 LAUNCHES times.
static int check(const buffers *b, long launches, float *host)
{
    for (int k = 0; k < LENGTHS; k++) {
        CHECK(cudaMemcpy(host, b->out[k], (size_t)b->n[k] * sizeof(float),
                         cudaMemcpyDeviceToHost));
        for (unsigned i = 0; i < b->n[k]; i++)
            if (host[i] != (float)(i % 11) + 1.0f) {
                fprintf(stderr, "graph_lengths: wrong result of copy %d at %u: %g, expected "
                        "%g\n", k, i, host[i], (float)(i % 11) + 1.0f);
                return 1;
            }
    }
    unsigned counter = 0;
    CHECK(cudaMemcpy(&counter, b->counter, sizeof counter, cudaMemcpyDeviceToHost));
    if (counter != (unsigned)(2 * LENGTHS * launches)) {
        fprintf(stderr, "graph_lengths: wrong result: lengthGap ran %u times, expected %ld\n",
                counter, 2 * LENGTHS * launches);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    at_most_arguments(argc, 2, USAGE);
    const double scale = scale_argument(argc, argv);
    const long launches = decimal_argument(argc, argv, 2, 5, 1, 1000, USAGE);
    buffers b;
    const double most = lengths[LENGTHS - 1].microseconds * 1e-6 * BYTES_PER_SECOND /
                        BYTES_PER_ELEMENT * scale;
    float *host = (float *)host_alloc(((size_t)most + 1) * sizeof(float), "graph_lengths");
    for (size_t i = 0; i <= (size_t)most; i++)
        host[i] = (float)(i % 11);
    allocate(&b, scale, host);
    fprintf(stderr, "graph_lengths: scale=%g n=%u,%u,%u,%u launches=%ld\n", scale, b.n[0],
            b.n[1], b.n[2], b.n[3], launches);
    cudaStream_t s = stream_after_setup();

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    round_of_launches(&b, s);
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    launch_graph(exec, s, launches);
    for (long l = 0; l < launches; l++)
        round_of_launches(&b, s);
    CHECK(cudaStreamSynchronize(s));

    const int bad = check(&b, launches, host);
    destroy_graph(exec, graph, s);
    for (int k = 0; k < LENGTHS; k++) {
        CHECK(cudaFree(b.in[k]));
        CHECK(cudaFree(b.out[k]));
    }
    CHECK(cudaFree(b.counter));
    free(host);
    if (bad)
        return 1;
    printf("graph_lengths: ok (%ld graph launches, %ld direct rounds)\n", launches, launches);
    return 0;
}
