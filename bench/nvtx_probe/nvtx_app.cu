// bench/nvtx_probe/nvtx_app.cu: a CUDA program with NVTX v3 ranges of every kind gpuprof exec
// must attribute (issue 48), printing its own ground truth: each launch of its one kernel
// (nvtx_probe_kernel, whose first argument is the launch's tag) with the range path it expects
// there, in nvtx_tool.c's format (fields joined by ';': pp=a/b for this thread's push/pop
// ranges, se=x,y for the open start/end ranges of any thread, D:pp=... and D:se=... for
// domain D; "-" when none):
//   TRUTH tag=N tid=T expect=PATH            a launch (also a launch captured into a graph)
//   TRUTH_NODE tag=N expect=PATH             a graph node: the path when it was captured
//   TRUTH_GRAPH i=K tid=T expect=PATH        the K-th cudaGraphLaunch: the path it is made in
//   COST bare_pair_ns=... launch_ns=... launch_in_range_ns=... per_range_ns=... iters=N
// The cases:
//   1. nested push/pop on the main thread, a category of the default domain;
//   2. backward-like: a range pushed on the main thread while another thread launches;
//   3. start/end ranges started on one thread and ended on another;
//   4. a domain (nvtxDomainCreateA) with registered strings and named categories, its push/pop
//      and start/end ranges;
//   5. a CUDA graph captured inside a range and launched inside others (one on another thread
//      inside a start/end range);
//   6. cost: push/pop pairs alone, and ITERS tiny launches without and with a push/pop pair
//      around each.
// Usage: nvtx_app [--cuda-first] [--iters N] [--bare N]
//   --cuda-first  initialise CUDA before the first NVTX call (by default the first NVTX call
//                 comes first, as in a program that opens a range before touching the GPU)
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

extern "C" __global__ void nvtx_probe_kernel(int tag, int *sink)
{
    if (tag == -12345 && threadIdx.x == 0) // never: the kernel only carries its tag
        *sink = tag;
}

static int *sink;
static int n_truth;

static long tid() { return syscall(SYS_gettid); }

static double now_ns()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "nvtx_app: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

static void launch(int tag, const char *expect, cudaStream_t s = 0)
{
    printf("TRUTH tag=%d tid=%ld expect=%s\n", tag, tid(), expect);
    n_truth++;
    nvtx_probe_kernel<<<1, 32, 0, s>>>(tag, sink);
    check(cudaGetLastError(), "launch");
}

static nvtxEventAttributes_t attr_ascii(const char *m, uint32_t category)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = m;
    a.category = category;
    return a;
}

static nvtxEventAttributes_t attr_registered(nvtxStringHandle_t s, uint32_t category)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = s;
    a.category = category;
    return a;
}

template <class F> static double best_ns_per(int reps, long n, F body)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        const double t0 = now_ns();
        body();
        const double v = (now_ns() - t0) / n;
        if (v < best)
            best = v;
    }
    return best;
}

