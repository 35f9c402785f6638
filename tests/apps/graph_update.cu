// graph_update: an instantiated CUDA graph whose kernel nodes' parameters change between
// launches, in the executable graph (cudaGraphExecKernelNodeSetParams) and by a whole-graph
// update (cudaGraphExecUpdate), for the tests of profilers that cache a graph's nodes: a
// profiler that replayed stale parameters would write into an old output buffer, which the
// program re-checks is untouched.
//
//   graph_update [LAUNCHES]    (launches per step, default 2; 1 to 1000)
//
// N = 2^22 floats (16 MiB), block 256, grid 16384; in[i] = 1 + i % 9 (copied from the host).
// The graph (explicit API) is a chain of two kernel nodes:
//   updateScale <<<16384, 256>>>(out, in, s)   out[i] += s in[i]
//   updateOffset<<<16384, 256>>>(out, add)     out[i] += add
// (both in place, so each buffer counts the launches that wrote it).
// Three steps, each launched LAUNCHES times (L) then checked:
//   1. as instantiated: out1, s = 2, add = 1                 out1 = L (2 in + 1)
//   2. both nodes set in the executable graph (cudaGraphExecKernelNodeSetParams) to out2,
//      s = 3, add = 5                                        out2 = L (3 in + 5)
//   3. a new graph of the same shape with out3, s = 4, add = 7, applied with
//      cudaGraphExecUpdate                                   out3 = L (4 in + 7)
// Every output starts at 0; out1 is set to 0 again (cudaMemsetAsync on the graph's stream)
// before step 2, out2 before step 3. After each step the two other outputs must be 0
// everywhere, so a launch with any stale parameter (pointer or scalar) shows, whether the
// stale kernel writes an old buffer or the current one.
// What the tests may assert: 6 L kernel launches, 3 L of updateScale and of updateOffset, all
// graph nodes of one executable graph; `graph_update: ok (3 steps of L launches)` on stdout,
// exit 0 (1 on a wrong result, 2 on a CUDA or usage error).
#include "graph_apps.h"

#define BLOCK 256
#define STEPS 3

__global__ void updateScale(float *out, const float *in, float s, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += s * in[i];
}

__global__ void updateOffset(float *out, float add, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += add;
}

// One step's parameters; the argument arrays point into it, so it must outlive their use.
typedef struct {
    float *out;
    const float *in;
    float scale, add;
    unsigned n;
    void *scale_args[4], *offset_args[3];
    cudaKernelNodeParams scale_node, offset_node;
} step_params;

static void set_params(step_params *p, float *out, const float *in, float scale, float add,
                       unsigned n)
{
    p->out = out;
    p->in = in;
    p->scale = scale;
    p->add = add;
    p->n = n;
    p->scale_args[0] = &p->out;
    p->scale_args[1] = &p->in;
    p->scale_args[2] = &p->scale;
    p->scale_args[3] = &p->n;
    p->offset_args[0] = &p->out;
    p->offset_args[1] = &p->add;
    p->offset_args[2] = &p->n;
    const unsigned grid = (n + BLOCK - 1) / BLOCK;
    cudaKernelNodeParams k = {};
    k.gridDim = dim3(grid);
    k.blockDim = dim3(BLOCK);
    k.func = (void *)updateScale;
    k.kernelParams = p->scale_args;
    p->scale_node = k;
    k.func = (void *)updateOffset;
    k.kernelParams = p->offset_args;
    p->offset_node = k;
}

// The chain updateScale -> updateOffset with p's parameters; its nodes in scale, offset.
static cudaGraph_t build(const step_params *p, cudaGraphNode_t *scale, cudaGraphNode_t *offset)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddKernelNode(scale, g, NULL, 0, &p->scale_node));
    CHECK(cudaGraphAddKernelNode(offset, g, scale, 1, &p->offset_node));
    return g;
}

// 0 when device buffer `buf` holds want(i) = scale in(i) + add everywhere.
static int expect(const char *what, int step, const float *buf, float *h, unsigned n,
                  float scale, float add)
{
    CHECK(cudaMemcpy(h, buf, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++) {
        const float want = scale * (float)(1 + i % 9) + add;
        if (h[i] != want) {
            fprintf(stderr, "graph_update: wrong result after step %d: %s[%u] = %g, expected "
                    "%g\n", step, what, i, h[i], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const long launches = launches_argument(argc, argv, "graph_update", 2, 1000);
    const unsigned n = 1u << 22;
    const size_t bytes = (size_t)n * sizeof(float);
    const float L = (float)launches;
    float *h = (float *)host_alloc(bytes, "graph_update");
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(1 + i % 9);
    float *in, *out[STEPS];
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice));
    for (int k = 0; k < STEPS; k++) {
        CHECK(cudaMalloc(&out[k], bytes));
        CHECK(cudaMemset(out[k], 0, bytes));
    }
    cudaStream_t s = stream_after_setup();
    static step_params p[STEPS];
    set_params(&p[0], out[0], in, 2.0f, 1.0f, n);
    set_params(&p[1], out[1], in, 3.0f, 5.0f, n);
    set_params(&p[2], out[2], in, 4.0f, 7.0f, n);

    cudaGraphNode_t scale, offset;
    cudaGraph_t graph = build(&p[0], &scale, &offset);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    int bad = 0;

    launch_graph(exec, s, launches);  // step 1: as instantiated
    bad = expect("out1", 1, out[0], h, n, 2.0f * L, L) || expect("out2", 1, out[1], h, n, 0, 0) ||
          expect("out3", 1, out[2], h, n, 0, 0);

    if (!bad) {  // step 2: the executable graph's nodes changed in place
        CHECK(cudaMemsetAsync(out[0], 0, bytes, s));
        CHECK(cudaGraphExecKernelNodeSetParams(exec, scale, &p[1].scale_node));
        CHECK(cudaGraphExecKernelNodeSetParams(exec, offset, &p[1].offset_node));
        launch_graph(exec, s, launches);
        bad = expect("out2", 2, out[1], h, n, 3.0f * L, 5.0f * L) ||
              expect("out1", 2, out[0], h, n, 0, 0) || expect("out3", 2, out[2], h, n, 0, 0);
    }

    cudaGraph_t updated = NULL;
    if (!bad) {  // step 3: a new graph of the same shape applied to the executable graph
        CHECK(cudaMemsetAsync(out[1], 0, bytes, s));
        cudaGraphNode_t scale3, offset3;
        updated = build(&p[2], &scale3, &offset3);
        cudaGraphExecUpdateResultInfo info;
        CHECK(cudaGraphExecUpdate(exec, updated, &info));
        if (info.result != cudaGraphExecUpdateSuccess) {
            fprintf(stderr, "graph_update: cudaGraphExecUpdate refused the graph (result %d)\n",
                    (int)info.result);
            return 1;
        }
        launch_graph(exec, s, launches);
        bad = expect("out3", 3, out[2], h, n, 4.0f * L, 7.0f * L) ||
              expect("out1", 3, out[0], h, n, 0, 0) || expect("out2", 3, out[1], h, n, 0, 0);
    }

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    if (updated)
        CHECK(cudaGraphDestroy(updated));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(in));
    for (int k = 0; k < STEPS; k++)
        CHECK(cudaFree(out[k]));
    free(h);
    if (bad)
        return 1;
    printf("graph_update: ok (%d steps of %ld launches)\n", STEPS, launches);
    return 0;
}
