// jit_variants: one kernel name, two codes, as JIT compilers make them (Triton's autotuned
// configurations, NVRTC, CuPy): what `gpuprof exec` must tell apart by the code a launch ran,
// not by its name and shape (issue 44).
//
//   jit_variants [LAUNCHES] [LOOPS]      (defaults 4 and 300; 1 to 1000 each)
//
// Compiles two modules at run time with NVRTC for the device's architecture, each with an
// `extern "C"` kernel `jitScale(float *out, const float *in, unsigned n)` of the same name and
// launch shape (grid 4096, block 256, no dynamic shared memory, n = 2^20) and different code:
//   module A: out[i] = 2 in[i]                     (one global load per thread)
//   module B: out[i] = in[i] + in[n - 1 - i]       (two global loads per thread)
// It loads both with cuModuleLoadData and launches A's LAUNCHES times, then B's LAUNCHES times,
// then unloads A, loads the same cubin again and launches it LAUNCHES more times (one code
// across an unload and reload). Module A also holds `jitLoop(out, in, n, iters)`, out[i] = the
// sum of in[(i + 4096 k) % n] for k < iters, whose work depends on an argument: it is launched
// LOOPS times with iters = 1 + (launch % 3), one code and shape whose instruction counts
// differ from launch to launch (under exec --replay=auto its first launch and its 257th, the
// first of its second round, collect them: iters 1 and 2). Every result is checked on the host.
//
// What the tests assert: jitScale ran as two variants, A with 2 LAUNCHES launches and B with
// LAUNCHES, their counters each equal to ncu's for their own launches (A 1, B 2 global load
// requests per warp); jitLoop's instruction counts noted as varying, with their range;
// `jit_variants: ok`, exit 0 (2 on a usage, NVRTC or CUDA error).
#include "check.h"

#include <cuda.h>
#include <nvrtc.h>

#define USAGE "jit_variants [LAUNCHES] [LOOPS]   (1 to 1000 each; defaults 4 and 300)"
#define N (1u << 20)
#define BLOCK 256u