int main(int argc, char **argv)
{
    bool cuda_first = false;
    long iters = 10000, bare = 1000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cuda-first"))
            cuda_first = true;
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = atol(argv[++i]);
        else if (!strcmp(argv[i], "--bare") && i + 1 < argc)
            bare = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: nvtx_app [--cuda-first] [--iters N] [--bare N]\n");
            return 2;
        }
    }
    printf("APP cuda_first=%d iters=%ld bare=%ld\n", cuda_first, iters, bare);
    if (cuda_first)
        check(cudaFree(0), "cudaFree(0)");

    nvtxNameCategoryA(3, "global-cat");
    nvtxRangePushA("app");
    check(cudaMalloc(&sink, sizeof(int)), "cudaMalloc"); // CUDA starts here by default

    // 1. nested push/pop on the main thread, a category of the default domain
    nvtxRangePushA("outer");
    launch(1, "pp=app/outer");
    nvtxRangePushA("inner");
    launch(2, "pp=app/outer/inner");
    nvtxEventAttributes_t a = attr_ascii("catmsg", 3);
    nvtxRangePushEx(&a);
    launch(3, "pp=app/outer/inner/catmsg[global-cat]");
    nvtxRangePop();
    nvtxRangePop();
    launch(4, "pp=app/outer");
    nvtxRangePop();
    launch(5, "pp=app");

    // 2. backward-like: the range is pushed here, the kernels are launched on another thread
    nvtxRangePushA("backward");
    std::thread([] {
        launch(10, "-");
        nvtxRangePushA("worker-op");
        launch(11, "pp=worker-op");
        nvtxRangePop();
    }).join();
    launch(12, "pp=app/backward");
    nvtxRangePop();

    // 3. start/end ranges ended on another thread; process-wide while open
    nvtxRangeId_t step = nvtxRangeStartA("step");
    launch(20, "pp=app;se=step");
    std::thread([step] {
        launch(21, "se=step");
        nvtxRangeEnd(step);
        launch(22, "-");
    }).join();
    launch(23, "pp=app");
    nvtxRangeId_t pa = nvtxRangeStartA("phase-a");
    nvtxRangeId_t pb = nvtxRangeStartA("phase-b");
    std::thread([pa] { nvtxRangeEnd(pa); }).join();
    launch(24, "pp=app;se=phase-b");
    std::thread([] { launch(25, "se=phase-b"); }).join();
    nvtxRangeEnd(pb);

    // 4. a domain, registered strings, its named categories
    nvtxDomainHandle_t dom = nvtxDomainCreateA("probe");
    nvtxStringHandle_t s_outer = nvtxDomainRegisterStringA(dom, "reg-outer");
    nvtxStringHandle_t s_inner = nvtxDomainRegisterStringA(dom, "reg-inner");
    nvtxDomainNameCategoryA(dom, 1, "cat-one");
    a = attr_registered(s_outer, 1);
    nvtxDomainRangePushEx(dom, &a);
    launch(30, "pp=app;probe:pp=reg-outer[cat-one]");
    a = attr_ascii("dom-ascii", 2);
    nvtxDomainRangePushEx(dom, &a);
    launch(31, "pp=app;probe:pp=reg-outer[cat-one]/dom-ascii[#2]");
    a = attr_ascii("x", 1); // category 1 of the default domain: not the domain's "cat-one"
    nvtxRangePushEx(&a);
    launch(32, "pp=app/x[#1];probe:pp=reg-outer[cat-one]/dom-ascii[#2]");
    nvtxRangePop();
    a = attr_registered(s_inner, 0);
    nvtxRangeId_t d1 = nvtxDomainRangeStartEx(dom, &a);
    launch(33, "pp=app;probe:pp=reg-outer[cat-one]/dom-ascii[#2];probe:se=reg-inner");
    std::thread([] { launch(34, "probe:se=reg-inner"); }).join();
    nvtxDomainRangePop(dom);
    nvtxDomainRangePop(dom);
    nvtxDomainRangeEnd(dom, d1);
    launch(35, "pp=app");
    check(cudaDeviceSynchronize(), "sync after the cases");

    // 5. a graph captured inside a range, launched inside others
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    nvtxRangePushA("capture");
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "begin capture");
    launch(40, "pp=app/capture", s);
    nvtxRangePushA("cap-inner");
    launch(41, "pp=app/capture/cap-inner", s);
    nvtxRangePop();
    check(cudaStreamEndCapture(s, &graph), "end capture");
    nvtxRangePop();
    printf("TRUTH_NODE tag=40 expect=pp=app/capture\n");
    printf("TRUTH_NODE tag=41 expect=pp=app/capture/cap-inner\n");
    nvtxRangePushA("instantiate");
    check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    nvtxRangePop();
    nvtxRangePushA("replay");
    for (int i = 0; i < 2; i++) {
        printf("TRUTH_GRAPH i=%d tid=%ld expect=pp=app/replay\n", i, tid());
        check(cudaGraphLaunch(exec, s), "graph launch");
    }
    nvtxRangePop();
    nvtxRangeId_t gse = nvtxRangeStartA("graph-se");
    std::thread([exec, s] {
        printf("TRUTH_GRAPH i=2 tid=%ld expect=se=graph-se\n", tid());
        check(cudaGraphLaunch(exec, s), "graph launch on a thread");
    }).join();
    nvtxRangeEnd(gse);
    check(cudaStreamSynchronize(s), "graph sync");

    // 6. cost: NVTX calls alone, then launches without and with a range around each
    const double bare_pair = best_ns_per(3, bare, [&] {
        for (long i = 0; i < bare; i++) {
            nvtxRangePushA("c");
            nvtxRangePop();
        }
    });
    for (long i = 0; i < 1000; i++) // warm-up
        nvtx_probe_kernel<<<1, 32>>>(-1, sink);
    check(cudaDeviceSynchronize(), "warm-up");
    const double plain = best_ns_per(3, iters, [&] {
        for (long i = 0; i < iters; i++)
            nvtx_probe_kernel<<<1, 32>>>(-1, sink);
        check(cudaDeviceSynchronize(), "plain launches");
    });
    const double ranged = best_ns_per(3, iters, [&] {
        for (long i = 0; i < iters; i++) {
            nvtxRangePushA("k");
            nvtx_probe_kernel<<<1, 32>>>(-1, sink);
            nvtxRangePop();
        }
        check(cudaDeviceSynchronize(), "ranged launches");
    });
    printf("COST bare_pair_ns=%.1f launch_ns=%.1f launch_in_range_ns=%.1f per_range_ns=%.1f "
           "iters=%ld bare=%ld\n", bare_pair, plain, ranged, ranged - plain, iters, bare);

    nvtxRangePop(); // app
    check(cudaGraphExecDestroy(exec), "exec destroy");
    check(cudaGraphDestroy(graph), "graph destroy");
    check(cudaStreamDestroy(s), "stream destroy");
    check(cudaFree(sink), "free");
    printf("APP done truth=%d\n", n_truth);
    return 0;
}
