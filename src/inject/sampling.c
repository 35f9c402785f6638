/* The sampled graph launches of sampling.h, one sampler per device, opened at the device's
 * first sampled graph launch and closed whenever the range profiler needs the device. */
#include "inject/sampling.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/protocol.h"
#include "inject/record.h"
#include "gpuprof/pm_sampler.h"
#include "gpuprof/status.h"

#include <cupti.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_DEVICES 64

typedef struct {
    gp_pm_sampler *sampler;    /* NULL: closed (the range profiler may have the device) */
    bool failed;               /* opening failed once: said, not tried again */
    bool in_window;
    uint32_t context, launch_id;
    uint64_t start_ns;
} device_sampling;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static device_sampling devices[MAX_DEVICES];             /* Guard: lock */

/* The device's state; NULL for a device beyond the table, said once in a warning. */
static device_sampling *device_of(uint32_t device)
{
    static bool said; /* Guard: the launch lock, which every caller holds */
    if (device < MAX_DEVICES)
        return &devices[device];
    if (!said) {
        said = true;
        char text[160];
        snprintf(text, sizeof text, "DRAM traffic of graph launches is not sampled on device "
                 "%u: gpuprof's library samples devices 0 to %d", device, MAX_DEVICES - 1);
        gp_record_warning(text, NULL);
    }
    return NULL;
}

static void say_failure(uint32_t device)
{
    char text[GP_MESSAGE_LEN + 96];
    snprintf(text, sizeof text, "DRAM traffic of graph launches is not sampled on device %u: %s",
             device, gp_error());
    gp_record_warning(text, gp_hint());
}

bool gp_sampling_begin(uint32_t device, uint32_t context, uint32_t launch_id)
{
    device_sampling *d = device_of(device);
    if (!d)
        return false;
    pthread_mutex_lock(&lock);
    bool ok = !d->failed; /* a failure to open is said once, not tried again */
    if (ok && !d->sampler && gp_pm_sampler_open((int)device, GP_SAMPLE_INTERVAL_NS,
                                          GP_SAMPLES_PER_WINDOW, &d->sampler) != GP_OK) {
        d->sampler = NULL;
        d->failed = true;
        say_failure(device);
        ok = false;
    }
    if (ok && gp_pm_sampler_start(d->sampler) != GP_OK) {
        /* Once afresh: CUPTI 13.0 failed some starts of a reused sampler (UNKNOWN). */
        gp_pm_sampler_close(d->sampler);
        if (gp_pm_sampler_open((int)device, GP_SAMPLE_INTERVAL_NS, GP_SAMPLES_PER_WINDOW,
                               &d->sampler) != GP_OK ||
            gp_pm_sampler_start(d->sampler) != GP_OK) {
            say_failure(device);
            ok = false;
        }
    }
    if (ok) {
        d->in_window = true;
        d->context = context;
        d->launch_id = launch_id;
        GP_CHECKED(cuptiGetTimestamp(&d->start_ns),
                   "a PM-sampling window has no start: its graph nodes' samples may be lost");
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

static uint64_t bytes(double v)
{
    return isfinite(v) && v > 0 ? (uint64_t)llround(v) : 0;
}

static void write_window(const device_sampling *d, uint32_t device, const gp_pm_sample *samples,
                         size_t n, bool lost, uint64_t end_ns)
{
    gp_record batch = {0};
    gp_record_add(&batch, GP_RECORD_SAMPLED);
    gp_record_uint(&batch, "id", d->launch_id);
    gp_record_uint(&batch, "context", d->context);
    gp_record_uint(&batch, "device", device);
    gp_record_uint(&batch, "interval_ns", GP_SAMPLE_INTERVAL_NS);
    gp_record_uint(&batch, "start_ns", d->start_ns);
    gp_record_uint(&batch, "end_ns", end_ns);
    gp_record_int(&batch, "complete", !lost);
    gp_record_end_object(&batch);
    for (size_t i = 0; i < n; i++) {
        const uint64_t f[GP_P_FIELDS] = {
            [GP_P_PID] = (uint64_t)getpid(), [GP_P_ID] = d->launch_id, [GP_P_DEVICE] = device,
            [GP_P_START] = samples[i].start_ns, [GP_P_END] = samples[i].end_ns,
            [GP_P_READ] = bytes(samples[i].read_bytes),
            [GP_P_WRITE] = bytes(samples[i].write_bytes)};
        gp_record_numbers_line(&batch, GP_SAMPLE_TAG, f, GP_P_FIELDS);
    }
    gp_record_flush(&batch);
}

void gp_sampling_end(uint32_t device, bool ran)
{
    device_sampling *d = device_of(device);
    if (!d)
        return;
    pthread_mutex_lock(&lock);
    if (d->in_window) {
        d->in_window = false;
        uint64_t end_ns = 0;
        GP_CHECKED(cuptiGetTimestamp(&end_ns),
                   "a PM-sampling window has no end: its graph nodes' samples may be lost");
        const gp_pm_sample *samples = NULL;
        size_t n = 0;
        bool lost = false;
        if (gp_pm_sampler_stop(d->sampler, &samples, &n, &lost) != GP_OK)
            say_failure(device);
        else if (ran)
            write_window(d, device, samples, n, lost, end_ns);
        if (lost) {
            /* CUPTI 13.0 failed the next start of a sampler whose window overflowed
             * (tests/gpu/pm_sampler_check.c): the next window takes a fresh one. */
            gp_pm_sampler_close(d->sampler);
            d->sampler = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
}

void gp_sampling_release(uint32_t device)
{
    device_sampling *d = device_of(device);
    if (!d)
        return;
    pthread_mutex_lock(&lock);
    if (d->sampler && !d->in_window) {
        gp_pm_sampler_close(d->sampler);
        d->sampler = NULL;
    }
    pthread_mutex_unlock(&lock);
}
