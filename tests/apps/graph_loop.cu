// graph_loop: one small CUDA graph launched many times, as an iterative solver or an inference
// server replays a captured step: for the cost of profiling graph loops (--graph-samples,
// bench/bench_graph_loop.py) and the tests that count what the later launches carry.
//
//   graph_loop [LAUNCHES]      (default 3000; 1 to 1000000)
//
// N = 2^20 ints; x[i] = i % 3, y starts as i % 7. The graph, captured from one stream, 5 nodes in
// a chain:
//   memset       sum = 0 (8 bytes)
//   loopAxpy     <<<4096, 256>>>   y[i] += x[i]
//   loopSum      <<<512, 256>>>    sum += y[i] over every i (a grid-stride loop, one atomic per
//                                  block)
//   memcpy DtoD  last = sum (8 bytes)
//   loopCount    <<<1, 32>>>       ++count
// launched LAUNCHES times back to back, one synchronisation at the end; then y, last and count
// are checked: after L launches y = y0 + L x, last = the sum of that y, count = L.
// What the tests may assert: LAUNCHES launches of each kernel, all graph nodes of one graph; a
// lost, doubled or stale launch exits 1; `graph_loop: ok (LAUNCHES launches)` on stdout, exit 0
// (2 on a CUDA or usage error).
#include "graph_apps.h"

#define BLOCK 256
#define SUM_GRID 512

__global__ void loopAxpy(int *y, const int *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

__global__ void loopSum(unsigned long long *sum, const int *y, unsigned n)
{
    __shared__ unsigned long long partial[BLOCK];
    unsigned long long own = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        own += (unsigned long long)y[i];
    partial[threadIdx.x] = own;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, partial[0]);
}

__global__ void loopCount(unsigned *count)
{
    if (threadIdx.x == 0)
        ++*count;
}

typedef struct {
    int *x, *y;
    unsigned long long *sum, *last;
    unsigned *count;
} loop_buffers;

static cudaGraph_t capture(cudaStream_t s, const loop_buffers *b, unsigned n)
{
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(b->sum, 0, sizeof *b->sum, s));
    LAUNCH(loopAxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>>(b->y, b->x, n));
    LAUNCH(loopSum<<<SUM_GRID, BLOCK, 0, s>>>(b->sum, b->y, n));
    CHECK(cudaMemcpyAsync(b->last, b->sum, sizeof *b->sum, cudaMemcpyDeviceToDevice, s));
    LAUNCH(loopCount<<<1, 32, 0, s>>>(b->count));
    CHECK(cudaStreamEndCapture(s, &graph));
    return graph;
}

// 0 when y, last and count are what `launches` graph launches make.
static int check_result(const int *y, unsigned long long last, unsigned count, unsigned n,
                        long launches)
{
    if (count != (unsigned)launches) {
        fprintf(stderr, "graph_loop: wrong result: loopCount ran %u times, expected %ld\n",
                count, launches);
        return 1;
    }
    unsigned long long want_sum = 0;
    for (unsigned i = 0; i < n; i++) {
        const int want = (int)(i % 7) + (int)launches * (int)(i % 3);
        if (y[i] != want) {
            fprintf(stderr, "graph_loop: wrong result at %u after %ld launches: y %d "
                    "(expected %d)\n", i, launches, y[i], want);
            return 1;
        }
        want_sum += (unsigned long long)want;
    }
    if (last != want_sum) {
        fprintf(stderr, "graph_loop: wrong result: the last sum is %llu, expected %llu\n", last,
                want_sum);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_loop", 3000, 1000000);
    const unsigned n = 1u << 20;
    const size_t bytes = (size_t)n * sizeof(int);
    int *h_x = (int *)host_alloc(bytes, "graph_loop");
    int *h_y = (int *)host_alloc(bytes, "graph_loop");
    for (unsigned i = 0; i < n; i++) {
        h_x[i] = (int)(i % 3);
        h_y[i] = (int)(i % 7);
    }
    loop_buffers b;
    CHECK(cudaMalloc(&b.x, bytes));
    CHECK(cudaMalloc(&b.y, bytes));
    CHECK(cudaMalloc(&b.sum, sizeof *b.sum));
    CHECK(cudaMalloc(&b.last, sizeof *b.last));
    CHECK(cudaMalloc(&b.count, sizeof *b.count));
    CHECK(cudaMemset(b.count, 0, sizeof *b.count));
    CHECK(cudaMemcpy(b.x, h_x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b.y, h_y, bytes, cudaMemcpyHostToDevice));
    cudaStream_t s = stream_after_setup();
    cudaGraph_t graph = capture(s, &b, n);
    if (check_captured("graph_loop", graph, 5))
        return 1;
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    launch_graph(exec, s, launches);

    unsigned long long last = 0;
    unsigned count = 0;
    CHECK(cudaMemcpy(h_y, b.y, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&last, b.last, sizeof last, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, b.count, sizeof count, cudaMemcpyDeviceToHost));
    const int bad = check_result(h_y, last, count, n, launches);
    destroy_graph(exec, graph, s);
    CHECK(cudaFree(b.x));
    CHECK(cudaFree(b.y));
    CHECK(cudaFree(b.sum));
    CHECK(cudaFree(b.last));
    CHECK(cudaFree(b.count));
    free(h_x);
    free(h_y);
    return launches_status(bad, "graph_loop", launches);
}
