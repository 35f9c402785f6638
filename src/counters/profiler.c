/* Hardware counters per range through CUPTI's Range Profiler + Profiler Host API (CUDA 13).
 * The one file that drives the range profiler; it knows counters, contexts, passes and
 * ranges, and nothing of what the ranges measure. Counters layer: never prints, never exits,
 * never links cudart (it is linked into the library exec injects too).
 *
 * Ranges: auto range, one range per kernel launch in launch order. Configurations: sets of
 * counters collected together, each with its own image and counter data, any of them chosen
 * for a session (exec rotates one-pass configurations over a kernel's launches). Replay: the
 * caller's (user replay: it reruns its work once per pass, so it controls what each kernel
 * finds in memory and in L2) or CUPTI's (kernel replay: CUPTI saves and restores device
 * memory around each pass of each kernel, for programs whose kernels gpuprof does not launch
 * itself).
 *
 * No PC sampling beside it: on an H200, with both on one context either start call failed
 * (CUPTI_ERROR_INVALID_PARAMETER), and with the range profiler suspended around a PC-sampling
 * window every sample came back non-user, without a PC (bench/README.md, "PC sampling beside
 * the other collectors"). Stall sampling needs a context where this profiler never ran. */
#include "gpuprof/profiler.h"

#include "gpuprof/status.h"
#include "counters/cupti_call.h"

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One configuration: counters collected together, its image, the passes it takes, and the
 * counter data its sessions write. Each has a host object of its own, since a host object
 * holds every counter ever added to it. */
typedef struct {
    CUpti_Profiler_Host_Object *host;
    const char *const *counters;
    size_t n_counters;
    uint8_t *image;
    size_t image_size;
    int passes;
    uint8_t *counter_data;     /* what its sessions write, sized by the range profiler */
    size_t counter_data_size;
} configuration;

struct gp_profiler {
    char chip[32];
    bool initialized;          /* cuptiProfilerInitialize succeeded: deinitialise at close */
    CUpti_Profiler_Host_Object *host;    /* the chip's counters, for questions about them */
    configuration configs[GP_PROFILER_MAX_CONFIGS];
    size_t n_configs;
    size_t current;            /* the configuration of the latest session */
    CUcontext ctx;
    gp_replay replay;          /* of sessions begun without naming one */
    /* The range profiler on the context keeps what its first session was configured with:
     * capacity, replay and configuration are fixed once `configured`. */
    CUpti_RangeProfiler_Object *range_profiler;
    size_t capacity;           /* ranges a session may hold; 0 until sized */
    bool configured;
    gp_replay configured_replay;
    size_t configured_config;
};

/* ---- host side (no GPU needed) ---------------------------------------------------- */

