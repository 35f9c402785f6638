// replay_cost: what CUPTI's range profiler costs per profiled launch, the way gpuprof exec
// profiles (auto range, one range per launch), and whether one pass around many launches
// would cost less. bench/bench_replay.py runs it; its findings are in bench/README.md.
//
//   replay_cost LAUNCHES METRICS     (METRICS: default, or a comma-separated list)
//
// A float copy of 2^22 elements (strides 1 and 32, alternating) is launched LAUNCHES times:
//   per-launch  a session per launch (begin, start, launch, stop, decode, read): what exec does;
//   one-pass    one session and one start/stop around all LAUNCHES launches, decoded once.
// Counter sets of one pass use user replay (the launch itself is the pass), others kernel
// replay, as exec chooses. Each mode runs on a fresh profiler after one untimed session (the
// first costs a few hundred milliseconds more, once per process). Prints one line per mode: milliseconds per launch, and the
// largest difference of the instruction-determined counters of one-pass from per-launch.
#include <cuda.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
extern "C" {
#include "gpuprof/collector.h"
#include "gpuprof/status.h"
}

#define N_ELEMENTS (1u << 22)

__global__ void copyStrided(float *out, const float *in, unsigned n, unsigned stride)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const unsigned j = (unsigned)(((unsigned long long)i * stride) % n);
        out[j] = in[j] + 1.0f;
    }
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return GP_OK;
    return gp_fail(GP_ERR_RUNTIME, "%s: %s", what, cudaGetErrorString(e));
}

static float *out_buf, *in_buf;

static int launch(int i)
{
    copyStrided<<<N_ELEMENTS / 256, 256>>>(out_buf, in_buf, N_ELEMENTS, i % 2 ? 32 : 1);
    return cuda_ok(cudaGetLastError(), "copyStrided launch");
}

static bool exact_counter(const char *name)
{
    return strstr(name, "sass") || strstr(name, "inst_executed");
}

typedef struct {
    double ms_per_launch;
    double values[2][GP_MAX_COUNTERS];   /* of the first launch of each stride */
} mode_result;

static int read_range(gp_collector *c, size_t range, mode_result *m)
{
    double v[GP_MAX_COUNTERS];
    GP_TRY(gp_profiler_read(c->profiler, range, v));
    if (range < 2)
        memcpy(m->values[range], v, sizeof v);
    return GP_OK;
}

static int per_launch(gp_collector *c, int launches, mode_result *m)
{
    const double t = seconds();
    for (int i = 0; i < launches; i++) {
        bool last = false;
        size_t ranges = 0;
        GP_TRY(gp_profiler_begin(c->profiler, 1));
        GP_TRY(gp_profiler_start(c->profiler));
        GP_TRY(launch(i));
        GP_TRY(gp_profiler_stop(c->profiler, &last));
        GP_TRY(gp_profiler_end(c->profiler, &ranges));
        if (ranges != 1 || !last)
            return gp_fail(GP_ERR_RUNTIME, "launch %d: %zu ranges", i, ranges);
        double v[GP_MAX_COUNTERS];
        GP_TRY(gp_profiler_read(c->profiler, 0, v));
        if (i < 2)
            memcpy(m->values[i], v, sizeof v);
    }
    m->ms_per_launch = (seconds() - t) / launches * 1e3;
    return GP_OK;
}

static int one_pass(gp_collector *c, int launches, mode_result *m)
{
    const double t = seconds();
    bool last = false;
    size_t ranges = 0;
    GP_TRY(gp_profiler_begin(c->profiler, (size_t)launches));
    GP_TRY(gp_profiler_start(c->profiler));
    for (int i = 0; i < launches; i++)
        GP_TRY(launch(i));
    GP_TRY(gp_profiler_stop(c->profiler, &last));
    GP_TRY(cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"));
    GP_TRY(gp_profiler_end(c->profiler, &ranges));
    if (ranges != (size_t)launches || !last)
        return gp_fail(GP_ERR_RUNTIME, "one pass: %zu ranges of %d", ranges, launches);
    for (size_t r = 0; r < ranges; r++)
        GP_TRY(read_range(c, r, m));
    m->ms_per_launch = (seconds() - t) / launches * 1e3;
    return GP_OK;
}

static double largest_difference(const gp_collector *c, const mode_result *a,
                                 const mode_result *b)
{
    double worst = 0;
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < c->n_counters; k++)
            if (exact_counter(c->counters[k]) && a->values[s][k] != b->values[s][k])
                worst = fmax(worst, fabs(a->values[s][k] - b->values[s][k]) /
                                        fmax(fabs(a->values[s][k]), 1.0));
    return worst;
}

