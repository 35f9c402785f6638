// graph_child: a CUDA graph built with the explicit API (cudaGraphAddKernelNode) whose
// middle node is a child graph (cudaGraphAddChildGraphNode) of two kernels, launched LAUNCHES
// times, for the tests of kernel nodes nested in child graphs.
//
//   graph_child [LAUNCHES]     (default 3; 1 to 1000)
//
// N = 2^22 floats (16 MiB), block 256, grid 16384. The parent graph is a chain of 2 nodes:
//   childInit <<<16384, 256>>>          y[i] = i % 5                 (kernel node of the parent)
//   child graph node, itself a chain of two kernel nodes:
//     childDouble    <<<16384, 256>>>   y[i] *= 2                    (in place)
//     childAccumulate<<<16384, 256>>>   acc[i] += y[i] + 1           (in place across launches)
// acc is zeroed once by cudaMemset before the first launch. Each graph launch is followed by a
// synchronisation and a check of every element: after launch l (1-based)
// acc = l (2 (i % 5) + 1), so a node lost or run twice shows.
// What the tests may assert: 3 LAUNCHES kernel launches, LAUNCHES of each of childInit,
// childDouble and childAccumulate, all graph nodes (graph and graph_node ids non-zero; the
// child's nodes may carry the parent's graph id or the child's); `graph_child: ok (LAUNCHES
// launches)` on stdout, exit 0 (1 on a wrong result, 2 on a CUDA or usage error).
#include "graph_apps.h"

#define BLOCK 256

__global__ void childInit(float *y, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = (float)(i % 5);
}

__global__ void childDouble(float *y, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= 2.0f;
}

__global__ void childAccumulate(float *acc, const float *y, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += y[i] + 1.0f;
}

// A kernel node of `kernel` with arguments `args` after `dep` (NULL: a root), in `graph`.
static cudaGraphNode_t add_kernel(cudaGraph_t graph, cudaGraphNode_t dep, void *kernel,
                                  void **args, unsigned grid)
{
    cudaKernelNodeParams p = {};
    p.func = kernel;
    p.gridDim = dim3(grid);
    p.blockDim = dim3(BLOCK);
    p.sharedMemBytes = 0;
    p.kernelParams = args;
    p.extra = NULL;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, graph, dep ? &dep : NULL, dep ? 1 : 0, &p));
    return node;
}

// 0 when acc is right after graph launch `l` (1-based).
static int check(const float *acc, unsigned n, long l)
{
    for (unsigned i = 0; i < n; i++) {
        const float want = (float)l * (2.0f * (float)(i % 5) + 1.0f);
        if (acc[i] != want) {
            fprintf(stderr, "graph_child: wrong result at %u after launch %ld: %g, expected "
                    "%g\n", i, l, acc[i], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_child", 3, 1000);
    unsigned n = 1u << 22;
    const unsigned grid = (n + BLOCK - 1) / BLOCK;
    const size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)host_alloc(bytes, "graph_child");
    float *y, *acc;
    CHECK(cudaMalloc(&y, bytes));
    CHECK(cudaMalloc(&acc, bytes));
    CHECK(cudaMemset(acc, 0, bytes));
    cudaStream_t s = stream_after_setup();

    // Kernel node parameters are copied when a node is added: the locals may go after.
    void *init_args[] = {&y, &n}, *double_args[] = {&y, &n}, *acc_args[] = {&acc, &y, &n};
    cudaGraph_t child, parent;
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t doubled = add_kernel(child, NULL, (void *)childDouble, double_args, grid);
    add_kernel(child, doubled, (void *)childAccumulate, acc_args, grid);
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t init = add_kernel(parent, NULL, (void *)childInit, init_args, grid);
    cudaGraphNode_t nested;
    CHECK(cudaGraphAddChildGraphNode(&nested, parent, &init, 1, child));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(parent, NULL, &nodes));
    if (nodes != 2) {
        fprintf(stderr, "graph_child: the parent graph has %zu nodes, expected 2\n", nodes);
        return 1;
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, parent, 0));

    int bad = 0;
    for (long l = 1; l <= launches && !bad; l++) {
        launch_graph(exec, s, 1);
        CHECK(cudaMemcpy(h, acc, bytes, cudaMemcpyDeviceToHost));
        bad = check(h, n, l);
    }

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(y));
    CHECK(cudaFree(acc));
    free(h);
    return launches_status(bad, "graph_child", launches);
}
