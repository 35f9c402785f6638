// rotation_probe: the profiler's configurations switched between sessions on one context,
// as exec's rotation does: each one-pass group of the default set in user replay around a
// window of launches, then the whole set in kernel replay for one launch, twice over.
// Prints each session's cost and how many of its counters came back empty, and the largest
// difference of the SASS counters (0 expected) and of the DRAM bytes between the groups'
// launches and the kernel-replayed one. Its findings are in bench/README.md ("Rotation").
//
//   rotation_probe [WINDOW] [MiB]     (defaults 32 launches, 256 MiB copied per launch)
//
// Environment: ORDER=0101 the groups' sessions in that order; NO_KERNEL=1 no kernel-replay
// session; KERNEL_FIRST=1 one before the groups'; STEPS=1 the time of each call of a
// session; TWO_OBJECTS=1 only whether a context takes a second range profiler.
#include <cuda.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#include <cupti_range_profiler.h>
#include <cupti_profiler_target.h>
extern "C" {
#include "gpuprof/collector.h"
#include "gpuprof/status.h"
}

__global__ void copy(float *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i] + 1.0f;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CUDA(call)                                                                           \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess)                                                               \
            return gp_fail(GP_ERR_RUNTIME, "%s: %s", #call, cudaGetErrorString(e_));        \
    } while (0)

static float *in_buf, *out_buf;
static size_t n_elements;

static int launch(void)
{
    copy<<<1024, 256>>>(out_buf, in_buf, n_elements);
    CUDA(cudaGetLastError());
    return GP_OK;
}

/* One session of `config`, `launches` launches; the counters of each range into values
 * (scattered into the collector's order, NAN where the configuration has none). */
