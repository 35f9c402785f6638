/* DRAM bytes over time through CUPTI's PM sampling (include/gpuprof/pm_sampler.h). The call
 * sequence is section F of the CUPTI probe behind docs/replay-notes.md, measured on an H100:
 * a counter availability image for PM sampling, a host object of CUPTI_PROFILER_TYPE_PM_SAMPLING
 * and its configuration image, cuptiPmSamplingEnable and SetConfig (GPU-time trigger),
 * a counter data image, then per window Start, Stop, DecodeData and per sample its
 * timestamps and EvaluateToGpuValues. docs/cupti.md, "PM sampling", lists the traps.
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/pm_sampler.h"

#include "counters/cupti_call.h"
#include "counters/pm_decode.h"
#include "gpuprof/checked_calls.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <stdlib.h>
#include <string.h>

static const char *const dram_counters[] = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
#define N_COUNTERS (sizeof dram_counters / sizeof dram_counters[0])

/* Chips whose PM sampling has no GPU-time trigger (cupti_pmsampling.h: Turing and GA100),
 * by the start of their names. */
static const char *const no_time_trigger[] = {"TU", "GA100"};

struct gp_pm_sampler {
    int device;
    bool acquired;             /* holds CUPTI's profiler API (counters/cupti_call.h) */
    uint64_t interval_ns;
    size_t max_samples;
    uint8_t *availability;     /* the device's counters free for PM sampling */
    CUpti_Profiler_Host_Object *host;
    /* CUPTI keeps a pointer to the configuration image past SetConfig (pytorch/kineto#1532
     * saw hangs and crashes when it was freed): it lives as long as the sampling object. */
    uint8_t *config;
    size_t config_size;
    CUpti_PmSampling_Object *sampling;
    uint8_t *counter_data;
    size_t counter_data_size;
    bool running;              /* between start and stop */
    gp_pm_sample *samples;     /* the latest window's, max_samples of room */
};

/* ---- the decision after each decode ------------------------------------------------- */

gp_pm_decode_step gp_pm_decode_next(CUptiResult result, int reason, bool overflow,
                                    bool progressed, bool *lost)
{
    /* KEEP_OLDEST: a full hardware buffer keeps the window's start and drops its end. */
    if (result == CUPTI_ERROR_OUT_OF_MEMORY) {
        *lost = true;
        return GP_PM_DECODED_ALL;
    }
    if (result != CUPTI_SUCCESS)
        return GP_PM_DECODE_FAILED;
    if (overflow)
        *lost = true;
    if (reason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS)
        return GP_PM_DECODED_ALL;
    if (reason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) {
        *lost = true;
        return GP_PM_DECODE_FULL;
    }
    /* OTHER is undocumented; kineto saw it with completed samples (pytorch/kineto#1532).
     * Decoding again appends to the counter data while that makes progress. */
    return progressed ? GP_PM_DECODE_AGAIN : GP_PM_DECODED_ALL;
}

/* ---- sizes ---------------------------------------------------------------------------- */

size_t gp_pm_sampler_hardware_buffer_bytes(size_t max_samples)
{
    const size_t mib = (size_t)1 << 20;
    size_t bytes = GP_PM_SAMPLER_HW_MAX_BYTES;
    if (max_samples < GP_PM_SAMPLER_HW_MAX_BYTES / GP_PM_SAMPLER_HW_BYTES_PER_SAMPLE)
        bytes = max_samples * GP_PM_SAMPLER_HW_BYTES_PER_SAMPLE;
    if (bytes < GP_PM_SAMPLER_HW_MIN_BYTES)
        bytes = GP_PM_SAMPLER_HW_MIN_BYTES;
    return (bytes + mib - 1) / mib * mib;
}

static int check_arguments(int device, uint64_t interval_ns, size_t max_samples)
{
    if (device < 0)
        return gp_fail(GP_ERR_USAGE, "PM sampling: no device %d", device);
    if (interval_ns == 0)
        return gp_fail(GP_ERR_USAGE, "PM sampling: the interval must be at least 1 ns");
    if (max_samples == 0 || max_samples > GP_PM_SAMPLER_MAX_SAMPLES)
        return gp_fail(GP_ERR_USAGE, "PM sampling: room for %zu samples (1 to %u)",
                       max_samples, (unsigned)GP_PM_SAMPLER_MAX_SAMPLES);
    return GP_OK;
}

/* ---- opening: the device, the configuration, the sampling object ---------------------- */

static int check_time_trigger(const char *chip)
{
    for (size_t i = 0; i < sizeof no_time_trigger / sizeof no_time_trigger[0]; i++)
        if (strncmp(chip, no_time_trigger[i], strlen(no_time_trigger[i])) == 0)
            return gp_fail(GP_ERR_RUNTIME, "PM sampling on %s has no GPU-time trigger "
                                           "(Ampere GA10x and later have)", chip);
    return GP_OK;
}

