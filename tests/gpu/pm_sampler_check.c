/* Device-side self-test of the PM sampler (include/gpuprof/pm_sampler.h) on device 0, run by
 * tests/gpu/test_pm_sampler.py, which judges its numbers. Built by the Makefile into
 * build/tests/pm_sampler_check, linked with libgpuprof.a (the counters layer, and
 * kernels/util.cu's gp_flush_l2) and cudart.
 *
 * The known kernel: gp_flush_l2 reads each byte of a 256 MiB buffer once and leaves no line
 * of it in L2, so a launch reads 256 MiB from DRAM (one launch before the first window
 * empties L2 of the memset's lines) and writes nothing.
 *
 * Windows, one line each (key=value):
 *   A1, A2  a sampler at 1 µs with room for 100000 samples, one launch each: two windows of
 *           one sampler, the counter data re-initialised between them;
 *   B1      a sampler at 1 µs with room for 10000 samples (10 ms; a 20 MiB hardware buffer,
 *           past the 16 MiB floor), 300 launches (at least 17 ms at the H200's 4.8 TB/s):
 *           more samples than room, so `lost` (CUPTI 13.0 on an H100 then handed back no
 *           sample at all, and a later start of that sampler failed: exec closes a sampler
 *           after a lost window);
 *   B2      a fresh sampler, one launch: the device samples correctly after a lost window.
 * B's windows wait 200 µs after the work before stopping, so that the samples holding its
 * end are complete. Then a line `reopen=1` when a third sampler opens on the device after the
 * others closed (close released PM sampling on the device).
 * Exit 0 when every call succeeded, 1 on an error (message on stderr), 77 without a GPU. */
#include "gpuprof/kernels.h"
#include "gpuprof/pm_sampler.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <time.h>

#define READ_BYTES ((size_t)256 << 20)

typedef struct {
    const char *name;
    uint64_t interval_ns;
    size_t max_samples;
    int launches;
    long settle_us;  /* wait after the work, before stop */
} window;

static void settle(long us)
{
    struct timespec t = {.tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000};
    nanosleep(&t, NULL);
}

/* Samples in time order, none overlapping the next, none empty. */
static int ordered(const gp_pm_sample *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].end_ns <= s[i].start_ns || (i + 1 < n && s[i].end_ns > s[i + 1].start_ns))
            return 0;
    return 1;
}

static int run_window(gp_pm_sampler *sampler, const window *w, void *buf)
{
    GP_TRY(gp_pm_sampler_start(sampler));
    for (int i = 0; i < w->launches; i++)
        GP_TRY(gp_flush_l2(buf, READ_BYTES));
    GP_CUDA(cudaDeviceSynchronize());
    settle(w->settle_us);
    const gp_pm_sample *s;
    size_t n;
    bool lost;
    GP_TRY(gp_pm_sampler_stop(sampler, &s, &n, &lost));
    double read = 0, write = 0;
    for (size_t i = 0; i < n; i++) {
        read += s[i].read_bytes;
        write += s[i].write_bytes;
    }
    printf("window=%s interval_ns=%llu max_samples=%zu samples=%zu lost=%d ordered=%d "
           "read_bytes=%.0f write_bytes=%.0f expected_read_bytes=%.0f span_ns=%llu\n",
           w->name, (unsigned long long)w->interval_ns, w->max_samples, n, lost,
           ordered(s, n), read, write, (double)READ_BYTES * w->launches,
           n ? (unsigned long long)(s[n - 1].end_ns - s[0].start_ns) : 0ull);
    fflush(stdout);
    return GP_OK;
}

/* The windows of one sampler, opened for the first window's interval and room. */
static int run_sampler(const window *w, size_t n, void *buf)
{
    gp_pm_sampler *sampler;
    GP_TRY(gp_pm_sampler_open(0, w[0].interval_ns, w[0].max_samples, &sampler));
    int rc = GP_OK;
    for (size_t i = 0; i < n && rc == GP_OK; i++)
        rc = run_window(sampler, &w[i], buf);
    gp_pm_sampler_close(sampler);
    return rc;
}

static int reopen(void)
{
    gp_pm_sampler *sampler;
    GP_TRY(gp_pm_sampler_open(0, 1000, 1000, &sampler));
    gp_pm_sampler_close(sampler);
    printf("reopen=1\n");
    return GP_OK;
}

static int check(void *buf)
{
    static const window a[] = {{"A1", 1000, 100000, 1, 0}, {"A2", 1000, 100000, 1, 0}};
    static const window b[] = {{"B1", 1000, 10000, 300, 200}, {"B2", 1000, 10000, 1, 200}};
    GP_CUDA(cudaMemset(buf, 1, READ_BYTES));
    GP_TRY(gp_flush_l2(buf, READ_BYTES));
    GP_CUDA(cudaDeviceSynchronize());
    GP_TRY(run_sampler(a, 2, buf));
    GP_TRY(run_sampler(&b[0], 1, buf));
    GP_TRY(run_sampler(&b[1], 1, buf));
    return reopen();
}

static int run(void)
{
    void *buf = NULL;
    GP_CUDA(cudaSetDevice(0));
    GP_CUDA(cudaMalloc(&buf, READ_BYTES));
    int rc = check(buf);
    cudaFree(buf);
    return rc;
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "pm_sampler_check: no CUDA device\n");
        return 77;
    }
    int rc = run();
    if (rc != GP_OK)
        fprintf(stderr, "pm_sampler_check: %s\n", gp_error());
    return rc == GP_OK ? 0 : 1;
}
