// graph: one ordinary launch, then a CUDA graph of three kernel nodes built by stream capture
// and launched twice, for the tests of kernels launched through graphs.
//
//   graph                  (no arguments)
//
// On one non-blocking stream, N = 2^20 + 5 ints:
//   1. eagerLaunch<<<4097, 256>>>         ordinary launch: y[i] = 1 + i % 3
//   2. capture (cudaStreamBeginCapture .. EndCapture) of three kernel nodes, in order:
//        graphFill <<<4097, 256>>>         x[i] = i % 10 + y[i]
//        graphScale<<<2049, 512>>>         x[i] *= 3
//        graphSum  <<<4097, 256, 1024 B>>> partial[b] = sum of block b's x (dynamic shared
//                                          memory: 256 ints, a tree sum)
//      instantiated once, launched twice (cudaGraphLaunch); the partial sums are zeroed (by a
//      host-to-device copy, not a kernel) and checked on the host after each launch.
// What the tests assert: 7 kernel launches in all: eagerLaunch once, graphFill, graphScale
// and graphSum twice each, with those grids, blocks and dynamic shared memory (graphSum
// 1024 bytes, the others 0), all on the same stream; `graph: ok` on stdout, exit 0 (1 on a
// wrong result, 2 on a CUDA error).
#include "graph_apps.h"

#define SUM_BLOCK 256

__global__ void eagerLaunch(int *y, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 1 + (int)(i % 3);
}

__global__ void graphFill(int *x, const int *y, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (int)(i % 10) + y[i];
}

__global__ void graphScale(int *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 3;
}

// blockDim.x must be a power of two; dynamic shared memory of blockDim.x ints.
__global__ void graphSum(int *partial, const int *x, unsigned n)
{
    extern __shared__ int acc[];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    acc[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            acc[t] += acc[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = acc[0];
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "graph");
    const unsigned n = (1u << 20) + 5;
    const unsigned grid256 = (n + 255) / 256, grid512 = (n + 511) / 512;
    const unsigned nparts = (n + SUM_BLOCK - 1) / SUM_BLOCK;
    int *x, *y, *partial;
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    CHECK(cudaMalloc(&y, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, nparts * sizeof(int)));
    int *h = (int *)host_alloc(nparts * sizeof(int), "graph");
    int *zero = (int *)host_alloc(nparts * sizeof(int), "graph");
    memset(zero, 0, nparts * sizeof(int));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    LAUNCH(eagerLaunch<<<grid256, 256, 0, s>>>(y, n));

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    LAUNCH(graphFill<<<grid256, 256, 0, s>>>(x, y, n));
    LAUNCH(graphScale<<<grid512, 512, 0, s>>>(x, n));
    LAUNCH(graphSum<<<nparts, SUM_BLOCK, SUM_BLOCK * sizeof(int), s>>>(partial, x, n));
    CHECK(cudaStreamEndCapture(s, &graph));
    if (check_captured("graph", graph, 3))
        return 1;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    long long want = 0;
    for (unsigned i = 0; i < n; i++)
        want += 3LL * ((long long)(i % 10) + 1 + (long long)(i % 3));
    int bad = 0;
    for (int launch = 0; launch < 2 && !bad; launch++) {
        CHECK(cudaMemcpyAsync(partial, zero, nparts * sizeof(int), cudaMemcpyHostToDevice, s));
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(h, partial, nparts * sizeof(int), cudaMemcpyDeviceToHost));
        long long got = 0;
        for (unsigned b = 0; b < nparts; b++)
            got += h[b];
        if (got != want) {
            fprintf(stderr, "graph: wrong result after graph launch %d: sum %lld, expected %lld\n",
                    launch + 1, got, want);
            bad = 1;
        }
    }

    destroy_graph(exec, graph, s);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(partial));
    free(h);
    free(zero);
    return run_status(bad, "graph");
}
