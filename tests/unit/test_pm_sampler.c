/* The PM sampler (src/counters/pm_sampler.c) without a GPU: its arguments refused before CUPTI
 * is touched, a device that cannot be opened failing with a message and holding nothing,
 * the hardware buffer's size, and the step after each decode for every stop reason of
 * cupti_pmsampling.h. Leaks of a failed open show under `make check-sanitize`. The sampling
 * itself is tests/gpu/test_pm_sampler.py's. */
#include "tap.h"

#include "counters/cupti_call.h"
#include "counters/pm_decode.h"
#include "gpuprof/pm_sampler.h"
#include "gpuprof/status.h"

#include <cupti_pmsampling.h>
#include <string.h>

/* open refused with `code` and a message containing `why`, leaving *out NULL. */
static void refused(int device, uint64_t interval_ns, size_t max_samples, int code,
                    const char *why, const char *what)
{
    gp_clear_error();
    static int anything;
    gp_pm_sampler *s = (gp_pm_sampler *)&anything; /* not NULL: open must clear it */
    int rc = gp_pm_sampler_open(device, interval_ns, max_samples, &s);
    bool ok = rc == code && s == NULL && strstr(gp_error(), why) != NULL;
    if (!ok)
        tap_diag("rc %d, sampler %p, message: %s", rc, (void *)s, gp_error());
    tap_ok(ok, "pm sampler: %s refused", what);
    if (rc == GP_OK)
        gp_pm_sampler_close(s);
}

static void test_arguments(void)
{
    refused(0, 0, 100, GP_ERR_USAGE, "interval", "an interval of 0 ns");
    refused(0, 1000, 0, GP_ERR_USAGE, "room for 0 samples", "room for no sample");
    refused(-1, 1000, 100, GP_ERR_USAGE, "no device -1", "a negative device");
#if SIZE_MAX > UINT32_MAX
    refused(0, 1000, (size_t)UINT32_MAX + 1, GP_ERR_USAGE, "samples (1 to",
            "more samples than a counter data image holds");
#endif
    /* No machine has device 4096: the driver, or its absence, says so through CUPTI. */
    unsigned users = gp_cupti_profiler_users();
    gp_clear_error();
    gp_pm_sampler *s = NULL;
    int rc = gp_pm_sampler_open(4096, 1000, 100, &s);
    bool ok = rc != GP_OK && s == NULL && gp_error()[0] != '\0';
    if (!ok)
        tap_diag("rc %d, message: %s", rc, gp_error());
    tap_ok(ok, "pm sampler: device 4096 fails with a message");
    tap_ok(gp_cupti_profiler_users() == users,
           "pm sampler: the failed open released CUPTI's profiler API (%u users, %u before)",
           gp_cupti_profiler_users(), users);
    gp_pm_sampler_close(NULL);
    tap_ok(true, "pm sampler: closing NULL does nothing");
}

/* Device 0: on a machine without a GPU (or driver), a clean failure; with one, a sampler
 * that closes. Either way nothing is left held. */
static void test_device_zero(void)
{
    gp_clear_error();
    gp_pm_sampler *s = NULL;
    int rc = gp_pm_sampler_open(0, 1000, 100, &s);
    if (rc == GP_OK) {
        tap_ok(s != NULL, "pm sampler: device 0 opens on this machine (it has a GPU)");
        gp_pm_sampler_close(s);
        return;
    }
    bool ok = s == NULL && gp_error()[0] != '\0' && rc != GP_ERR_USAGE;
    if (!ok)
        tap_diag("rc %d, message: %s", rc, gp_error());
    tap_ok(ok, "pm sampler: device 0 without a usable GPU fails with a message (%s)",
           gp_error());
}

static void test_hardware_buffer(void)
{
    const size_t mib = (size_t)1 << 20;
    tap_ok(gp_pm_sampler_hardware_buffer_bytes(1) == GP_PM_SAMPLER_HW_MIN_BYTES,
           "pm sampler: a small window takes the smallest hardware buffer (16 MiB)");
    tap_ok(gp_pm_sampler_hardware_buffer_bytes(100000) == 196 * mib,
           "pm sampler: 100000 samples take 2 KiB each, in whole MiB (196 MiB)");
    tap_ok(gp_pm_sampler_hardware_buffer_bytes(262144) == GP_PM_SAMPLER_HW_MAX_BYTES &&
               gp_pm_sampler_hardware_buffer_bytes(GP_PM_SAMPLER_MAX_SAMPLES) ==
                   GP_PM_SAMPLER_HW_MAX_BYTES,
           "pm sampler: the hardware buffer stops at 512 MiB");
}

static void test_decode_steps(void)
{
    const struct {
        CUptiResult result;
        int reason;
        bool overflow, progressed;
        gp_pm_decode_step step;
        bool lost;
        const char *what;
    } rows[] = {
        {CUPTI_SUCCESS, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS, false, true,
         GP_PM_DECODED_ALL, false, "end of records: complete"},
        {CUPTI_SUCCESS, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS, true, true,
         GP_PM_DECODED_ALL, true, "end of records after an overflow: lost"},
        {CUPTI_SUCCESS, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL, false, true,
         GP_PM_DECODE_FULL, true, "counter data full: lost, the rest to drop"},
        {CUPTI_SUCCESS, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_OTHER, false, true,
         GP_PM_DECODE_AGAIN, false, "another reason with progress: again"},
        {CUPTI_SUCCESS, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_OTHER, false, false,
         GP_PM_DECODED_ALL, false, "another reason without progress: done"},
        {CUPTI_ERROR_OUT_OF_MEMORY, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_OTHER, false, false,
         GP_PM_DECODED_ALL, true, "hardware buffer overflow (out of memory): lost, not failed"},
        {CUPTI_ERROR_INVALID_OPERATION, CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS,
         false, true, GP_PM_DECODE_FAILED, false, "another error: failed"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool lost = false;
        gp_pm_decode_step step = gp_pm_decode_next(rows[i].result, rows[i].reason,
                                                   rows[i].overflow, rows[i].progressed, &lost);
        tap_ok(step == rows[i].step && lost == rows[i].lost, "pm sampler decode: %s",
               rows[i].what);
    }
}

void test_pm_sampler(void)
{
    test_arguments();
    test_device_zero();
    test_hardware_buffer();
    test_decode_steps();
}
