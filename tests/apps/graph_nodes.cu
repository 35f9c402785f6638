// graph_nodes: a CUDA graph captured from two streams with a dependency diamond, a memset
// node and a device-to-device memcpy node, instantiated before the program's first kernel
// launch and launched LAUNCHES times, for the tests and benchmark of graph-node profiling.
//
//   graph_nodes [LAUNCHES]     (default 20; 1 to 100000)
//
// N = 2^24 floats (64 MiB) per buffer; x starts as i % 7, copied from the host (no kernel).
// The graph, captured from stream s0 with a fork to s1 and a join over events (the events
// become edges, not nodes): 7 nodes, 5 of them kernels (block 256; grid 65536 = N / 256
// except nodesTick's):
//
//   memset(out, 0)                                   memset node            (s0)
//     -> nodesFill   a[i] = 2 x[i] + 1               A                      (s0)
//        -> nodesScale  b[i] = 3 a[i]                B                      (s0)
//        -> nodesOffset c[i] = a[i] + 5              C                      (s1)
//           -> memcpy c2 <- c (device to device)     memcpy node            (s1)
//     -> nodesCombine out[i] += b[i] + c2[i]; x[i] += 1 (in place)   D      (s0, joins s1)
//     -> nodesTick   <<<1, 32>>> counter += 1 (in place; the short one)   (s0)
//
// On an H100 each big kernel moves 128 MiB or more (nodesFill, nodesScale, nodesOffset read
// 64 MiB and write 64 MiB, ~45 us; nodesCombine reads 192 MiB and writes 128 MiB, ~110 us);
// nodesTick takes a few microseconds. The launches go back to back on s0, one synchronisation
// at the end; then the host checks every element against a model that counts the launches:
// x = x0 + L, counter = L, and out = b + c2 of the last launch, i.e. with x' = x0 + L - 1:
// out = 3 (2 x' + 1) + (2 x' + 1) + 5. A lost graph launch or node, or one run twice, changes
// x and counter; a lost memset makes out accumulate (all exact in float for L <= 100000).
// What the tests may assert: 5 L kernel launches, L of each of nodesFill, nodesScale,
// nodesOffset, nodesCombine, nodesTick, all graph nodes (graph and graph_node ids non-zero),
// no kernel launched outside the graph; one memset and one DtoD copy of 64 MiB per graph
// launch; nodesScale and nodesOffset on different streams at capture (a graph launch runs on
// the stream it is launched into: the K lines may carry s0 or the driver's internal streams);
// `graph_nodes: ok (L launches)` on stdout, exit 0 (1 on a wrong result, 2 on a CUDA error or
// a usage error).
#include "graph_apps.h"

#define BLOCK 256
#define GRAPH_NODES 7
#define KERNEL_NODES 5

__global__ void nodesFill(float *a, const float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 2.0f * x[i] + 1.0f;
}

__global__ void nodesScale(float *b, const float *a, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = 3.0f * a[i];
}

__global__ void nodesOffset(float *c, const float *a, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + 5.0f;
}

__global__ void nodesCombine(float *out, float *x, const float *b, const float *c2, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] += b[i] + c2[i];
        x[i] += 1.0f;
    }
}

__global__ void nodesTick(unsigned *counter)
{
    if (threadIdx.x == 0)
        *counter += 1;
}

// The diamond, captured from s0 (fork to s1 and join over events).
static cudaGraph_t capture(cudaStream_t s0, cudaStream_t s1, float *x, float *a, float *b,
                           float *c, float *c2, float *out, unsigned *counter, unsigned n)
{
    const unsigned grid = (n + BLOCK - 1) / BLOCK;
    const size_t bytes = (size_t)n * sizeof(float);
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(out, 0, bytes, s0));
    LAUNCH(nodesFill<<<grid, BLOCK, 0, s0>>>(a, x, n));
    CHECK(cudaEventRecord(fork, s0));
    CHECK(cudaStreamWaitEvent(s1, fork, 0));
    LAUNCH(nodesScale<<<grid, BLOCK, 0, s0>>>(b, a, n));
    LAUNCH(nodesOffset<<<grid, BLOCK, 0, s1>>>(c, a, n));
    CHECK(cudaMemcpyAsync(c2, c, bytes, cudaMemcpyDeviceToDevice, s1));
    CHECK(cudaEventRecord(join, s1));
    CHECK(cudaStreamWaitEvent(s0, join, 0));
    LAUNCH(nodesCombine<<<grid, BLOCK, 0, s0>>>(out, x, b, c2, n));
    LAUNCH(nodesTick<<<1, 32, 0, s0>>>(counter));
    CHECK(cudaStreamEndCapture(s0, &graph));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    return graph;
}

