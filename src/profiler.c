/* Per-kernel hardware counters through CUPTI's Range Profiler + Profiler Host API (CUDA 13).
 * The only file that includes CUPTI.
 *
 * Mode: user replay. gpuprof runs each workload once per pass itself, restoring its inputs
 * before each run and flushing L2 before each of its kernels. That gives every kernel the
 * cold-cache start ncu gives it by default (--cache-control all), which CUPTI's own kernel
 * replay in 13.0 does not, and only the buffers the workload owns are restored.
 *
 * Ranges: auto range, every kernel a range, in launch order. The L2 flush before each kernel
 * is a range too, and is skipped: flushing inside the session matters, because starting a
 * session leaves dirty lines in L2 that a flush before it did not see (the first kernel of a
 * session then counted 22 MB more DRAM writes than ncu). Every configuration of a problem
 * runs in one session per pass (starting a session is the expensive part). A library call
 * launches kernels gpuprof does not see: it runs last in its session, and the ranges after
 * the others are its kernels. */
#include "gpuprof/profiler.h"

#include "gpuprof/metrics.h"
#include "gpuprof/status.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Ranges a session may hold. A range profiler keeps the capacity of the first configuration
 * it is given (CUPTI 13.0 was seen to record only that many ranges in a later, larger one),
 * and starting a session costs more the more it can hold (on an H100, 64 instead of 40 cost
 * 60 ms, 256 instead of 38 0.2 s). So the capacity is what the first session needs, at most
 * MAX_SESSION_RANGES, and grows (to the maximum, once) only if a later one needs more. */
#define MAX_SESSION_RANGES 64
#define LIBRARY_RANGES 8  /* kernels a library call may launch: cub's reduction launches 1 or 2 */
#define LIBRARY_CALL_RANGES (1 + LIBRARY_RANGES) /* with the flush before it */
#define MAX_COUNTERS 96

typedef struct {
    const gp_metric_def *def;  /* NULL: a raw PerfWorks name given on the command line */
    char raw_name[128];
    char raw_unit[32];
    const char *missing;       /* first input this chip does not have; NULL when available */
} selected_metric;

struct gp_profiler {
    CUcontext ctx;
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *range_profiler;
    uint8_t *config;
    size_t config_size;
    uint8_t *counter_data;
    size_t counter_data_size;
    size_t capacity;           /* ranges per session; 0 until sized */
    bool configured;           /* a session was configured: the capacity is fixed */
    const char *counters[MAX_COUNTERS];
    size_t n_counters;
    selected_metric metrics[GP_MAX_METRIC_NAMES + 32];
    size_t n_metrics;
    int passes;
    char chip[32];
    bool initialized;
};

/* ---- errors ------------------------------------------------------------------------ */

static int cupti_fail(CUptiResult r, const char *call, const char *file, int line)
{
    const char *name = NULL;
    cuptiGetResultString(r, &name);
    if (!name)
        name = "CUPTI_ERROR_UNKNOWN";
    int len = (int)strcspn(call, "(");
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        gp_fail(GP_ERR_RUNTIME, "no permission to read the GPU performance counters (%s from %.*s)",
                name, len, call);
        gp_set_hint("run as root or with CAP_SYS_ADMIN, or have the driver loaded with "
                    "NVreg_RestrictProfilingToAdminUsers=0 (see ERR_NVGPUCTRPERM)");
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        gp_fail(GP_ERR_RUNTIME, "another profiler already holds the counters (%s from %.*s)",
                name, len, call);
        gp_set_hint("under ncu, nsys or another CUPTI tool, run gpuprof with --metrics=none");
        break;
    case CUPTI_ERROR_HARDWARE_BUSY:
        gp_fail(GP_ERR_RUNTIME, "the GPU's counters are busy (%s from %.*s)", name, len, call);
        gp_set_hint("another process is profiling this GPU; try again when it is done");
        break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        gp_fail(GP_ERR_RUNTIME, "this device does not support counter profiling (%s from %.*s)",
                name, len, call);
        break;
    default:
        gp_fail(GP_ERR_RUNTIME, "%.*s failed: %s at %s:%d", len, call, name, file, line);
    }
    return GP_ERR_RUNTIME;
}

