/* What the counters layer's CUPTI drivers share (counters/profiler.c for the range profiler,
 * counters/pm_sampler.c for PM sampling): CUPTI failures turned into one error with a hint,
 * the process's one initialisation of CUPTI's profiler API, the device support check, and
 * what both do with a host object (configure it, evaluate counter data with it, close it).
 * Private to src/counters/. */
#ifndef GPUPROF_COUNTERS_CUPTI_CALL_H
#define GPUPROF_COUNTERS_CUPTI_CALL_H

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <stddef.h>
#include <stdint.h>

/* Record a failed CUPTI call (its text, e.g. "cuptiX(&p)", names it) and return the status:
 * missing permission, another profiler, busy counters and unsupported devices get messages
 * of their own and a hint; anything else names the call, the result, the file and line. */
int gp_cupti_fail(CUptiResult r, const char *call, const char *file, int line);

#define CUPTI(call)                                                                   \
    do {                                                                              \
        CUptiResult cupti_r_ = (call);                                                \
        if (cupti_r_ != CUPTI_SUCCESS)                                                \
            return gp_cupti_fail(cupti_r_, #call, __FILE__, __LINE__);                \
    } while (0)

/* The configuration image of the counters added to the host object (*image malloc'ed,
 * set as soon as allocated: the caller frees it, on failure too) and the passes it takes. */
int gp_cupti_configure(CUpti_Profiler_Host_Object *host, const char *const *counters, size_t n,
                       uint8_t **image, size_t *size, size_t *passes);

/* Closes a host object (NULL: nothing). Returns nothing: closing records no errors. */
void gp_cupti_host_close(CUpti_Profiler_Host_Object *host);

/* The values of the counters (as the host object was configured with them) in range `range`
 * of a counter data image: one evaluation for the range profiler's ranges and the PM
 * sampler's samples alike. */
int gp_cupti_evaluate(CUpti_Profiler_Host_Object *host, const uint8_t *counter_data,
                      size_t counter_data_size, size_t range, const char *const *counters,
                      size_t n, double *values);

/* cuptiProfilerInitialize once per process, however many users hold it (a profiler per
 * context, a PM sampler per device): counted; the last release de-initialises. */
int gp_cupti_profiler_acquire(void);
void gp_cupti_profiler_release(void);
/* How many hold it now (for the tests: a failed open leaves the count as it found it). */
unsigned gp_cupti_profiler_users(void);

/* Whether the device supports the API (range profiling, PM sampling), with the reason in
 * the error when not; `what` names the feature in that error. Needs the API acquired. */
int gp_cupti_device_supported(int device, CUpti_Profiler_API api, const char *what);

#endif
