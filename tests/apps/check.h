// check.h: what every CUDA program of tests/apps shares, with the exit statuses of
// tests/apps/README.md: the check of each CUDA call and launch (2 on an error), the usage error
// (2), host memory (2 when there is none), the decimal and 2^K arguments, and the end of a run
// (1 after a wrong result, else `PROGRAM: ok`). The graph programs add graph_apps.h.
#ifndef APPS_CHECK_H
#define APPS_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The name a failed CUDA call is reported under: `app`, unless the program defines its own
// before including this header.
#ifndef CHECK_PREFIX
#define CHECK_PREFIX "app"
#endif

// A CUDA runtime call that must succeed: else `app: <call> failed: <error>` on stderr (the
// call as written), exit 2.
#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, CHECK_PREFIX ": %s failed: %s\n", #call,                     \
                    cudaGetErrorString(err_));                                           \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

// A kernel launch, then the check of its own error (a launch that could not start):
// LAUNCH(kernel<<<grid, block>>>(args)).
#define LAUNCH(...)                                                                      \
    do {                                                                                 \
        __VA_ARGS__;                                                                     \
        CHECK(cudaGetLastError());                                                       \
    } while (0)

// A usage error: `usage: <text>` on stderr, exit 2.
static inline void usage_error(const char *text)
{
    fprintf(stderr, "usage: %s\n", text);
    exit(2);
}

// A usage error when the program has more than `most` arguments.
static inline void at_most_arguments(int argc, int most, const char *usage)
{
    if (argc - 1 > most)
        usage_error(usage);
}

// argv[i], a decimal number from lo to hi; `fallback` when the program has fewer arguments, a
// usage error when it is not a number in range.
static inline long decimal_argument(int argc, char **argv, int i, long fallback, long lo,
                                    long hi, const char *usage)
{
    if (argc <= i)
        return fallback;
    char *end;
    const long v = strtol(argv[i], &end, 10);
    if (*end || end == argv[i] || v < lo || v > hi)
        usage_error(usage);
    return v;
}

// A count written "4096" or "2^12" (K up to 40); 0 when malformed.
static inline unsigned long long parse_count(const char *s)
{
    char *end;
    if (strncmp(s, "2^", 2) == 0) {
        const unsigned long k = strtoul(s + 2, &end, 10);
        return *end || k > 40 ? 0 : 1ull << k;
    }
    const unsigned long long v = strtoull(s, &end, 10);
    return *end ? 0 : v;
}

// malloc that exits 2 with `program: out of host memory` when the host has no memory left.
static inline void *host_alloc(size_t bytes, const char *program)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "%s: out of host memory\n", program);
        exit(2);
    }
    return p;
}

// main's status at the end of a run: 1 after a wrong result (already said on stderr), else
// `program: ok` on stdout and 0.
static inline int run_status(int bad, const char *program)
{
    if (bad)
        return 1;
    printf("%s: ok\n", program);
    return 0;
}

// A kernel of the memory-path programs (cpasync, tma) that computes out[i] = a in[i] + b, one
// tile of floats per block.
struct affine_kernel {
    const char *name;
    void (*kernel)(float *, const float *);
    float a, b;  // out = a in + b
};

// 0 when out = a in + b for the n floats, else 1 after `program: wrong result: ...`.
static inline int check_affine(const char *program, const char *kernel, const float *out,
                               const float *in, unsigned n, float a, float b)
{
    for (unsigned i = 0; i < n; i++)
        if (out[i] != a * in[i] + b) {
            fprintf(stderr, "%s: wrong result: %s out[%u] = %g, expected %g\n", program, kernel,
                    i, out[i], a * in[i] + b);
            return 1;
        }
    return 0;
}

// The memory-path programs' run: n floats of small integers in (so that a in + b is exact),
// then each kernel in turn, <<<grid, block>>>, on a zeroed output, checked on the host, until
// one is wrong; 0 when all are right.
static inline int run_affine_kernels(const char *program, const struct affine_kernel *kernels,
                                     unsigned count, unsigned n, unsigned grid, unsigned block)
{
    const size_t bytes = (size_t)n * sizeof(float);
    float *h_in = (float *)host_alloc(bytes, program);
    float *h_out = (float *)host_alloc(bytes, program);
    for (unsigned i = 0; i < n; i++)
        h_in[i] = (float)((i * 2654435761u) >> 12);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    int bad = 0;
    for (unsigned k = 0; k < count && !bad; k++) {
        CHECK(cudaMemset(d_out, 0, bytes));
        LAUNCH(kernels[k].kernel<<<grid, block>>>(d_out, d_in));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
        bad = check_affine(program, kernels[k].name, h_out, h_in, n, kernels[k].a,
                           kernels[k].b);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return bad;
}

#endif