static int parse_metrics(const char *text, gp_metrics_request *req)
{
    memset(req, 0, sizeof *req);
    if (strcmp(text, "default") == 0)
        return GP_OK;
    req->kind = GP_METRICS_LIST;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
        if (req->n_names == GP_MAX_METRIC_NAMES)
            return gp_fail(GP_ERR_USAGE, "too many metrics");
        snprintf(req->names[req->n_names++], GP_METRIC_NAME_LEN, "%s", t);
    }
    return GP_OK;
}

static int warm_up(gp_collector *c)
{
    bool last = false;
    size_t ranges = 0;
    GP_TRY(gp_profiler_begin(c->profiler, 1));
    GP_TRY(gp_profiler_start(c->profiler));
    GP_TRY(launch(0));
    GP_TRY(gp_profiler_stop(c->profiler, &last));
    GP_TRY(cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"));
    return gp_profiler_end(c->profiler, &ranges);
}

/* One mode on a fresh profiler (a range profiler keeps the capacity of its first session,
 * and a context takes one at a time); the profiler is left open in *out for its counters. */
static int run_mode(const gp_metrics_request *req, void *ctx, int launches, bool batched,
                    mode_result *m, gp_collector **out)
{
    gp_collector *c = NULL;
    GP_TRY(gp_collector_open(0, req, &c));
    const gp_replay replay = c->passes == 1 ? GP_REPLAY_USER : GP_REPLAY_KERNEL;
    int rc = gp_collector_attach(c, ctx, replay, batched ? (size_t)launches : 1);
    if (rc == GP_OK)
        rc = warm_up(c);
    if (rc == GP_OK)
        rc = batched ? one_pass(c, launches, m) : per_launch(c, launches, m);
    if (rc == GP_OK && !batched)
        printf("%d pass(es), %zu counters, %s replay\n", c->passes, c->n_counters,
               replay == GP_REPLAY_USER ? "user" : "kernel");
    if (rc != GP_OK) {
        gp_collector_close(c);
        return rc;
    }
    *out = c;
    return GP_OK;
}

static int run(int launches, const char *metrics)
{
    gp_metrics_request req;
    GP_TRY(parse_metrics(metrics, &req));
    GP_TRY(cuda_ok(cudaFree(0), "cudaFree(0)"));
    GP_TRY(cuda_ok(cudaMalloc(&out_buf, N_ELEMENTS * sizeof(float)), "cudaMalloc"));
    GP_TRY(cuda_ok(cudaMalloc(&in_buf, N_ELEMENTS * sizeof(float)), "cudaMalloc"));
    GP_TRY(cuda_ok(cudaMemset(in_buf, 0, N_ELEMENTS * sizeof(float)), "cudaMemset"));
    CUcontext ctx;
    if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
        return gp_fail(GP_ERR_RUNTIME, "cuCtxGetCurrent failed");
    mode_result each, once;
    gp_collector *c = NULL;
    printf("metrics %s, %d launches of a 2^22-float copy: ", metrics, launches);
    GP_TRY(run_mode(&req, ctx, launches, false, &each, &c));
    gp_collector_close(c);
    GP_TRY(run_mode(&req, ctx, launches, true, &once, &c));
    printf("per-launch  %.2f ms per launch\n", each.ms_per_launch);
    printf("one-pass    %.2f ms per launch (instruction counters differ by at most %.4f %%)\n",
           once.ms_per_launch, 100 * largest_difference(c, &each, &once));
    gp_collector_close(c);
    return GP_OK;
}

int main(int argc, char **argv)
{
    const int launches = argc == 3 ? atoi(argv[1]) : 0;
    if (launches < 2 || launches > 1000) {
        fprintf(stderr, "usage: replay_cost LAUNCHES(2..1000) METRICS\n");
        return 2;
    }
    if (run(launches, argv[2]) != GP_OK) {
        fprintf(stderr, "replay_cost: %s\n", gp_error());
        return 1;
    }
    return 0;
}