#define CUPTI(call)                                                                   \
    do {                                                                              \
        CUptiResult cupti_r_ = (call);                                                \
        if (cupti_r_ != CUPTI_SUCCESS)                                                \
            return cupti_fail(cupti_r_, #call, __FILE__, __LINE__);                   \
    } while (0)

/* ---- host side (no GPU needed) ---------------------------------------------------- */

static int host_open(const char *chip, const uint8_t *availability,
                     CUpti_Profiler_Host_Object **host)
{
    CUpti_Profiler_Host_Initialize_Params p = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = availability;
    CUptiResult r = cuptiProfilerHostInitialize(&p);
    if (r == CUPTI_ERROR_INVALID_CHIP_NAME || r == CUPTI_ERROR_INVALID_PARAMETER)
        return gp_fail(GP_ERR_USAGE, "unknown chip '%s' (examples: GH100, GA100, GA102, AD102, "
                                     "TU102, GB100)", chip);
    CUPTI(r);
    *host = p.pHostObject;
    return GP_OK;
}

static void host_close(CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {
        .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host;
    cuptiProfilerHostDeinitialize(&p);
}

static bool host_knows(CUpti_Profiler_Host_Object *host, const char *name, const char **unit)
{
    CUpti_Profiler_Host_GetMetricProperties_Params p = {
        .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = host;
    p.pMetricName = name;
    if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS)
        return false;
    if (unit)
        *unit = p.pDimUnit ? p.pDimUnit : "";
    return true;
}

/* Build the configuration image for `names` and count its replay passes. */
static int host_config(CUpti_Profiler_Host_Object *host, const char **names, size_t n,
                       uint8_t **image, size_t *size, int *passes)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host;
    add.ppMetricNames = names;
    add.numMetrics = n;
    CUPTI(cuptiProfilerHostConfigAddMetrics(&add));
    CUpti_Profiler_Host_GetConfigImageSize_Params sz = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    sz.pHostObject = host;
    CUPTI(cuptiProfilerHostGetConfigImageSize(&sz));
    *image = malloc(sz.configImageSize);
    if (!*image)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *size = sz.configImageSize;
    CUpti_Profiler_Host_GetConfigImage_Params img = {
        .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    img.pHostObject = host;
    img.configImageSize = *size;
    img.pConfigImage = *image;
    CUPTI(cuptiProfilerHostGetConfigImage(&img));
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.pConfigImage = *image;
    np.configImageSize = *size;
    CUPTI(cuptiProfilerHostGetNumOfPasses(&np));
    *passes = (int)np.numOfPasses;
    return GP_OK;
}

/* ---- which counters to collect ------------------------------------------------------- */

static bool wants(const gp_metrics_request *req, const gp_metric_def *m)
{
    if (req->kind == GP_METRICS_ALL)
        return (m->sets & GP_SET_ALL) != 0;
    if (req->kind == GP_METRICS_DEFAULT)
        return (m->sets & GP_SET_DEFAULT) != 0;
    for (size_t i = 0; i < req->n_names; i++)
        if (strcmp(req->names[i], m->key) == 0)
            return true;
    return false;
}

static int add_counter(gp_profiler *p, const char *name)
{
    for (size_t i = 0; i < p->n_counters; i++)
        if (strcmp(p->counters[i], name) == 0)
            return GP_OK;
    if (p->n_counters >= MAX_COUNTERS)
        return gp_fail(GP_ERR_USAGE, "too many counters requested (at most %d)", MAX_COUNTERS);
    p->counters[p->n_counters++] = name;
    return GP_OK;
}

/* Metrics in catalogue order, then raw names in command-line order; collect the inputs
 * this chip has, and the clock counters every result reports. */
static int select_metrics(gp_profiler *p, const gp_metrics_request *req)
{
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (!wants(req, &cat[i]))
            continue;
        selected_metric *s = &p->metrics[p->n_metrics++];
        memset(s, 0, sizeof *s);
        s->def = &cat[i];
        for (size_t k = 0; k < cat[i].n_inputs && !s->missing; k++)
            if (!host_knows(p->host, cat[i].inputs[k], NULL))
                s->missing = cat[i].inputs[k];
        for (size_t k = 0; k < cat[i].n_inputs && !s->missing; k++)
            GP_TRY(add_counter(p, cat[i].inputs[k]));
    }
    for (size_t i = 0; req->kind == GP_METRICS_LIST && i < req->n_names; i++) {
        if (gp_find_metric(req->names[i]))
            continue;
        selected_metric *s = &p->metrics[p->n_metrics++];
        memset(s, 0, sizeof *s);
        snprintf(s->raw_name, sizeof s->raw_name, "%s", req->names[i]);
        const char *unit = "";
        if (host_knows(p->host, s->raw_name, &unit)) {
            snprintf(s->raw_unit, sizeof s->raw_unit, "%s", unit);
            GP_TRY(add_counter(p, s->raw_name));
        } else {
            s->missing = s->raw_name;
        }
    }
    for (size_t i = 0; i < gp_n_clock_counters; i++)
        if (host_knows(p->host, gp_clock_counters[i], NULL))
            GP_TRY(add_counter(p, gp_clock_counters[i]));
    return GP_OK;
}

/* ---- target side ---------------------------------------------------------------- */

static int current_context(CUcontext *ctx)
{
    typedef CUresult (*get_current_fn)(CUcontext *);
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    GP_CUDA(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault,
                                             &found));
    if (found != cudaDriverEntryPointSuccess || !fn)
        return gp_fail(GP_ERR_RUNTIME, "cuCtxGetCurrent not found in the CUDA driver");
    if (((get_current_fn)fn)(ctx) != CUDA_SUCCESS || !*ctx)
        return gp_fail(GP_ERR_RUNTIME, "no current CUDA context to profile");
    return GP_OK;
}

