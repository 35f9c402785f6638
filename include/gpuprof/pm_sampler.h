/* DRAM traffic over time through CUPTI's PM sampling (cupti_pmsampling.h, CUDA 13): one
 * device's dram__bytes_read.sum and dram__bytes_write.sum, one sample per interval of GPU
 * time, in windows (start .. stop). exec's CUDA-graph profiling samples each graph launch it
 * profiles and apportions the samples to the kernel nodes by their activity records (same
 * timebase; docs/replay-notes.md, "PM sampling"). Driven by counters/pm_sampler.c; the call
 * sequence and its traps are in docs/cupti.md, "PM sampling".
 *
 * CUPTI's profiler API: open acquires it through the counters layer's one process-wide
 * count (counters/cupti_call.c), the same count counters/profiler.c's profilers take, and
 * close releases it. So whichever of them opens first initialises it (cuptiProfilerInitialize
 * is called once, never a second time over a profiler's), and cuptiProfilerDeInitialize runs
 * only when the last profiler or sampler of the process closes: closing a sampler never
 * de-initialises what an open profiler uses, nor the reverse. PM sampling and the range
 * profiler do not share a device: on CUDA 13.0 CUPTI answered HARDWARE_BUSY with both
 * enabled (the integrator's runs, commit f9228f0), so exec suspends the range profiler
 * (gp_profiler_suspend) while a sampler is open, and closes the sampler when the range
 * profiler needs the device.
 *
 * Memory, per sample of max_samples:
 * - the hardware buffer CUPTI fills while sampling (cuptiPmSamplingSetConfig's
 *   hardwareBufferSize), allowed GP_PM_SAMPLER_HW_BYTES_PER_SAMPLE (2 KiB) a sample, at least
 *   16 MiB and at most 512 MiB (the probe's, measured on an H100), whole MiB
 *   (gp_pm_sampler_hardware_buffer_bytes). What a record costs there is not documented:
 *   2 KiB is several times the perfmon records two DRAM counters should take, and
 *   tests/gpu/test_pm_sampler.py checks that a window of max_samples samples fills the
 *   counter data before the hardware buffer overflows. Where CUPTI allocates it (pinned host
 *   or device memory) is not documented either.
 * - the counter data image: cuptiPmSamplingGetCounterDataSize for max_samples (host memory);
 * - the samples handed back: sizeof(gp_pm_sample) = 32 bytes.
 * At a 1 µs interval, 100000 samples (100 ms of GPU time) take a 196 MiB hardware buffer.
 *
 * One sampler per device at a time (CUPTI enables PM sampling once per device). Not
 * thread-safe: one thread drives a sampler. Counters layer: never prints, never exits,
 * never links cudart. */
#ifndef GPUPROF_PM_SAMPLER_H
#define GPUPROF_PM_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gp_pm_sampler gp_pm_sampler;

typedef struct {
    uint64_t start_ns, end_ns;        /* the sample's interval (CUPTI's timestamps) */
    double read_bytes, write_bytes;   /* DRAM bytes read and written in it */
} gp_pm_sample;

#define GP_PM_SAMPLER_HW_BYTES_PER_SAMPLE 2048u
#define GP_PM_SAMPLER_HW_MIN_BYTES ((size_t)16 << 20)
#define GP_PM_SAMPLER_HW_MAX_BYTES ((size_t)512 << 20)
/* Counter data images hold at most this many samples (CUPTI's maxSamples is 32-bit). */
#define GP_PM_SAMPLER_MAX_SAMPLES UINT32_MAX

/* PM sampling of DRAM reads and writes on a device (ordinal), one sample per interval_ns of
 * GPU time, room for max_samples per window (start..stop). Nothing held on failure.
 * Refused (GP_ERR_USAGE, before CUPTI is touched): a negative device, interval_ns 0,
 * max_samples 0 or above GP_PM_SAMPLER_MAX_SAMPLES. GP_ERR_RUNTIME: no driver or device,
 * no permission, a device without PM sampling or without the GPU-time trigger (Turing,
 * GA100), PM sampling already enabled on the device. */
int gp_pm_sampler_open(int device, uint64_t interval_ns, size_t max_samples, gp_pm_sampler **out);
/* A window: samples from start to stop. The counter data image is re-initialised, so a
 * sampler takes any number of windows; but CUPTI 13.0 failed some starts of a reused sampler
 * (CUPTI_ERROR_UNKNOWN, the integrator's runs, commit 25c3646): close and open afresh once. */
int gp_pm_sampler_start(gp_pm_sampler *s);
/* Stop and decode: the window's samples (owned by the sampler, valid until the next start or
 * close), and whether samples were lost (hardware buffer or counter data full). A window
 * that lost samples still succeeds, with the samples decoded before the loss (at most
 * max_samples); what the counter data had no room for is decoded and dropped, so that it
 * does not reach the next window. */
int gp_pm_sampler_stop(gp_pm_sampler *s, const gp_pm_sample **samples, size_t *n, bool *lost);
void gp_pm_sampler_close(gp_pm_sampler *s);

/* The hardware buffer a sampler with room for max_samples asks CUPTI for (see above). */
size_t gp_pm_sampler_hardware_buffer_bytes(size_t max_samples);

#endif