static int host_open(const char *chip, CUpti_Profiler_Host_Object **host)
{
    CUpti_Profiler_Host_Initialize_Params p = {
        .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    /* No counter-availability image: taking one costs more than a whole replay pass, and
     * what it would catch (counters held by another session) fails at enable or start. */
    p.pCounterAvailabilityImage = NULL;
    CUptiResult r = cuptiProfilerHostInitialize(&p);
    if (r == CUPTI_ERROR_INVALID_CHIP_NAME || r == CUPTI_ERROR_INVALID_PARAMETER)
        return gp_fail(GP_ERR_USAGE, "unknown chip '%s' (examples: GH100, GA100, GA102, AD102, "
                                     "TU102, GB100)", chip);
    CUPTI(r);
    *host = p.pHostObject;
    return GP_OK;
}

bool gp_profiler_has_counter(const gp_profiler *p, const char *name, const char **unit)
{
    CUpti_Profiler_Host_GetMetricProperties_Params q = {
        .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    q.pHostObject = p->host;
    q.pMetricName = name;
    if (cuptiProfilerHostGetMetricProperties(&q) != CUPTI_SUCCESS)
        return false;
    if (unit)
        *unit = q.pDimUnit ? q.pDimUnit : "";
    return true;
}

/* The configuration image of the counters on the configuration's host object, and the
 * passes it takes. */
static int build_configuration(configuration *k, const char *const *counters, size_t n)
{
    size_t passes = 0;
    GP_TRY(gp_cupti_configure(k->host, counters, n, &k->image, &k->image_size, &passes));
    k->passes = (int)passes;
    k->counters = counters;
    k->n_counters = n;
    return GP_OK;
}

static void free_configuration(configuration *k, const gp_profiler *p)
{
    if (k->host != p->host)
        gp_cupti_host_close(k->host);
    free(k->image);
    free(k->counter_data);
    memset(k, 0, sizeof *k);
}

int gp_profiler_configure(gp_profiler *p, const char *const *counters, size_t n, int *passes)
{
    if (p->n_configs == GP_PROFILER_MAX_CONFIGS)
        return gp_fail(GP_ERR_RUNTIME, "internal error: more than %d profiler configurations",
                       GP_PROFILER_MAX_CONFIGS);
    configuration *k = &p->configs[p->n_configs];
    /* The first configuration shares the chip's host object: adding counters to it changes
     * none of the answers about the chip. */
    int rc = p->n_configs == 0 ? GP_OK : host_open(p->chip, &k->host);
    if (p->n_configs == 0)
        k->host = p->host;
    if (rc == GP_OK)
        rc = build_configuration(k, counters, n);
    if (rc != GP_OK) {
        free_configuration(k, p);
        return rc;
    }
    p->n_configs++;
    *passes = k->passes;
    return GP_OK;
}

int gp_profiler_count_passes(const gp_profiler *p, const char *const *counters, size_t n,
                             int *passes)
{
    configuration k = {0};
    int rc = host_open(p->chip, &k.host);
    if (rc == GP_OK)
        rc = build_configuration(&k, counters, n);
    if (rc == GP_OK)
        *passes = k.passes;
    gp_cupti_host_close(k.host);
    free(k.image);
    return rc;
}

size_t gp_profiler_configurations(const gp_profiler *p)
{
    return p->n_configs;
}

int gp_profiler_passes(const gp_profiler *p)
{
    return p->n_configs ? p->configs[0].passes : 0;
}

size_t gp_profiler_counters(const gp_profiler *p)
{
    return p->configs[p->current].n_counters;
}

const char *gp_profiler_chip(const gp_profiler *p)
{
    return p->chip;
}

/* ---- opening and closing ------------------------------------------------------------ */

static int chip_name(int device, char *chip, size_t len)
{
    CUpti_Device_GetChipName_Params p = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = (size_t)device;
    CUPTI(cuptiDeviceGetChipName(&p));
    snprintf(chip, len, "%s", p.pChipName);
    return GP_OK;
}

/* Keeps the first failure's message: closing records no errors of its own. */
static int failed_open(gp_profiler *p, int rc)
{
    char hint[GP_MESSAGE_LEN];
    snprintf(hint, sizeof hint, "%s", gp_hint());
    gp_profiler_close(p);
    if (hint[0])
        gp_set_hint("%s", hint);
    return rc;
}

int gp_profiler_open(int device, gp_profiler **out)
{
    *out = NULL;
    gp_profiler *p = calloc(1, sizeof *p);
    if (!p)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = gp_cupti_profiler_acquire();
    p->initialized = rc == GP_OK;
    if (rc == GP_OK)
        rc = gp_cupti_device_supported(device, CUPTI_PROFILER_RANGE_PROFILING,
                                       "counter profiling");
    if (rc == GP_OK)
        rc = chip_name(device, p->chip, sizeof p->chip);
    if (rc == GP_OK)
        rc = host_open(p->chip, &p->host);
    if (rc != GP_OK)
        return failed_open(p, rc);
    *out = p;
    return GP_OK;
}

int gp_profiler_open_chip(const char *chip, gp_profiler **out)
{
    *out = NULL;
    gp_profiler *p = calloc(1, sizeof *p);
    if (!p)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    snprintf(p->chip, sizeof p->chip, "%s", chip);
    int rc = host_open(chip, &p->host);
    if (rc != GP_OK)
        return failed_open(p, rc);
    *out = p;
    return GP_OK;
}

/* Every configuration's counter data: sized anew at its next session. */
static void drop_counter_data(gp_profiler *p)
{
    for (size_t i = 0; i < p->n_configs; i++) {
        free(p->configs[i].counter_data);
        p->configs[i].counter_data = NULL;
    }
}

/* Returns CUPTI's result rather than recording it: closing reports no errors. The counter
 * data images belong to the range profiler that sized them (CUPTI 13.0 crashed initialising
 * one again for another): they go with it. */
static CUptiResult disable_range_profiler(gp_profiler *p)
{
    if (!p->range_profiler)
        return CUPTI_SUCCESS;
    CUpti_RangeProfiler_Disable_Params d = {
        .structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = p->range_profiler;
    p->range_profiler = NULL;
    p->configured = false;
    drop_counter_data(p);
    return cuptiRangeProfilerDisable(&d);
}

void gp_profiler_close(gp_profiler *p)
{
    if (!p)
        return;
    (void)disable_range_profiler(p);
    for (size_t i = 0; i < p->n_configs; i++)
        free_configuration(&p->configs[i], p);
    gp_cupti_host_close(p->host);
    if (p->initialized)
        gp_cupti_profiler_release();
    free(p);
}

int gp_profiler_device_chip(int device, char *chip, size_t len)
{
    GP_TRY(gp_cupti_profiler_acquire());
    int rc = chip_name(device, chip, len);
    gp_cupti_profiler_release();
    return rc;
}

/* ---- the range profiler on a context --------------------------------------------------- */

static int enable_range_profiler(gp_profiler *p)
{
    CUpti_RangeProfiler_Enable_Params e = {
        .structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    e.ctx = p->ctx;
    CUPTI(cuptiRangeProfilerEnable(&e));
    p->range_profiler = e.pRangeProfilerObject;
    return GP_OK;
}

/* The configuration's counter data image, sized for the capacity where it has none, and
 * initialized for a session. */
static int ready_counter_data(gp_profiler *p, configuration *k)
{
    if (!k->counter_data) {
        CUpti_RangeProfiler_GetCounterDataSize_Params s = {
            .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        s.pRangeProfilerObject = p->range_profiler;
        s.pMetricNames = (const char **)k->counters;
        s.numMetrics = k->n_counters;
        s.maxNumOfRanges = p->capacity;
        s.maxNumRangeTreeNodes = p->capacity;
        CUPTI(cuptiRangeProfilerGetCounterDataSize(&s));
        k->counter_data = malloc(s.counterDataSize);
        if (!k->counter_data)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory for the counter data image");
        k->counter_data_size = s.counterDataSize;
    }
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = p->range_profiler;
    ci.counterDataSize = k->counter_data_size;
    ci.pCounterData = k->counter_data;
    CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    return GP_OK;
}

/* A range profiler able to take a session of `ranges` ranges of the configuration with the
 * replay, and the configuration's counter data sized and initialized for it. A range profiler keeps what its
 * first session was configured with: CUPTI 13.0 recorded only as many ranges in a later,
 * larger session, crashed in a session of the other replay, and collected none of another
 * configuration's counters (bench/rotation_probe.cu). So a change of any of the three takes
 * a fresh range profiler, whose first start costs about 180 ms on the H100 against a few for
 * a later one: exec changes configuration as seldom as it can. A second range profiler on
 * the same context enables, but will not start. */
static int ready_range_profiler(gp_profiler *p, size_t config, gp_replay replay, size_t ranges)
{
    if (p->configured && (ranges > p->capacity || replay != p->configured_replay ||
                          config != p->configured_config)) {
        CUPTI(disable_range_profiler(p));
        GP_TRY(enable_range_profiler(p));
    }
    if (ranges > p->capacity) {
        p->capacity = ranges;
        drop_counter_data(p); /* sized for fewer ranges */
    }
    return ready_counter_data(p, &p->configs[config]);
}

int gp_profiler_attach(gp_profiler *p, void *context, gp_replay replay, size_t ranges)
{
    if (p->n_configs == 0)
        return gp_fail(GP_ERR_RUNTIME, "internal error: attaching an unconfigured profiler");
    p->ctx = (CUcontext)context;
    p->replay = replay;
    GP_TRY(enable_range_profiler(p));
    if (ranges == 0)
        return GP_OK;
    /* Sizing the counter data and touching it the first time (page faults on a fresh image)
     * are done here, where the caller can overlap them with work of its own. */
    return ready_range_profiler(p, 0, replay, ranges);
}

static int set_config(gp_profiler *p, size_t config, gp_replay replay)
{
    const configuration *k = &p->configs[config];
    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = p->range_profiler;
    sc.configSize = k->image_size;
    sc.pConfig = k->image;
    sc.counterDataImageSize = k->counter_data_size;
    sc.pCounterDataImage = k->counter_data;
    sc.range = replay == GP_REPLAY_USER_RANGE ? CUPTI_UserRange : CUPTI_AutoRange;
    sc.replayMode = replay == GP_REPLAY_KERNEL ? CUPTI_KernelReplay : CUPTI_UserReplay;
    sc.maxRangesPerPass = p->capacity;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI(cuptiRangeProfilerSetConfig(&sc));
    p->configured = true;
    p->configured_replay = replay;
    p->configured_config = config;
    return GP_OK;
}

void gp_profiler_suspend(gp_profiler *p)
{
    (void)disable_range_profiler(p); /* a failure leaves nothing to undo: it is enabled anew */
}

int gp_profiler_begin_with(gp_profiler *p, size_t config, gp_replay replay, size_t ranges)
{
    if (!p->ctx)
        return gp_fail(GP_ERR_RUNTIME, "internal error: a session on a detached profiler");
    if (!p->range_profiler)
        GP_TRY(enable_range_profiler(p)); /* suspended */
    if (config >= p->n_configs)
        return gp_fail(GP_ERR_RUNTIME, "internal error: no profiler configuration %zu", config);
    GP_TRY(ready_range_profiler(p, config, replay, ranges));
    GP_TRY(set_config(p, config, replay));
    p->current = config;
    return GP_OK;
}

int gp_profiler_begin(gp_profiler *p, size_t ranges)
{
    return gp_profiler_begin_with(p, 0, p->replay, ranges);
}

/* A user-range session's one range opens with the pass and closes with it. */
int gp_profiler_start(gp_profiler *p)
{
    CUpti_RangeProfiler_Start_Params start = {
        .structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = p->range_profiler;
    CUPTI(cuptiRangeProfilerStart(&start));
    if (p->configured_replay != GP_REPLAY_USER_RANGE)
        return GP_OK;
    CUpti_RangeProfiler_PushRange_Params push = {
        .structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    push.pRangeProfilerObject = p->range_profiler;
    push.pRangeName = "range";
    CUPTI(cuptiRangeProfilerPushRange(&push));
    return GP_OK;
}

int gp_profiler_stop(gp_profiler *p, bool *last)
{
    if (p->configured_replay == GP_REPLAY_USER_RANGE) {
        CUpti_RangeProfiler_PopRange_Params pop = {
            .structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = p->range_profiler;
        CUPTI(cuptiRangeProfilerPopRange(&pop));
    }
    CUpti_RangeProfiler_Stop_Params stop = {
        .structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = p->range_profiler;
    CUPTI(cuptiRangeProfilerStop(&stop));
    *last = stop.isAllPassSubmitted != 0;
    return GP_OK;
}

int gp_profiler_end(gp_profiler *p, size_t *ranges)
{
    const configuration *k = &p->configs[p->current];
    CUpti_RangeProfiler_DecodeData_Params d = {
        .structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = p->range_profiler;
    CUPTI(cuptiRangeProfilerDecodeData(&d));
    if (d.numOfRangeDropped > 0)
        return gp_fail(GP_ERR_RUNTIME, "CUPTI dropped %zu ranges (more than %zu)",
                       d.numOfRangeDropped, p->capacity);
    CUpti_RangeProfiler_GetCounterDataInfo_Params i = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    i.pCounterDataImage = k->counter_data;
    i.counterDataImageSize = k->counter_data_size;
    CUPTI(cuptiRangeProfilerGetCounterDataInfo(&i));
    *ranges = i.numTotalRanges;
    return GP_OK;
}

int gp_profiler_read(const gp_profiler *p, size_t range, double *values)
{
    const configuration *k = &p->configs[p->current];
    return gp_cupti_evaluate(k->host, k->counter_data, k->counter_data_size, range, k->counters,
                             k->n_counters, values);
}