static int check_device_supported(int device)
{
    CUpti_Profiler_DeviceSupported_Params p = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    p.cuDevice = device;
    p.api = CUPTI_PROFILER_RANGE_PROFILING;
    CUPTI(cuptiProfilerDeviceSupported(&p));
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return GP_OK;
    const char *why = p.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                          ? "architecture older than Turing (compute capability 7.5)"
                      : p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "vGPU without profiling"
                      : p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                          ? "confidential computing is on"
                      : p.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "crypto-mining processor"
                      : p.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "SLI is on"
                      : p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "WSL"
                                                                        : "unsupported setup";
    return gp_fail(GP_ERR_RUNTIME, "this device does not support counter profiling: %s", why);
}

static int chip_name(int device, char *chip, size_t len)
{
    CUpti_Device_GetChipName_Params p = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = (size_t)device;
    CUPTI(cuptiDeviceGetChipName(&p));
    snprintf(chip, len, "%s", p.pChipName);
    return GP_OK;
}

static int enable_range_profiler(gp_profiler *p)
{
    CUpti_RangeProfiler_Enable_Params e = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    e.ctx = p->ctx;
    CUPTI(cuptiRangeProfilerEnable(&e));
    p->range_profiler = e.pRangeProfilerObject;
    return GP_OK;
}

/* The counter data image every session uses, sized once. */
static int size_counter_data(gp_profiler *p)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params s = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    s.pRangeProfilerObject = p->range_profiler;
    s.pMetricNames = p->counters;
    s.numMetrics = p->n_counters;
    s.maxNumOfRanges = p->capacity;
    s.maxNumRangeTreeNodes = p->capacity;
    CUPTI(cuptiRangeProfilerGetCounterDataSize(&s));
    free(p->counter_data);
    p->counter_data = malloc(s.counterDataSize);
    if (!p->counter_data)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory for the counter data image");
    p->counter_data_size = s.counterDataSize;
    return GP_OK;
}