static int session(gp_collector *c, size_t config, const gp_counter_group *g, gp_replay replay,
                   int launches, double values[][GP_MAX_COUNTERS], double *ms)
{
    gp_profiler *p = c->profiler;
    const double t0 = seconds();
    GP_TRY(gp_profiler_begin_with(p, config, replay, (size_t)launches));
    const double t1 = seconds();
    GP_TRY(gp_profiler_start(p));
    const double t2 = seconds();
    for (int i = 0; i < launches; i++)
        GP_TRY(launch());
    const double t3 = seconds();
    bool last = false;
    GP_TRY(gp_profiler_stop(p, &last));
    CUDA(cudaDeviceSynchronize());
    const double t4 = seconds();
    size_t ranges = 0;
    GP_TRY(gp_profiler_end(p, &ranges));
    *ms = (seconds() - t0) * 1e3;
    if (getenv("STEPS"))
        printf("   begin %.1f start %.1f launches %.1f stop+sync %.1f end %.1f ms\n",
               (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3,
               (seconds() - t4) * 1e3);
    if (ranges != (size_t)launches || !last)
        return gp_fail(GP_ERR_RUNTIME, "config %zu: %zu ranges for %d launches, last %d",
                       config, ranges, launches, (int)last);
    for (int r = 0; r < launches; r++) {
        double v[GP_MAX_COUNTERS];
        GP_TRY(gp_profiler_read(p, (size_t)r, v));
        for (size_t i = 0; i < c->n_counters; i++)
            values[r][i] = g ? NAN : v[i];
        for (size_t k = 0; g && k < g->n_counters; k++)
            values[r][g->counters[k]] = v[k];
    }
    return GP_OK;
}

static bool exact_counter(const char *name)
{
    return strstr(name, "sass") != NULL;
}

static void compare(const gp_collector *c, const double *rotated, const double *whole,
                    double *exact_diff, double *dram_diff)
{
    for (size_t i = 0; i < c->n_counters; i++) {
        if (isnan(rotated[i]) || isnan(whole[i]))
            continue;
        const double d = whole[i] ? fabs(rotated[i] - whole[i]) / fabs(whole[i])
                                  : fabs(rotated[i]);
        if (exact_counter(c->counters[i]))
            *exact_diff = fmax(*exact_diff, d);
        else if (strstr(c->counters[i], "dram__bytes_"))
            *dram_diff = fmax(*dram_diff, d);
    }
}

static int run(int window, size_t mib)
{
    n_elements = mib * (1u << 20) / sizeof(float);
    CUDA(cudaSetDevice(0));
    CUDA(cudaFree(0));
    CUDA(cudaMalloc(&in_buf, n_elements * sizeof(float)));
    CUDA(cudaMalloc(&out_buf, n_elements * sizeof(float)));
    CUDA(cudaMemset(in_buf, 0, n_elements * sizeof(float)));
    CUcontext ctx;
    if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
        return gp_fail(GP_ERR_RUNTIME, "cuCtxGetCurrent failed");
    gp_metrics_request req;
    memset(&req, 0, sizeof req);
    req.kind = GP_METRICS_DEFAULT;
    gp_collector *c = NULL;
    GP_TRY(gp_collector_open(0, &req, &c));
    printf("collector open: %zu counters\n", c->n_counters);
    double t0 = seconds();
    int rc = gp_collector_split(c);
    printf("split: %zu groups in %.1f ms (%d passes together)\n", c->n_groups,
           (seconds() - t0) * 1e3, c->passes);
    if (rc == GP_OK)
        rc = gp_collector_attach(c, ctx, GP_REPLAY_USER, (size_t)window);
    printf("attached: %d\n", rc);
    static double rot[GP_MAX_GROUPS][64][GP_MAX_COUNTERS], whole[1][GP_MAX_COUNTERS];
    double ms = 0, exact = 0, dram = 0;
    if (rc == GP_OK && getenv("KERNEL_FIRST")) {
        rc = session(c, 0, NULL, GP_REPLAY_KERNEL, 1, whole, &ms);
        printf("kernel replay first: rc %d, %.1f ms\n", rc, ms);
    }
    for (int round = 0; rc == GP_OK && round < 2; round++) {
        const char *order = getenv("ORDER");
        for (size_t o = 0; rc == GP_OK && o < (order ? strlen(order) : c->n_groups); o++) {
            const size_t g = order ? (size_t)(order[o] - '0') : o;
            rc = session(c, c->groups[g].config, &c->groups[g], GP_REPLAY_USER, window, rot[g], &ms);
            size_t nans = 0;
            for (size_t k = 0; k < c->groups[g].n_counters; k++)
                nans += isnan(rot[g][0][c->groups[g].counters[k]]);
            if (rc == GP_OK)
                printf("round %d group %zu: %d launches in %.1f ms (%.2f ms per launch), %zu of %zu counters NaN\n",
                       round, g, window, ms, ms / window, nans, c->groups[g].n_counters);
        }
        if (getenv("NO_KERNEL"))
            continue;
        printf("round %d whole set, kernel replay: starting\n", round);
        if (rc == GP_OK)
            rc = session(c, 0, NULL, GP_REPLAY_KERNEL, 1, whole, &ms);
        if (rc == GP_OK)
            printf("round %d whole set, kernel replay: 1 launch in %.1f ms\n", round, ms);
        for (size_t g = 0; rc == GP_OK && g < c->n_groups; g++)
            for (int r = 0; r < window; r++)
                compare(c, rot[g][r], whole[0], &exact, &dram);
    }
    for (size_t i = 0; rc == GP_OK && i < c->n_counters; i++) {
        double v = NAN;
        for (size_t g = 0; g < c->n_groups && isnan(v); g++)
            v = rot[g][window - 1][i];
        printf("  %-62s rotated %16.1f  whole %16.1f\n", c->counters[i], v, whole[0][i]);
    }
    if (rc == GP_OK)
        printf("largest difference, rotated against the whole set: SASS %.6f, DRAM bytes %.4f\n",
               exact, dram);
    gp_collector_close(c);
    return rc;
}

static void on_segv(int sig)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Can a context hold two range profilers at once? */
static void two_objects(void)
{
    cudaSetDevice(0);
    cudaFree(0);
    CUcontext ctx;
    cuCtxGetCurrent(&ctx);
    CUpti_Profiler_Initialize_Params init;
    memset(&init, 0, sizeof init);
    init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    printf("initialize: %d\n", (int)cuptiProfilerInitialize(&init));
    CUpti_RangeProfiler_Enable_Params a, b;
    memset(&a, 0, sizeof a);
    a.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    a.ctx = ctx;
    printf("enable A: %d\n", (int)cuptiRangeProfilerEnable(&a));
    b = a;
    printf("enable B: %d (same object: %d)\n", (int)cuptiRangeProfilerEnable(&b),
           a.pRangeProfilerObject == b.pRangeProfilerObject);
}

int main(int argc, char **argv)
{
    if (getenv("TWO_OBJECTS")) {
        two_objects();
        return 0;
    }
    signal(SIGSEGV, on_segv);
    setvbuf(stdout, NULL, _IONBF, 0);
    const int window = argc > 1 ? atoi(argv[1]) : 32;
    const size_t mib = argc > 2 ? (size_t)atoi(argv[2]) : 256;
    if (window < 1 || window > 64 || mib < 1) {
        fprintf(stderr, "usage: rotation_probe [WINDOW 1..64] [MiB]\n");
        return 2;
    }
    if (run(window, mib) != GP_OK) {
        fprintf(stderr, "rotation_probe: %s\n", gp_error());
        return 1;
    }
    return 0;
}