/* Which counters the device has free for PM sampling (asked twice: size, then image). */
static int take_availability(gp_pm_sampler *s)
{
    CUpti_PmSampling_GetCounterAvailability_Params a = {
        .structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
    a.deviceIndex = (size_t)s->device;
    CUPTI(cuptiPmSamplingGetCounterAvailability(&a));
    s->availability = malloc(a.counterAvailabilityImageSize);
    if (!s->availability)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    a.pCounterAvailabilityImage = s->availability;
    CUPTI(cuptiPmSamplingGetCounterAvailability(&a));
    return GP_OK;
}

static int open_host(gp_pm_sampler *s, const char *chip)
{
    CUpti_Profiler_Host_Initialize_Params p = {
        .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = s->availability;
    CUPTI(cuptiProfilerHostInitialize(&p));
    s->host = p.pHostObject;
    return GP_OK;
}

/* PM sampling takes configurations of one pass only (SetConfig refuses others). */
static int build_configuration(gp_pm_sampler *s)
{
    size_t passes = 0;
    GP_TRY(gp_cupti_configure(s->host, dram_counters, N_COUNTERS, &s->config, &s->config_size,
                              &passes));
    if (passes != 1)
        return gp_fail(GP_ERR_RUNTIME, "PM sampling of DRAM bytes takes %zu passes on this "
                                       "device (one is possible)", passes);
    return GP_OK;
}

static int enable_sampling(gp_pm_sampler *s)
{
    CUpti_PmSampling_Enable_Params e = {.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
    e.deviceIndex = (size_t)s->device;
    CUPTI(cuptiPmSamplingEnable(&e));
    s->sampling = e.pPmSamplingObject;
    CUpti_PmSampling_SetConfig_Params c = {
        .structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
    c.pPmSamplingObject = s->sampling;
    c.configSize = s->config_size;
    c.pConfig = s->config;
    c.hardwareBufferSize = gp_pm_sampler_hardware_buffer_bytes(s->max_samples);
    c.samplingInterval = s->interval_ns;
    c.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    c.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    CUPTI(cuptiPmSamplingSetConfig(&c));
    return GP_OK;
}

/* The counter data image and the samples handed back, each for max_samples. */
static int allocate_windows(gp_pm_sampler *s)
{
    CUpti_PmSampling_GetCounterDataSize_Params q = {
        .structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    q.pPmSamplingObject = s->sampling;
    q.pMetricNames = (const char **)dram_counters;
    q.numMetrics = N_COUNTERS;
    q.maxSamples = (uint32_t)s->max_samples;
    CUPTI(cuptiPmSamplingGetCounterDataSize(&q));
    s->counter_data = malloc(q.counterDataSize);
    s->samples = calloc(s->max_samples, sizeof *s->samples);
    if (!s->counter_data || !s->samples)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory for %zu PM samples", s->max_samples);
    s->counter_data_size = q.counterDataSize;
    return GP_OK;
}

static int open_sampler(gp_pm_sampler *s)
{
    GP_TRY(gp_cupti_profiler_acquire());
    s->acquired = true;
    GP_TRY(gp_cupti_device_supported(s->device, CUPTI_PROFILER_PM_SAMPLING, "PM sampling"));
    char chip[32];
    GP_TRY(gp_profiler_device_chip(s->device, chip, sizeof chip));
    GP_TRY(check_time_trigger(chip));
    GP_TRY(take_availability(s));
    GP_TRY(open_host(s, chip));
    GP_TRY(build_configuration(s));
    GP_TRY(enable_sampling(s));
    return allocate_windows(s);
}

int gp_pm_sampler_open(int device, uint64_t interval_ns, size_t max_samples, gp_pm_sampler **out)
{
    *out = NULL;
    GP_TRY(check_arguments(device, interval_ns, max_samples));
    gp_pm_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    s->device = device;
    s->interval_ns = interval_ns;
    s->max_samples = max_samples;
    int rc = open_sampler(s);
    if (rc != GP_OK) {
        gp_pm_sampler_close(s); /* records no error: the first failure's message stays */
        return rc;
    }
    *out = s;
    return GP_OK;
}

/* The sampling object goes before the configuration image it points to. */
void gp_pm_sampler_close(gp_pm_sampler *s)
{
    if (!s)
        return;
    if (s->running) {
        CUpti_PmSampling_Stop_Params p = {.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
        p.pPmSamplingObject = s->sampling;
        GP_CHECKED(cuptiPmSamplingStop(&p), "PM sampling was left running on a device");
    }
    if (s->sampling) {
        CUpti_PmSampling_Disable_Params d = {
            .structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
        d.pPmSamplingObject = s->sampling;
        GP_CHECKED(cuptiPmSamplingDisable(&d), "PM sampling was left enabled on a device");
    }
    gp_cupti_host_close(s->host);
    if (s->acquired)
        gp_cupti_profiler_release();
    free(s->config);
    free(s->availability);
    free(s->counter_data);
    free(s->samples);
    free(s);
}

/* ---- windows -------------------------------------------------------------------------- */

static int initialize_counter_data(gp_pm_sampler *s)
{
    CUpti_PmSampling_CounterDataImage_Initialize_Params p = {
        .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    p.pPmSamplingObject = s->sampling;
    p.counterDataSize = s->counter_data_size;
    p.pCounterData = s->counter_data;
    CUPTI(cuptiPmSamplingCounterDataImageInitialize(&p));
    return GP_OK;
}

int gp_pm_sampler_start(gp_pm_sampler *s)
{
    if (s->running)
        return gp_fail(GP_ERR_RUNTIME, "internal error: a PM sampling window started twice");
    GP_TRY(initialize_counter_data(s));
    CUpti_PmSampling_Start_Params p = {.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE};
    p.pPmSamplingObject = s->sampling;
    CUPTI(cuptiPmSamplingStart(&p));
    s->running = true;
    return GP_OK;
}

static int completed_samples(const gp_pm_sampler *s, size_t *n)
{
    CUpti_PmSampling_GetCounterDataInfo_Params i = {
        .structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
    i.pCounterDataImage = s->counter_data;
    i.counterDataImageSize = s->counter_data_size;
    CUPTI(cuptiPmSamplingGetCounterDataInfo(&i));
    *n = i.numCompletedSamples;
    return GP_OK;
}

/* Decode from the hardware buffer into the counter data until a step other than "again";
 * *n: the samples completed in the counter data. */
static int decode(gp_pm_sampler *s, size_t *n, bool *lost, gp_pm_decode_step *step)
{
    *n = 0;
    do {
        CUpti_PmSampling_DecodeData_Params d = {
            .structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
        d.pPmSamplingObject = s->sampling;
        d.pCounterDataImage = s->counter_data;
        d.counterDataImageSize = s->counter_data_size;
        CUptiResult r = cuptiPmSamplingDecodeData(&d);
        size_t now = *n;
        if (r == CUPTI_SUCCESS || r == CUPTI_ERROR_OUT_OF_MEMORY)
            GP_TRY(completed_samples(s, &now));
        *step = gp_pm_decode_next(r, (int)d.decodeStopReason, d.overflow != 0, now > *n, lost);
        if (*step == GP_PM_DECODE_FAILED)
            return gp_cupti_fail(r, "cuptiPmSamplingDecodeData(&d)", __FILE__, __LINE__);
        *n = now;
    } while (*step == GP_PM_DECODE_AGAIN);
    return GP_OK;
}

/* What the counter data had no room for, decoded and dropped: left in the hardware buffer,
 * it would open the next window. Stops when a decode completes nothing. */
static int drop_the_rest(gp_pm_sampler *s)
{
    bool lost = true;
    gp_pm_decode_step step = GP_PM_DECODE_FULL;
    size_t n = 1;
    while (step == GP_PM_DECODE_FULL && n > 0) {
        GP_TRY(initialize_counter_data(s));
        GP_TRY(decode(s, &n, &lost, &step));
    }
    return GP_OK;
}

static int read_sample(const gp_pm_sampler *s, size_t i, gp_pm_sample *out)
{
    CUpti_PmSampling_CounterData_GetSampleInfo_Params info = {
        .structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
    info.pPmSamplingObject = s->sampling;
    info.pCounterDataImage = s->counter_data;
    info.counterDataImageSize = s->counter_data_size;
    info.sampleIndex = i;
    CUPTI(cuptiPmSamplingCounterDataGetSampleInfo(&info));
    double values[N_COUNTERS];
    GP_TRY(gp_cupti_evaluate(s->host, s->counter_data, s->counter_data_size, i, dram_counters,
                             N_COUNTERS, values));
    *out = (gp_pm_sample){.start_ns = info.startTimestamp, .end_ns = info.endTimestamp,
                          .read_bytes = values[0], .write_bytes = values[1]};
    return GP_OK;
}

int gp_pm_sampler_stop(gp_pm_sampler *s, const gp_pm_sample **samples, size_t *n, bool *lost)
{
    *samples = s->samples;
    *n = 0;
    *lost = false;
    if (!s->running)
        return gp_fail(GP_ERR_RUNTIME, "internal error: a PM sampling window stopped unstarted");
    CUpti_PmSampling_Stop_Params p = {.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
    p.pPmSamplingObject = s->sampling;
    s->running = false;
    CUPTI(cuptiPmSamplingStop(&p));
    size_t completed;
    gp_pm_decode_step step;
    GP_TRY(decode(s, &completed, lost, &step));
    if (completed > s->max_samples)
        completed = s->max_samples;
    for (size_t i = 0; i < completed; i++)
        GP_TRY(read_sample(s, i, &s->samples[i]));
    *n = completed;
    return step == GP_PM_DECODE_FULL ? drop_the_rest(s) : GP_OK;
}