static int initialize_counter_data(gp_profiler *p)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = p->range_profiler;
    ci.counterDataSize = p->counter_data_size;
    ci.pCounterData = p->counter_data;
    CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    return GP_OK;
}

static int set_config(gp_profiler *p)
{
    GP_TRY(initialize_counter_data(p));
    CUpti_RangeProfiler_SetConfig_Params sc = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = p->range_profiler;
    sc.configSize = p->config_size;
    sc.pConfig = p->config;
    sc.counterDataImageSize = p->counter_data_size;
    sc.pCounterDataImage = p->counter_data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = p->capacity;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI(cuptiRangeProfilerSetConfig(&sc));
    p->configured = true;
    return GP_OK;
}

/* Returns CUPTI's result rather than recording it: closing reports no errors. */
static CUptiResult disable_range_profiler(gp_profiler *p)
{
    if (!p->range_profiler)
        return CUPTI_SUCCESS;
    CUpti_RangeProfiler_Disable_Params d = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = p->range_profiler;
    p->range_profiler = NULL;
    return cuptiRangeProfilerDisable(&d);
}

/* Room for a session of `ranges` ranges. Until a session is configured the capacity is
 * free to grow; after that a larger one needs a fresh range profiler (its next start costs
 * as much as the first), sized for the most a session may hold. */
static int reserve_ranges(gp_profiler *p, size_t ranges)
{
    if (ranges <= p->capacity)
        return GP_OK;
    if (p->configured) {
        CUPTI(disable_range_profiler(p));
        GP_TRY(enable_range_profiler(p));
        p->configured = false;
        ranges = MAX_SESSION_RANGES;
    }
    p->capacity = ranges;
    return size_counter_data(p);
}

/* The ranges of the first session collect_in_order will make of the plan: every own
 * configuration that fits, a flush and at least one kernel each, then a library call if all
 * of them did. */
static size_t first_session_ranges(const gp_profile_plan *plan)
{
    const size_t ours_max = MAX_SESSION_RANGES - LIBRARY_CALL_RANGES;
    const size_t ours = 2 * plan->own <= ours_max ? 2 * plan->own : ours_max / 2 * 2;
    return ours + (plan->library > 0 && 2 * plan->own <= ours_max ? LIBRARY_CALL_RANGES : 0);
}

static int open_steps(gp_profiler *p, int device, const gp_metrics_request *req,
                      const gp_profile_plan *plan)
{
    /* Everything that needs no context first, so it overlaps the caller's creating one:
     * CUPTI, the device check, the counters and the configuration image. */
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI(cuptiProfilerInitialize(&init));
    p->initialized = true;
    GP_TRY(check_device_supported(device));
    GP_TRY(chip_name(device, p->chip, sizeof p->chip));
    /* No counter-availability image: taking one costs more than a whole replay pass, and
     * what it would catch (counters held by another session) fails at enable or start. */
    GP_TRY(host_open(p->chip, NULL, &p->host));
    GP_TRY(select_metrics(p, req));
    if (p->n_counters == 0)
        return gp_fail(GP_ERR_RUNTIME, "none of the requested metrics exists on %s", p->chip);
    GP_TRY(host_config(p->host, p->counters, p->n_counters, &p->config, &p->config_size,
                       &p->passes));
    GP_CUDA(cudaSetDevice(device)); /* this thread may not have used the device yet */
    GP_TRY(current_context(&p->ctx));
    GP_TRY(enable_range_profiler(p));
    /* Sizing the counter data and initialising it the first time (page faults on a fresh
     * image) took 10 ms on an H100: here they overlap the caller's work instead of
     * following its timing. */
    const size_t ranges = first_session_ranges(plan);
    if (ranges == 0)
        return GP_OK;
    GP_TRY(reserve_ranges(p, ranges));
    return initialize_counter_data(p);
}

