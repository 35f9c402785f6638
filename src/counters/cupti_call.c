/* The counters layer's shared CUPTI helpers (counters/cupti_call.h): errors, the process's
 * initialisation of CUPTI's profiler API, device support, and the host objects' closing and
 * evaluation. Moved here from profiler.c so that the PM sampler shares them; what they do is
 * unchanged.
 * Counters layer: never prints, never exits, never links cudart. */
#include "counters/cupti_call.h"

#include "counters/counter_lock.h"
#include "gpuprof/checked_calls.h"
#include "gpuprof/status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int gp_cupti_fail(CUptiResult r, const char *call, const char *file, int line)
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

int gp_cupti_device_supported(int device, CUpti_Profiler_API api, const char *what)
{
    CUpti_Profiler_DeviceSupported_Params p = {
        .structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    p.cuDevice = device;
    p.api = api;
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
    return gp_fail(GP_ERR_RUNTIME, "this device does not support %s: %s", what, why);
}

int gp_cupti_configure(CUpti_Profiler_Host_Object *host, const char *const *counters, size_t n,
                       uint8_t **image, size_t *size, size_t *passes)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host;
    add.ppMetricNames = (const char **)counters;
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
    *passes = np.numOfPasses;
    return GP_OK;
}

void gp_cupti_host_close(CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {
        .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host;
    GP_CHECKED(cuptiProfilerHostDeinitialize(&p), "a counter host object was not freed");
}

int gp_cupti_evaluate(CUpti_Profiler_Host_Object *host, const uint8_t *counter_data,
                      size_t counter_data_size, size_t range, const char *const *counters,
                      size_t n, double *values)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params e = {
        .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    e.pHostObject = host;
    e.pCounterDataImage = counter_data;
    e.counterDataImageSize = counter_data_size;
    e.rangeIndex = range;
    e.ppMetricNames = (const char **)counters;
    e.numMetrics = n;
    e.pMetricValues = values;
    CUPTI(cuptiProfilerHostEvaluateToGpuValues(&e));
    return GP_OK;
}

/* CUPTI's profiler API is initialised once per process, however many users hold it (exec
 * opens a profiler per context and a PM sampler per device): counted here, so that no user's
 * release de-initialises what another still uses. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static unsigned init_count;                                     /* Guard: init_lock */

/* The first user waits for the counters' lock file where there is one (counter_lock.c), then
 * initialises; the last one de-initialises. The lock stays held until the process ends: the
 * driver gives the counters back with the context, not at de-initialisation, and a process
 * that took the lock from one still tearing down got CUPTI_ERROR_HARDWARE_BUSY (4 test
 * programs at once on an H200, bench/README.md "The test suite's own time"). */
int gp_cupti_profiler_acquire(void)
{
    pthread_mutex_lock(&init_lock);
    CUptiResult r = CUPTI_SUCCESS;
    int rc = init_count == 0 ? gp_counter_lock_take() : GP_OK;
    if (rc == GP_OK && init_count == 0) {
        CUpti_Profiler_Initialize_Params init = {
            .structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        r = cuptiProfilerInitialize(&init);
        if (r != CUPTI_SUCCESS)
            gp_counter_lock_drop();
    }
    init_count += rc == GP_OK && r == CUPTI_SUCCESS;
    pthread_mutex_unlock(&init_lock);
    if (r != CUPTI_SUCCESS)
        return gp_cupti_fail(r, "cuptiProfilerInitialize(&init)", __FILE__, __LINE__);
    return rc;
}

void gp_cupti_profiler_release(void)
{
    pthread_mutex_lock(&init_lock);
    if (init_count > 0 && --init_count == 0) {
        CUpti_Profiler_DeInitialize_Params d = {
            .structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        GP_CHECKED(cuptiProfilerDeInitialize(&d),
                   "CUPTI's profiler stayed initialised: a later profiler here may not start");
    }
    pthread_mutex_unlock(&init_lock);
}

unsigned gp_cupti_profiler_users(void)
{
    pthread_mutex_lock(&init_lock);
    unsigned n = init_count;
    pthread_mutex_unlock(&init_lock);
    return n;
}
