// nvtx_ranges: kernel launches inside NVTX ranges of every kind, for `gpuprof exec --nvtx`
// (tests/gpu/test_nvtx.py): each launch's range path must be the one this program prints.
//
//   nvtx_ranges            (no arguments)
//
// One tiny kernel per case, each named for it (the test finds its launches by name), on
// device 0, one block of 32 threads adding 1 to a buffer:
//   rangeNone      no range open
//   rangeNested    inside push "outer", push "inner"
//   rangeWorker    on a second thread, inside its own push "worker", while the main thread
//                  holds "outer" (push/pop ranges are per thread)
//   rangeStarted   inside start/end "phase" (started on the main thread) and push "outer";
//                  a second thread then ends "phase"
//   rangeAfterEnd  inside push "outer" after that end
//   rangeDomain    inside push "outer" and, in domain "lib", a range of registered string
//                  "regstr" with category 7 named "cat"
//   rangeGraph     a graph captured outside any range, launched 2 times inside push "replay"
//                  (a graph launch's kernels get the ranges open at the launch)
//   rangeCaptured  a second kernel of that graph, captured inside push "layer": its path is
//                  the launch's, then its capture's, "replay/layer"
// Before the launches it prints, for each kernel, `expect KERNEL PATH` (PATH "-" for none),
// the path gpuprof writes (start/end ranges first, then the thread's push/pop ranges, a
// domain's as DOMAIN@label, a category as "label [name]"); then `nvtx_ranges: ok`, exit 0 (1
// on a wrong result, 2 on a CUDA error).
#include "check.h"

#include <nvtx3/nvToolsExt.h>
#include <pthread.h>

__global__ void rangeNone(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeNested(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeWorker(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeStarted(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeAfterEnd(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeDomain(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeGraph(int *x) { x[threadIdx.x] += 1; }
__global__ void rangeCaptured(int *x) { x[threadIdx.x] += 1; }

static int *buffer;

static void *worker(void *)
{
    nvtxRangePushA("worker");
    LAUNCH(rangeWorker<<<1, 32>>>(buffer));
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    return NULL;
}

static void *ender(void *id)
{
    nvtxRangeEnd(*(nvtxRangeId_t *)id);
    return NULL;
}

static void join(void *(*run)(void *), void *arg)
{
    pthread_t t;
    if (pthread_create(&t, NULL, run, arg) != 0 || pthread_join(t, NULL) != 0) {
        fprintf(stderr, "nvtx_ranges: a thread did not run\n");
        exit(2);
    }
}

static void domain_case(void)
{
    nvtxDomainHandle_t lib = nvtxDomainCreateA("lib");
    nvtxDomainNameCategoryA(lib, 7, "cat");
    nvtxEventAttributes_t a = {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.category = 7;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = nvtxDomainRegisterStringA(lib, "regstr");
    nvtxDomainRangePushEx(lib, &a);
    LAUNCH(rangeDomain<<<1, 32>>>(buffer));
    nvtxDomainRangePop(lib);
}

static void graph_case(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t g;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    LAUNCH(rangeGraph<<<1, 32, 0, s>>>(buffer));
    nvtxRangePushA("layer");
    LAUNCH(rangeCaptured<<<1, 32, 0, s>>>(buffer));
    nvtxRangePop();
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    nvtxRangePushA("replay");
    for (int i = 0; i < 2; i++)
        CHECK(cudaGraphLaunch(exec, s));
    nvtxRangePop();
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        usage_error("nvtx_ranges (no arguments)");
    printf("expect rangeNone -\n"
           "expect rangeNested outer/inner\n"
           "expect rangeWorker worker\n"
           "expect rangeStarted phase/outer\n"
           "expect rangeAfterEnd outer\n"
           "expect rangeDomain outer/lib@regstr [cat]\n"
           "expect rangeGraph replay\n"
           "expect rangeCaptured replay/layer\n");
    fflush(stdout);
    CHECK(cudaMalloc(&buffer, 32 * sizeof(int)));
    CHECK(cudaMemset(buffer, 0, 32 * sizeof(int)));
    LAUNCH(rangeNone<<<1, 32>>>(buffer));
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    LAUNCH(rangeNested<<<1, 32>>>(buffer));
    nvtxRangePop();
    join(worker, NULL);
    nvtxRangeId_t phase = nvtxRangeStartA("phase");
    LAUNCH(rangeStarted<<<1, 32>>>(buffer));
    join(ender, &phase);
    LAUNCH(rangeAfterEnd<<<1, 32>>>(buffer));
    domain_case();
    nvtxRangePop();
    graph_case();
    int h[32];
    CHECK(cudaMemcpy(h, buffer, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(buffer));
    for (int i = 0; i < 32; i++)
        if (h[i] != 10) {
            fprintf(stderr, "nvtx_ranges: wrong result: %d at %d, 10 expected\n", h[i], i);
            return 1;
        }
    printf("nvtx_ranges: ok\n");
    return 0;
}
