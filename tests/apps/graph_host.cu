// graph_host: a CUDA graph with a host node between two kernels (cudaLaunchHostFunc,
// captured), launched LAUNCHES times, for the tests of graphs whose nodes cannot be launched
// one by one (a profiler can only time them and sample their DRAM traffic).
//
//   graph_host [LAUNCHES]      (default 4; 1 to 1000)
//
// N = 2^22 floats (16 MiB), x starts as i % 5 (copied from the host). The graph, captured
// from one non-blocking stream, 3 nodes in a chain:
//   hostBefore<<<16384, 256>>>   x[i] += 1                        (in place)
//   host node                    ++launch_count (a host counter); *stamp = launch_count,
//                                where stamp is pinned, mapped host memory
//   hostAfter <<<16384, 256>>>   y[i] = x[i] + *stamp (read through the mapped pointer, so
//                                it sees the host node's write only if it ran after it)
// Each graph launch is followed by a synchronisation and a check of every element: after
// launch l (1-based) x = x0 + l, y = x0 + 2 l, and the host counter is l.
// What the tests may assert: 2 LAUNCHES kernel launches, LAUNCHES of hostBefore and of
// hostAfter, all graph nodes (graph and graph_node ids non-zero) of one graph; the host
// function ran LAUNCHES times (the program checks it); `graph_host: ok (LAUNCHES launches)`
// on stdout, exit 0 (1 on a wrong result, 2 on a CUDA or usage error).
#include "graph_apps.h"

#define BLOCK 256

// What the host node touches: the count of its runs and the mapped word the kernel reads.
typedef struct {
    unsigned launch_count;
    volatile unsigned *stamp;
} host_state;

__global__ void hostBefore(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void hostAfter(float *y, const float *x, const volatile unsigned *stamp, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + (float)*stamp;
}

// The host node: no CUDA call is allowed here.
static void CUDART_CB host_node(void *data)
{
    host_state *s = (host_state *)data;
    s->launch_count++;
    *s->stamp = s->launch_count;
    __sync_synchronize();
}

// 0 when x, y and the host counter are right after graph launch `l` (1-based).
static int check(const float *x, const float *y, unsigned count, unsigned n, long l)
{
    if (count != (unsigned)l) {
        fprintf(stderr, "graph_host: wrong result: the host node ran %u times after %ld "
                "launches\n", count, l);
        return 1;
    }
    for (unsigned i = 0; i < n; i++) {
        const float want_x = (float)(i % 5) + (float)l, want_y = want_x + (float)l;
        if (x[i] != want_x || y[i] != want_y) {
            fprintf(stderr, "graph_host: wrong result at %u after launch %ld: x %g (expected "
                    "%g), y %g (expected %g)\n", i, l, x[i], want_x, y[i], want_y);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_host", 4, 1000);
    const unsigned n = 1u << 22, grid = (n + BLOCK - 1) / BLOCK;
    const size_t bytes = (size_t)n * sizeof(float);
    float *h_x = (float *)host_alloc(bytes, "graph_host");
    float *h_y = (float *)host_alloc(bytes, "graph_host");
    for (unsigned i = 0; i < n; i++)
        h_x[i] = (float)(i % 5);
    float *x, *y;
    CHECK(cudaMalloc(&x, bytes));
    CHECK(cudaMalloc(&y, bytes));
    CHECK(cudaMemcpy(x, h_x, bytes, cudaMemcpyHostToDevice));
    unsigned *stamp_host, *stamp_dev;
    CHECK(cudaHostAlloc((void **)&stamp_host, sizeof(unsigned), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&stamp_dev, stamp_host, 0));
    *stamp_host = 0;
    host_state state = {0, stamp_host};
    cudaStream_t s = stream_after_setup();

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    LAUNCH(hostBefore<<<grid, BLOCK, 0, s>>>(x, n));
    CHECK(cudaLaunchHostFunc(s, host_node, &state));
    LAUNCH(hostAfter<<<grid, BLOCK, 0, s>>>(y, x, stamp_dev, n));
    CHECK(cudaStreamEndCapture(s, &graph));
    if (check_captured("graph_host", graph, 3))
        return 1;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    int bad = 0;
    for (long l = 1; l <= launches && !bad; l++) {
        launch_graph(exec, s, 1);
        CHECK(cudaMemcpy(h_x, x, bytes, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(h_y, y, bytes, cudaMemcpyDeviceToHost));
        bad = check(h_x, h_y, state.launch_count, n, l);
    }

    destroy_graph(exec, graph, s);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFreeHost(stamp_host));
    free(h_x);
    free(h_y);
    return launches_status(bad, "graph_host", launches);
}
