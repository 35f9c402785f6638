// graph_samples: the shape of NVIDIA's simpleCudaGraphs sample, written for gpuprof: a sum
// reduction as a CUDA graph of copies, a memset, two kernels and a host node, built once with
// the explicit API and once by stream capture, each launched LAUNCHES times.
//
//   graph_samples [LAUNCHES]   (default 3; 1 to 1000)
//
// N = 2^20 + 7 floats, in[i] = i % 13 (so every partial sum is an exact integer in float),
// in pinned host memory; the sum is 6,291,483. Both graphs have the same 6 nodes:
//   memcpy node   in_dev <- in_host (HtoD, 4 MiB + 28 B)   ] the two roots
//   memset node   result_dev = 0 (4 bytes)                 ]
//   samplesBlockSums<<<512, 256, 1024 B>>>  partial[b] = block b's grid-stride sum (a tree in
//                                           dynamic shared memory); after both roots
//   samplesFinalSum <<<1, 256, 1024 B>>>    *result_dev += the sum of the 512 partials
//   memcpy node   result_host <- result_dev (DtoH, 4 bytes)
//   host node     compares result_host with the sum computed on the host, counts its calls
//                 and the matches
// 1. explicit: cudaGraphAddMemcpyNode1D, cudaGraphAddMemsetNode, cudaGraphAddKernelNode,
//    cudaGraphAddHostNode with those dependencies;
// 2. captured: the HtoD copy on stream s1, the memset on s2 (forked from s1 and joined back
//    over events), the rest on s1 (cudaLaunchHostFunc for the host node).
// Each graph is instantiated and launched LAUNCHES times back to back, then synchronised: its
// host node must have run LAUNCHES times and seen the right sum each time.
// What the tests may assert: 4 LAUNCHES kernel launches (2 LAUNCHES of samplesBlockSums and of
// samplesFinalSum), all graph nodes, from two graphs; 2 LAUNCHES HtoD copies (4194332 bytes),
// 2 LAUNCHES DtoH copies (4 bytes) and 2 LAUNCHES memsets (4 bytes); `graph_samples: ok (2
// graphs, LAUNCHES launches each)` on stdout, exit 0 (1 on a wrong result, 2 on a CUDA or
// usage error).
#include "graph_apps.h"

#define BLOCK 256              /* a power of two: the tree sums halve it */
#define PARTIALS 512           /* samplesBlockSums' grid */
#define GRAPH_NODES 6

// A tree sum of the block's BLOCK values in `acc`; the total in acc[0].
__device__ void block_tree_sum(float *acc)
{
    const unsigned t = threadIdx.x;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            acc[t] += acc[t + s];
        __syncthreads();
    }
}

__global__ void samplesBlockSums(float *partial, const float *in, unsigned n)
{
    extern __shared__ float acc[];
    float sum = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    acc[threadIdx.x] = sum;
    block_tree_sum(acc);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = acc[0];
}

__global__ void samplesFinalSum(float *result, const float *partial, unsigned count)
{
    extern __shared__ float acc[];
    float sum = 0.0f;
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
        sum += partial[i];
    acc[threadIdx.x] = sum;
    block_tree_sum(acc);
    if (threadIdx.x == 0)
        *result += acc[0];
}

// What a graph works on, and what its host node saw.
typedef struct {
    float *in_host, *in_dev, *partial, *result_dev, *result_host;
    unsigned n;
    double expected;
    int calls, matches;
} reduction;

// The host node: no CUDA call is allowed here.
static void CUDART_CB host_compare(void *data)
{
    reduction *r = (reduction *)data;
    r->calls++;
    if ((double)*r->result_host == r->expected)
        r->matches++;
    else
        fprintf(stderr, "graph_samples: the host node saw %g, expected %g\n",
                (double)*r->result_host, r->expected);
}

static cudaKernelNodeParams kernel_params(void *func, unsigned grid, void **args)
{
    cudaKernelNodeParams p = {};
    p.func = func;
    p.gridDim = dim3(grid);
    p.blockDim = dim3(BLOCK);
    p.sharedMemBytes = BLOCK * sizeof(float);
    p.kernelParams = args;
    return p;
}