// 0 when the graph has the 7 nodes, 5 of them kernels, that capture() records.
static int check_shape(cudaGraph_t graph)
{
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &count));
    if (count != GRAPH_NODES) {
        fprintf(stderr, "graph_nodes: captured %zu nodes, expected %d\n", count, GRAPH_NODES);
        return 1;
    }
    cudaGraphNode_t nodes[GRAPH_NODES];
    CHECK(cudaGraphGetNodes(graph, nodes, &count));
    int kernels = 0;
    for (size_t k = 0; k < count; k++) {
        cudaGraphNodeType type;
        CHECK(cudaGraphNodeGetType(nodes[k], &type));
        kernels += type == cudaGraphNodeTypeKernel;
    }
    if (kernels != KERNEL_NODES) {
        fprintf(stderr, "graph_nodes: %d kernel nodes, expected %d\n", kernels, KERNEL_NODES);
        return 1;
    }
    return 0;
}

// 0 when x, out and the counter are what `launches` graph launches make of x0 = i % 7.
static int check_result(const float *x, const float *out, unsigned counter, unsigned n,
                        long launches)
{
    if (counter != (unsigned)launches) {
        fprintf(stderr, "graph_nodes: wrong result: nodesTick ran %u times, expected %ld\n",
                counter, launches);
        return 1;
    }
    for (unsigned i = 0; i < n; i++) {
        const float last = (float)(i % 7) + (float)(launches - 1);
        const float a = 2.0f * last + 1.0f;
        const float want_out = 3.0f * a + (a + 5.0f);
        const float want_x = (float)(i % 7) + (float)launches;
        if (x[i] != want_x || out[i] != want_out) {
            fprintf(stderr, "graph_nodes: wrong result at %u after %ld launches: x %g "
                    "(expected %g), out %g (expected %g)\n", i, launches, x[i], want_x,
                    out[i], want_out);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_nodes", 20, 100000);
    const unsigned n = 1u << 24;
    const size_t bytes = (size_t)n * sizeof(float);
    float *h_x = (float *)host_alloc(bytes, "graph_nodes");
    float *h_out = (float *)host_alloc(bytes, "graph_nodes");
    for (unsigned i = 0; i < n; i++)
        h_x[i] = (float)(i % 7);
    float *x, *a, *b, *c, *c2, *out;
    unsigned *counter;
    float **buffers[] = {&x, &a, &b, &c, &c2, &out};
    for (size_t k = 0; k < sizeof buffers / sizeof buffers[0]; k++)
        CHECK(cudaMalloc(buffers[k], bytes));
    CHECK(cudaMalloc(&counter, sizeof(unsigned)));
    CHECK(cudaMemset(counter, 0, sizeof(unsigned)));
    CHECK(cudaMemcpy(x, h_x, bytes, cudaMemcpyHostToDevice));
    cudaStream_t s0, s1;
    CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    // The setup above ran on the legacy default stream, which non-blocking streams do not
    // wait for (a memset, a copy from pageable memory may still be in flight).
    CHECK(cudaDeviceSynchronize());

    // Captured and instantiated before any kernel has been launched.
    cudaGraph_t graph = capture(s0, s1, x, a, b, c, c2, out, counter, n);
    if (check_shape(graph))
        return 1;
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    for (long l = 0; l < launches; l++)
        CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));

    unsigned h_counter = 0;
    CHECK(cudaMemcpy(h_x, x, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_out, out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_counter, counter, sizeof h_counter, cudaMemcpyDeviceToHost));
    const int bad = check_result(h_x, h_out, h_counter, n, launches);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaStreamDestroy(s1));
    for (size_t k = 0; k < sizeof buffers / sizeof buffers[0]; k++)
        CHECK(cudaFree(*buffers[k]));
    CHECK(cudaFree(counter));
    free(h_x);
    free(h_out);
    return launches_status(bad, "graph_nodes", launches);
}
