/* DRAM traffic of the program's own graph launches, sampled with CUPTI's PM sampling (one
 * sample per GP_SAMPLE_INTERVAL_NS of GPU time, counters/pm_sampler.c), a window per graph
 * launch: a `sampled` record and its `P` lines (gpuprof/record_format.h); gpuprof apportions the samples
 * to the graph's kernel nodes by their activity records. CUPTI refuses PM sampling beside an
 * enabled range profiler (CUPTI_ERROR_HARDWARE_BUSY, H100, CUDA 13.0): the two take turns on
 * a device, the caller suspending the range profilers before a window and sessions.c
 * releasing the sampler before a session. A device the table has no room for is said in a
 * warning record: its graph launches are not sampled. */
#ifndef GPUPROF_INJECT_SAMPLING_H
#define GPUPROF_INJECT_SAMPLING_H

#include "inject/inject.h"

#include <stdbool.h>
#include <stdint.h>

/* 1 µs: read within 1 % for kernels of 5 µs or more on the H100 (docs/replay-notes.md). */
#define GP_SAMPLE_INTERVAL_NS 1000u
/* Samples a window holds: 32.8 ms of graph at 1 µs. */
#define GP_SAMPLES_PER_WINDOW 32768u

/* Begin a window on the device for the graph launch `launch_id` of context `context`, the
 * device's range profilers suspended by the caller; false (said once in a warning) when
 * PM sampling is not possible here. */
bool gp_sampling_begin(uint32_t device, uint32_t context, uint32_t launch_id);
/* End the device's window, the graph launch finished (`ran`: it succeeded): its records. */
void gp_sampling_end(uint32_t device, bool ran);
/* Free the device's performance monitors for the range profiler. */
void gp_sampling_release(uint32_t device);

#endif
