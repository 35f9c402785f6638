// gemm: cuBLAS matrix products, for the tests that exec explains the metrics of kernels
// whose loads go through cp.async or TMA (issue 28): what NVIDIA's matrixMulCUBLAS sample
// runs, and a half-precision product that Hopper's cuBLAS computes with wgmma and TMA.
//
//   gemm                   (no arguments)
//
// 1. cublasSgemm, C = A B with A 640x320, B 320x480 (the sample's sizes), FP32;
// 2. cublasGemmEx, C = A B with A, B, C 2048x2048 in FP16, FP32 accumulation.
// Each result is checked at 64 places against the product on the host (relative error
// below 1e-3 for FP32, 2e-2 for FP16 inputs). `gemm: ok` on stdout, exit 0 (1 on a wrong
// result, 2 on a CUDA or cuBLAS error). Linked with -lcublas (tests/apps/apps.mk).
#define CHECK_PREFIX "gemm"  // failed CUDA calls are reported as gemm's
#include "check.h"
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <math.h>
#include <vector>

#define CHECK_BLAS(call)                                                                 \
    do {                                                                                 \
        cublasStatus_t st_ = (call);                                                     \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                              \
            fprintf(stderr, "gemm: %s failed: status %d\n", #call, (int)st_);           \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

// Column-major, as cuBLAS: element (i, j) of an m-row matrix at i + j m.
static float value_at(unsigned seed, size_t i)
{
    return (float)((i * 2654435761u + seed) % 17) / 16.0f - 0.5f;
}

static bool close_enough(double want, double got, double tolerance)
{
    return fabs(want - got) <= tolerance * fmax(1.0, fabs(want));
}

// C = A B at 64 places, A m x k, B k x n.
template <typename T>
static bool check_product(const std::vector<T> &a, const std::vector<T> &b,
                          const std::vector<T> &c, int m, int n, int k, double tolerance)
{
    for (int s = 0; s < 64; s++) {
        const int i = (s * 97) % m, j = (s * 131) % n;
        double want = 0;
        for (int p = 0; p < k; p++)
            want += (double)(float)a[i + (size_t)p * m] * (double)(float)b[p + (size_t)j * k];
        const double got = (double)(float)c[i + (size_t)j * m];
        if (!close_enough(want, got, tolerance)) {
            fprintf(stderr, "gemm: C(%d, %d) = %g, expected %g\n", i, j, got, want);
            return false;
        }
    }
    return true;
}

template <typename T>
static T *to_device(const std::vector<T> &host)
{
    T *d = nullptr;
    CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static bool sgemm(cublasHandle_t h)
{
    const int m = 640, n = 480, k = 320;
    std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n);
    for (size_t i = 0; i < a.size(); i++) a[i] = value_at(1, i);
    for (size_t i = 0; i < b.size(); i++) b[i] = value_at(2, i);
    float *da = to_device(a), *db = to_device(b), *dc = to_device(c);
    const float one = 1.0f, zero = 0.0f;
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, m, db, k, &zero,
                           dc, m));
    CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    return check_product(a, b, c, m, n, k, 1e-3);
}

static bool hgemm(cublasHandle_t h)
{
    const int m = 2048, n = 2048, k = 2048;
    std::vector<__half> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n);
    for (size_t i = 0; i < a.size(); i++) a[i] = __float2half(value_at(3, i));
    for (size_t i = 0; i < b.size(); i++) b[i] = __float2half(value_at(4, i));
    __half *da = to_device(a), *db = to_device(b), *dc = to_device(c);
    const float one = 1.0f, zero = 0.0f;
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, CUDA_R_16F, m, db,
                            CUDA_R_16F, k, &zero, dc, CUDA_R_16F, m, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
    CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(__half), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    return check_product(a, b, c, m, n, k, 2e-2);
}

int main()
{
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    const bool ok = sgemm(h) && hgemm(h);
    CHECK_BLAS(cublasDestroy(h));
    CHECK(cudaDeviceSynchronize());
    return run_status(!ok, "gemm");
}