// The reduction's graph through the explicit API.
static cudaGraph_t build_explicit(reduction *r)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t copy_in, zero, sums, final_sum, copy_out, host;
    CHECK(cudaGraphAddMemcpyNode1D(&copy_in, g, NULL, 0, r->in_dev, r->in_host,
                                   (size_t)r->n * sizeof(float), cudaMemcpyHostToDevice));
    cudaMemsetParams m = {};
    m.dst = r->result_dev;
    m.value = 0;
    m.elementSize = sizeof(float);
    m.width = 1;
    m.height = 1;
    CHECK(cudaGraphAddMemsetNode(&zero, g, NULL, 0, &m));
    unsigned partials = PARTIALS;
    void *sums_args[] = {&r->partial, &r->in_dev, &r->n};
    void *final_args[] = {&r->result_dev, &r->partial, &partials};
    cudaKernelNodeParams k = kernel_params((void *)samplesBlockSums, PARTIALS, sums_args);
    cudaGraphNode_t roots[] = {copy_in, zero};
    CHECK(cudaGraphAddKernelNode(&sums, g, roots, 2, &k));
    k = kernel_params((void *)samplesFinalSum, 1, final_args);
    CHECK(cudaGraphAddKernelNode(&final_sum, g, &sums, 1, &k));
    CHECK(cudaGraphAddMemcpyNode1D(&copy_out, g, &final_sum, 1, r->result_host, r->result_dev,
                                   sizeof(float), cudaMemcpyDeviceToHost));
    cudaHostNodeParams h = {};
    h.fn = host_compare;
    h.userData = r;
    CHECK(cudaGraphAddHostNode(&host, g, &copy_out, 1, &h));
    return g;
}

// The same graph captured from s1, with the memset forked to s2.
static cudaGraph_t build_captured(reduction *r, cudaStream_t s1, cudaStream_t s2)
{
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaMemcpyAsync(r->in_dev, r->in_host, (size_t)r->n * sizeof(float),
                          cudaMemcpyHostToDevice, s1));
    CHECK(cudaMemsetAsync(r->result_dev, 0, sizeof(float), s2));
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    const size_t shared = BLOCK * sizeof(float);
    LAUNCH(samplesBlockSums<<<PARTIALS, BLOCK, shared, s1>>>(r->partial, r->in_dev, r->n));
    LAUNCH(samplesFinalSum<<<1, BLOCK, shared, s1>>>(r->result_dev, r->partial, PARTIALS));
    CHECK(cudaMemcpyAsync(r->result_host, r->result_dev, sizeof(float), cudaMemcpyDeviceToHost,
                          s1));
    CHECK(cudaLaunchHostFunc(s1, host_compare, r));
    CHECK(cudaStreamEndCapture(s1, &g));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    return g;
}

// Instantiates `g`, launches it `launches` times on s, destroys both; 0 when its host node
// ran each time and saw the right sum.
static int run_graph(const char *how, cudaGraph_t g, reduction *r, cudaStream_t s,
                     long launches)
{
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &nodes));
    if (nodes != GRAPH_NODES) {
        fprintf(stderr, "graph_samples: the %s graph has %zu nodes, expected %d\n", how, nodes,
                GRAPH_NODES);
        return 1;
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    r->calls = r->matches = 0;
    launch_graph(exec, s, launches);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    if (r->calls != launches || r->matches != launches) {
        fprintf(stderr, "graph_samples: wrong result of the %s graph: its host node ran %d "
                "times and saw the right sum %d times, expected %ld\n", how, r->calls,
                r->matches, launches);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_samples", 3, 1000);
    reduction r = {};
    r.n = (1u << 20) + 7;
    const size_t bytes = (size_t)r.n * sizeof(float);
    CHECK(cudaMallocHost(&r.in_host, bytes));
    CHECK(cudaMallocHost(&r.result_host, sizeof(float)));
    long long want = 0;
    for (unsigned i = 0; i < r.n; i++) {
        r.in_host[i] = (float)(i % 13);
        want += i % 13;
    }
    r.expected = (double)want;
    CHECK(cudaMalloc(&r.in_dev, bytes));
    CHECK(cudaMalloc(&r.partial, PARTIALS * sizeof(float)));
    CHECK(cudaMalloc(&r.result_dev, sizeof(float)));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    const int bad = run_graph("explicit", build_explicit(&r), &r, s1, launches) ||
                    run_graph("captured", build_captured(&r, s1, s2), &r, s1, launches);

    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(r.in_dev));
    CHECK(cudaFree(r.partial));
    CHECK(cudaFree(r.result_dev));
    CHECK(cudaFreeHost(r.in_host));
    CHECK(cudaFreeHost(r.result_host));
    if (bad)
        return 1;
    printf("graph_samples: ok (2 graphs, %ld launches each)\n", launches);
    return 0;
}