int gp_profiler_open(int device, const gp_metrics_request *req, const gp_profile_plan *plan,
                     gp_profiler **out, gp_profiler_info *info)
{
    *out = NULL;
    gp_profiler *p = calloc(1, sizeof *p);
    if (!p)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = open_steps(p, device, req, plan);
    snprintf(info->chip, sizeof info->chip, "%s", p->chip);
    snprintf(info->metric_set, sizeof info->metric_set, "%s",
             req->kind == GP_METRICS_ALL ? "all" : req->kind == GP_METRICS_LIST ? "list"
                                                                                : "default");
    if (rc != GP_OK) {
        char hint[GP_TEXT_LEN];
        snprintf(hint, sizeof hint, "%s", gp_hint());
        gp_profiler_close(p); /* reports no errors, so the first failure stays the one shown */
        if (hint[0])
            gp_set_hint("%s", hint);
        info->state = GP_PROF_UNAVAILABLE;
        return rc;
    }
    info->state = GP_PROF_OK;
    info->passes = p->passes;
    *out = p;
    return GP_OK;
}

void gp_profiler_close(gp_profiler *p)
{
    if (!p)
        return;
    (void)disable_range_profiler(p);
    host_close(p->host);
    if (p->initialized) {
        CUpti_Profiler_DeInitialize_Params d = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        cuptiProfilerDeInitialize(&d);
    }
    free(p->config);
    free(p->counter_data);
    free(p);
}

/* ---- one session ------------------------------------------------------------------ */

/* Hooks while profiling: flush L2 before every kernel of a run, count the launches. */
typedef struct {
    const gp_profile_target *target;
    size_t launches;
} pass_hooks;

static int pass_before(void *ctx, const gp_kernel_info *info)
{
    (void)info;
    pass_hooks *h = ctx;
    GP_TRY(h->target->flush(h->target->ctx));
    h->launches++;
    return GP_OK;
}

/* One pass: every target's inputs restored and the target run once; in the last pass each
 * one's result is checked right after its run, before the next target reuses the buffers. */
static int run_targets(pass_hooks *ph, const gp_profile_target *t, size_t n, bool last,
                       size_t *launches)
{
    gp_hooks hooks = {ph, pass_before, NULL};
    for (size_t i = 0; i < n; i++) {
        GP_TRY(t[i].restore(t[i].ctx));
        ph->target = &t[i];
        ph->launches = 0;
        GP_TRY(t[i].launch(t[i].ctx, &hooks));
        launches[i] = ph->launches;
        if (last)
            GP_TRY(t[i].check(t[i].ctx));
    }
    return GP_OK;
}

/* Run the targets once per pass of the configuration. */
static int run_passes(gp_profiler *p, const gp_profile_target *t, size_t n, size_t *launches)
{
    pass_hooks ph = {NULL, 0};
    for (int pass = 0; pass < p->passes; pass++) {
        const bool last = pass + 1 == p->passes;
        GP_CUDA(cudaDeviceSynchronize());
        CUpti_RangeProfiler_Start_Params start = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        start.pRangeProfilerObject = p->range_profiler;
        CUPTI(cuptiRangeProfilerStart(&start));
        int rc = run_targets(&ph, t, n, last, launches);
        CUpti_RangeProfiler_Stop_Params stop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        stop.pRangeProfilerObject = p->range_profiler;
        CUptiResult r = cuptiRangeProfilerStop(&stop);
        GP_TRY(rc);
        CUPTI(r);
        GP_CUDA(cudaDeviceSynchronize());
        if (stop.isAllPassSubmitted != last)
            return gp_fail(GP_ERR_RUNTIME, "internal error: CUPTI ended after pass %d, the "
                                           "configuration has %d", pass + 1, p->passes);
    }
    return GP_OK;
}