// A driver API or NVRTC call that must succeed: else `app: <call> failed: <error>`, exit 2.
#define CHECK_CU(call)                                                                   \
    do {                                                                                 \
        CUresult err_ = (call);                                                          \
        if (err_ != CUDA_SUCCESS) {                                                      \
            const char *s_ = "unknown";                                                  \
            cuGetErrorString(err_, &s_);                                                 \
            fprintf(stderr, "app: %s failed: %s\n", #call, s_);                          \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)
#define CHECK_RTC(call)                                                                  \
    do {                                                                                 \
        nvrtcResult err_ = (call);                                                       \
        if (err_ != NVRTC_SUCCESS) {                                                     \
            fprintf(stderr, "app: %s failed: %s\n", #call, nvrtcGetErrorString(err_));   \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

static const char *const source_a =
    "extern \"C\" __global__ void jitScale(float *out, const float *in, unsigned n)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = 2.0f * in[i];\n"
    "}\n"
    "extern \"C\" __global__ void jitLoop(float *out, const float *in, unsigned n,\n"
    "                                   unsigned iters)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float sum = 0.0f;\n"
    "    for (unsigned k = 0; k < iters; k++) sum += in[(i + 4096u * k) % n];\n"
    "    out[i] = sum;\n"
    "}\n";

static const char *const source_b =
    "extern \"C\" __global__ void jitScale(float *out, const float *in, unsigned n)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = in[i] + in[n - 1 - i];\n"
    "}\n";

typedef struct {
    char *cubin;
    size_t size;
} cubin_image;

// The source compiled by NVRTC into a cubin for the current device.
static cubin_image compile(const char *source, const char *name)
{
    int major = 0, minor = 0, device = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%d%d", major, minor);
    const char *options[] = {arch, "-lineinfo"};
    nvrtcProgram prog;
    CHECK_RTC(nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL));
    if (nvrtcCompileProgram(prog, 2, options) != NVRTC_SUCCESS) {
        size_t len = 0;
        nvrtcGetProgramLogSize(prog, &len);
        char *log = (char *)host_alloc(len + 1, "jit_variants");
        nvrtcGetProgramLog(prog, log);
        fprintf(stderr, "app: NVRTC could not compile %s for %s:\n%s\n", name, arch, log);
        exit(2);
    }
    cubin_image c;
    CHECK_RTC(nvrtcGetCUBINSize(prog, &c.size));
    c.cubin = (char *)host_alloc(c.size, "jit_variants");
    CHECK_RTC(nvrtcGetCUBIN(prog, c.cubin));
    CHECK_RTC(nvrtcDestroyProgram(&prog));
    return c;
}

// One launch of f(out, in, n[, iters]) at the shape every launch here shares; iters 0: the
// three-argument jitScale.
static void launch(CUfunction f, CUdeviceptr out, CUdeviceptr in, unsigned iters)
{
    unsigned n = N;
    void *args3[] = {&out, &in, &n};
    void *args4[] = {&out, &in, &n, &iters};
    CHECK_CU(cuLaunchKernel(f, N / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, iters ? args4 : args3,
                            NULL));
}

// 0 when out[i] = expected(i) for every i, else 1 after `jit_variants: wrong result: ...`.
static int check_scale(const char *stage, const float *out, const float *in, int two_loads)
{
    for (unsigned i = 0; i < N; i++) {
        const float want = two_loads ? in[i] + in[N - 1 - i] : 2.0f * in[i];
        if (out[i] != want) {
            fprintf(stderr, "jit_variants: wrong result: %s out[%u] = %g, expected %g\n", stage,
                    i, out[i], want);
            return 1;
        }
    }
    return 0;
}

static int check_loop(const float *out, const float *in, unsigned iters)
{
    for (unsigned i = 0; i < N; i++) {
        float want = 0.0f;
        for (unsigned k = 0; k < iters; k++)
            want += in[(i + 4096u * k) % N];
        if (out[i] != want) {
            fprintf(stderr, "jit_variants: wrong result: jitLoop(iters %u) out[%u] = %g, "
                    "expected %g\n", iters, i, out[i], want);
            return 1;
        }
    }
    return 0;
}

// `launches` launches of module `m`'s jitScale, the output then checked.
static int run_scale(CUmodule m, const char *stage, long launches, CUdeviceptr out,
                     CUdeviceptr in, float *h_out, const float *h_in, int two_loads)
{
    CUfunction f;
    CHECK_CU(cuModuleGetFunction(&f, m, "jitScale"));
    CHECK(cudaMemset((void *)out, 0, N * sizeof(float)));
    for (long l = 0; l < launches; l++)
        launch(f, out, in, 0);
    CHECK(cudaMemcpy(h_out, (void *)out, N * sizeof(float), cudaMemcpyDeviceToHost));
    return check_scale(stage, h_out, h_in, two_loads);
}

int main(int argc, char **argv)
{
    at_most_arguments(argc, 2, USAGE);
    const long launches = decimal_argument(argc, argv, 1, 4, 1, 1000, USAGE);
    const long loops = decimal_argument(argc, argv, 2, 300, 1, 1000, USAGE);
    CHECK(cudaFree(0)); // the primary context, current for the driver API calls below
    const cubin_image a = compile(source_a, "jit_a.cu"), b = compile(source_b, "jit_b.cu");

    float *h_in = (float *)host_alloc(N * sizeof(float), "jit_variants");
    float *h_out = (float *)host_alloc(N * sizeof(float), "jit_variants");
    for (unsigned i = 0; i < N; i++)
        h_in[i] = (float)(i % 97);
    CUdeviceptr in, out;
    CHECK(cudaMalloc((void **)&in, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, N * sizeof(float)));
    CHECK(cudaMemcpy((void *)in, h_in, N * sizeof(float), cudaMemcpyHostToDevice));

    CUmodule mod_a, mod_b;
    CHECK_CU(cuModuleLoadData(&mod_a, a.cubin));
    CHECK_CU(cuModuleLoadData(&mod_b, b.cubin));
    int bad = run_scale(mod_a, "module A", launches, out, in, h_out, h_in, 0);
    bad = bad || run_scale(mod_b, "module B", launches, out, in, h_out, h_in, 1);
    CHECK_CU(cuModuleUnload(mod_a));
    CHECK_CU(cuModuleLoadData(&mod_a, a.cubin));
    bad = bad || run_scale(mod_a, "module A reloaded", launches, out, in, h_out, h_in, 0);

    CUfunction loop;
    CHECK_CU(cuModuleGetFunction(&loop, mod_a, "jitLoop"));
    for (long l = 0; l < loops && !bad; l++) {
        const unsigned iters = 1 + (unsigned)(l % 3);
        launch(loop, out, in, iters);
        if (l + 1 == loops || l < 3) { // each iteration count once, and the last
            CHECK(cudaMemcpy(h_out, (void *)out, N * sizeof(float), cudaMemcpyDeviceToHost));
            bad = check_loop(h_out, h_in, iters);
        }
    }
    CHECK_CU(cuModuleUnload(mod_a));
    CHECK_CU(cuModuleUnload(mod_b));
    CHECK(cudaFree((void *)in));
    CHECK(cudaFree((void *)out));
    free(a.cubin);
    free(b.cubin);
    free(h_in);
    free(h_out);
    return run_status(bad, "jit_variants");
}
