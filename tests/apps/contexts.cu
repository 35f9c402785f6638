// contexts: more CUDA contexts alive at once than gpuprof's injected library keeps (64), each
// running one kernel, for the test that the library says which context it cannot profile
// rather than leaving it out in silence.
//
//   contexts [N]          (default 65; 1 to 128)
//
// On device 0: N contexts created with the driver API (cuCtxCreate), all alive together; in
// each, made current, contextTouch<<<1, 32>>> writes x[i] = 100 c + i to 32 ints of that
// context, which are checked; then every context is destroyed. Prints `contexts: ok (N
// contexts)` on stdout; a context that cannot be created (device memory) is a CUDA error.
// What the tests assert: N launches of contextTouch in N distinct contexts; under gpuprof exec
// with N > 64, a warning names the context the library has no room for, whose launch is timed
// and not profiled, while the first 64 are profiled.
#include "check.h"

#include <cuda.h>

#define USAGE "contexts [N]   (N from 1 to 128, default 65)"

// A driver API call that must succeed, reported as CHECK reports the runtime's.
#define CHECK_DRIVER(call)                                                               \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != CUDA_SUCCESS) {                                                        \
            const char *name_ = NULL;                                                    \
            cuGetErrorName(r_, &name_);                                                  \
            fprintf(stderr, CHECK_PREFIX ": %s failed: %s\n", #call, name_ ? name_ : "?"); \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

__global__ void contextTouch(int *x, int context)
{
    x[threadIdx.x] = 100 * context + (int)threadIdx.x;
}

// The kernel in the current context (context c), its result checked.
static bool touch(int c)
{
    int *x = NULL, h[32];
    CHECK(cudaMalloc(&x, sizeof h));
    LAUNCH(contextTouch<<<1, 32>>>(x, c));
    CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(x));
    for (int i = 0; i < 32; i++)
        if (h[i] != 100 * c + i) {
            fprintf(stderr, "contexts: wrong result in context %d: x[%d] = %d\n", c, i, h[i]);
            return false;
        }
    return true;
}

int main(int argc, char **argv)
{
    at_most_arguments(argc, 1, USAGE);
    const int n = (int)decimal_argument(argc, argv, 1, 65, 1, 128, USAGE);
    CHECK_DRIVER(cuInit(0));
    CUdevice dev;
    CHECK_DRIVER(cuDeviceGet(&dev, 0));
    CUcontext *contexts = (CUcontext *)host_alloc((size_t)n * sizeof *contexts, "contexts");
    bool good = true;
    for (int c = 0; c < n; c++) {
        CHECK_DRIVER(cuCtxCreate(&contexts[c], NULL, 0, dev)); // made current
        good = touch(c) && good;
    }
    for (int c = n - 1; c >= 0; c--)
        CHECK_DRIVER(cuCtxDestroy(contexts[c]));
    free(contexts);
    if (!good)
        return 1;
    printf("contexts: ok (%d contexts)\n", n);
    return 0;
}