static int evaluate_range(gp_profiler *p, size_t range, double *values)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params e = {
        .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    e.pHostObject = p->host;
    e.pCounterDataImage = p->counter_data;
    e.counterDataImageSize = p->counter_data_size;
    e.rangeIndex = range;
    e.ppMetricNames = p->counters;
    e.numMetrics = p->n_counters;
    e.pMetricValues = values;
    CUPTI(cuptiProfilerHostEvaluateToGpuValues(&e));
    return GP_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Counters and derived metrics of one range (n_ranges == 1) or of several summed. */
static int build_metric_set(const gp_profiler *p, const double *values, size_t n_ranges,
                            gp_metric_set *out)
{
    memset(out, 0, sizeof *out);
    out->counters = calloc(p->n_counters, sizeof *out->counters);
    out->metrics = calloc(p->n_metrics, sizeof *out->metrics);
    if (!out->counters || !out->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    out->n_counters = p->n_counters;
    out->n_metrics = p->n_metrics;
    for (size_t i = 0; i < p->n_counters; i++) {
        snprintf(out->counters[i].name, GP_NAME_LEN, "%s", p->counters[i]);
        out->counters[i].value = values[i];
    }
    for (size_t i = 0; i < p->n_metrics; i++) {
        const selected_metric *s = &p->metrics[i];
        gp_metric_value *m = &out->metrics[i];
        const char *why = NULL;
        if (s->def) {
            snprintf(m->key, sizeof m->key, "%s", s->def->key);
            snprintf(m->unit, sizeof m->unit, "%s", s->def->unit);
            m->n_inputs = s->def->n_inputs;
            for (size_t k = 0; k < s->def->n_inputs; k++)
                snprintf(m->inputs[k], GP_NAME_LEN, "%s", s->def->inputs[k]);
            if (!s->missing)
                m->valid = gp_metric_derive(s->def, p->counters, values, p->n_counters,
                                            &m->value, &why);
        } else {
            snprintf(m->key, sizeof m->key, "%s", s->raw_name);
            snprintf(m->unit, sizeof m->unit, "%s", s->raw_unit);
            m->n_inputs = 1;
            snprintf(m->inputs[0], GP_NAME_LEN, "%s", s->raw_name);
            if (!s->missing && n_ranges > 1 && !ends_with(s->raw_name, ".sum")) {
                why = "not additive over launches: see each launch";
            } else if (!s->missing) {
                size_t k = 0;
                while (strcmp(p->counters[k], s->raw_name) != 0)
                    k++;
                m->value = values[k];
                m->valid = !isnan(m->value);
            }
        }
        if (s->missing)
            snprintf(m->why, sizeof m->why, "%s is not available on %s", s->missing, p->chip);
        else if (!m->valid)
            snprintf(m->why, sizeof m->why, "%s", why ? why : "undefined");
    }
    return GP_OK;
}

static double counter_value(const gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return s->counters[i].value;
    return NAN;
}

static void record_clocks(gp_result *res)
{
    double ns = counter_value(&res->metrics, "gpu__time_duration.sum");
    double sm = counter_value(&res->metrics, "sm__cycles_elapsed.avg");
    double dram = counter_value(&res->metrics, "dram__cycles_elapsed.avg");
    res->sm_clock_ghz = ns > 0 && !isnan(sm) ? sm / ns : -1.0;
    res->dram_clock_ghz = ns > 0 && !isnan(dram) ? dram / ns : -1.0;
}

/* An opaque launch (a library call) may launch several kernels: one record each. */
static int expand_opaque_launch(gp_result *res, size_t kernels)
{
    if (res->n_launches != 1 || kernels <= 1)
        return GP_OK;
    gp_launch_record first = res->launches[0];
    res->launches[0].median_ms = -1.0;
    for (size_t k = 1; k < kernels; k++) {
        gp_launch_record *l;
        GP_TRY(gp_result_add_launch(res, &l));
        *l = first;
        l->median_ms = -1.0;
    }
    for (size_t k = 0; k < kernels; k++)
        snprintf(res->launches[k].kernel, GP_NAME_LEN, "%.90s [kernel %zu of %zu]",
                 first.kernel, (k + 1) % 1000, kernels % 1000);
    return GP_OK;
}

static int decode(gp_profiler *p, size_t *total)
{
    CUpti_RangeProfiler_DecodeData_Params d = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = p->range_profiler;
    CUPTI(cuptiRangeProfilerDecodeData(&d));
    if (d.numOfRangeDropped > 0)
        return gp_fail(GP_ERR_RUNTIME, "CUPTI dropped %zu ranges (more than %zu)",
                       d.numOfRangeDropped, p->capacity);
    CUpti_RangeProfiler_GetCounterDataInfo_Params i = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    i.pCounterDataImage = p->counter_data;
    i.counterDataImageSize = p->counter_data_size;
    CUPTI(cuptiRangeProfilerGetCounterDataInfo(&i));
    *total = i.numTotalRanges;
    return GP_OK;
}

/* Counters of one target's kernels, the k-th at range first + k * stride: one set per
 * launch and the aggregate of their sums. */
static int fill_result(gp_profiler *p, size_t first, size_t stride, size_t kernels,
                       gp_result *res)
{
    double values[MAX_COUNTERS], sums[MAX_COUNTERS] = {0};
    for (size_t k = 0; k < kernels; k++) {
        GP_TRY(evaluate_range(p, first + k * stride, values));
        for (size_t c = 0; c < p->n_counters; c++)
            sums[c] = (k > 0 && gp_counter_is_constant(p->counters[c])) ? sums[c]
                                                                         : sums[c] + values[c];
        GP_TRY(build_metric_set(p, values, 1, &res->launches[k].metrics));
    }
    GP_TRY(build_metric_set(p, sums, kernels, &res->metrics));
    res->passes = p->passes;
    res->profiled = true;
    record_clocks(res);
    return GP_OK;
}

static bool is_library_call(const gp_result *res)
{
    return res->n_launches == 1 && res->launches[0].opaque;
}

/* Ranges a target takes in a session: a flush and a kernel per launch; a library call's
 * kernels are not known before it runs. */
static size_t ranges_of(const gp_profile_target *t)
{
    return is_library_call(t->res) ? LIBRARY_CALL_RANGES : 2 * t->res->n_launches;
}

/* Where each target's kernels are among the session's ranges, which follow launch order.
 * A library call launches kernels gpuprof cannot count; it comes last and the ranges left
 * are its kernels. */
typedef struct {
    size_t first, stride, kernels;
} target_ranges;

/* launches[i]: what the hooks counted for target i. */
static int map_ranges(const gp_profile_target *t, size_t n, const size_t *launches,
                      size_t total, target_ranges *m)
{
    size_t range = 0;
    for (size_t i = 0; i < n; i++) {
        range++; /* the flush before it */
        m[i].first = range;
        if (is_library_call(t[i].res)) {
            if (i + 1 != n || launches[i] != 1 || total <= range)
                return gp_fail(GP_ERR_RUNTIME, "internal error: a library call must be the "
                                               "last launch of a session");
            m[i].stride = 1;
            m[i].kernels = total - range;
            range = total;
            continue;
        }
        if (launches[i] != t[i].res->n_launches)
            return gp_fail(GP_ERR_RUNTIME, "internal error: %zu launches profiled, %zu timed",
                           launches[i], t[i].res->n_launches);
        m[i].stride = 2;
        m[i].kernels = launches[i];
        range += 2 * launches[i] - 1;
    }
    if (range != total)
        return gp_fail(GP_ERR_RUNTIME, "CUPTI recorded %zu ranges where gpuprof launched %zu "
                                       "kernels", total, range);
    return GP_OK;
}

/* Targets in one session: all of ours, then at most one library call. */
static int collect_session(gp_profiler *p, const gp_profile_target *t, size_t n)
{
    target_ranges *m = calloc(n, sizeof *m);
    size_t *launches = calloc(n, sizeof *launches);
    if (!m || !launches) {
        free(m);
        free(launches);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    size_t total = 0;
    int status = set_config(p);
    if (status == GP_OK)
        status = run_passes(p, t, n, launches);
    if (status == GP_OK)
        status = decode(p, &total);
    if (status == GP_OK)
        status = map_ranges(t, n, launches, total, m);
    for (size_t i = 0; status == GP_OK && i < n; i++) {
        if (is_library_call(t[i].res))
            status = expand_opaque_launch(t[i].res, m[i].kernels);
        if (status == GP_OK)
            status = fill_result(p, m[i].first, m[i].stride, m[i].kernels, t[i].res);
    }
    free(m);
    free(launches);
    return status;
}

/* Our targets first, library calls last; as many in one session as it can hold, always with
 * room for one library call after ours. */
static int collect_in_order(gp_profiler *p, const gp_profile_target *t, size_t n)
{
    const size_t ours_max = MAX_SESSION_RANGES - LIBRARY_CALL_RANGES;
    size_t i = 0;
    while (i < n) {
        size_t j = i, ranges = 0;
        while (j < n && !is_library_call(t[j].res) && ranges + ranges_of(&t[j]) <= ours_max)
            ranges += ranges_of(&t[j++]);
        if (j < n && is_library_call(t[j].res))
            ranges += ranges_of(&t[j++]);
        if (j == i)
            return gp_fail(GP_ERR_RUNTIME, "%zu kernel launches in one run: more than the "
                                           "profiler's %zu", t[i].res->n_launches, ours_max / 2);
        GP_TRY(reserve_ranges(p, ranges));
        GP_TRY(collect_session(p, &t[i], j - i));
        i = j;
    }
    return GP_OK;
}

int gp_profiler_collect(gp_profiler *p, const gp_profile_target *targets, size_t n)
{
    gp_profile_target *ordered = malloc(n * sizeof *ordered);
    if (!ordered)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_library_call(targets[i].res))
            ordered[k++] = targets[i];
    for (size_t i = 0; i < n; i++)
        if (is_library_call(targets[i].res))
            ordered[k++] = targets[i];
    int status = collect_in_order(p, ordered, n);
    free(ordered);
    return status;
}

/* ---- without a GPU ------------------------------------------------------------------- */

static int chip_passes(CUpti_Profiler_Host_Object *host, unsigned set, int *passes)
{
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    const char *names[MAX_COUNTERS];
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(cat[i].sets & set))
            continue;
        for (size_t k = 0; k < cat[i].n_inputs; k++) {
            bool known = host_knows(host, cat[i].inputs[k], NULL), dup = false;
            for (size_t j = 0; j < count; j++)
                dup |= strcmp(names[j], cat[i].inputs[k]) == 0;
            if (known && !dup && count < MAX_COUNTERS)
                names[count++] = cat[i].inputs[k];
        }
    }
    uint8_t *image = NULL;
    size_t size = 0;
    int rc = host_config(host, names, count, &image, &size, passes);
    free(image);
    return rc;
}

int gp_profiler_chip_metrics(const char *chip, gp_metric_availability *avail, size_t n,
                             int *passes_default, int *passes_all)
{
    CUpti_Profiler_Host_Object *host = NULL;
    GP_TRY(host_open(chip, NULL, &host));
    size_t count;
    const gp_metric_def *cat = gp_metric_catalogue(&count);
    for (size_t i = 0; i < n && i < count; i++) {
        avail[i].key = cat[i].key;
        avail[i].available = true;
        avail[i].missing = NULL;
        for (size_t k = 0; k < cat[i].n_inputs && avail[i].available; k++)
            if (!host_knows(host, cat[i].inputs[k], NULL)) {
                avail[i].available = false;
                avail[i].missing = cat[i].inputs[k];
            }
    }
    host_close(host);
    /* A host object holds the metrics added to it: one fresh object per configuration. */
    int rc = host_open(chip, NULL, &host);
    if (rc == GP_OK)
        rc = chip_passes(host, GP_SET_DEFAULT, passes_default);
    host_close(host);
    if (rc == GP_OK)
        rc = host_open(chip, NULL, &host);
    if (rc == GP_OK)
        rc = chip_passes(host, GP_SET_ALL, passes_all);
    host_close(host);
    return rc;
}

int gp_profiler_device_chip(int device, char *chip, size_t len)
{
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUPTI(cuptiProfilerInitialize(&init));
    int rc = chip_name(device, chip, len);
    CUpti_Profiler_DeInitialize_Params d = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    cuptiProfilerDeInitialize(&d);
    return rc;
}
