/* Opening the collector on a thread of its own: CUPTI's set-up (about a tenth of a second)
 * runs while the caller creates the CUDA context and builds the problem's data. */
#include "runner/collector_opening.h"

#include "gpuprof/device.h"
#include "gpuprof/status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gp_collector_opener {
    pthread_t thread;
    int device;
    const gp_metrics_request *request;
    size_t ranges;
    gp_collector *collector;
    int rc;
    char error[GP_MESSAGE_LEN];
    char hint[GP_MESSAGE_LEN];
};

/* CUPTI first, then the context: what needs none overlaps the caller's creating it. But
 * not before the device is known to exist: with none visible (CUDA_VISIBLE_DEVICES="" on a
 * machine with GPUs), CUPTI 13.0's set-up crashes inside the driver (measured on an H100,
 * driver 580), so the runtime is asked first and its "no device" ends the thread cleanly. */
static int open_and_attach(gp_collector_opener *o)
{
    int count = 0;
    GP_TRY(gp_device_count(&count));
    if (o->device >= count)
        return gp_fail(GP_ERR_NODEVICE, "no CUDA device %d (%d visible)", o->device, count);
    GP_TRY(gp_collector_open(o->device, o->request, &o->collector));
    void *context = NULL;
    GP_TRY(gp_device_use(o->device, &context)); /* this thread may not have used it yet */
    return gp_collector_attach(o->collector, context, GP_REPLAY_USER, o->ranges);
}

static void *open_on_thread(void *arg)
{
    gp_collector_opener *o = arg;
    o->rc = open_and_attach(o);
    if (o->rc != GP_OK) {
        /* The error channel is per thread: carry the message over to the waiting one. */
        snprintf(o->error, sizeof o->error, "%s", gp_error());
        snprintf(o->hint, sizeof o->hint, "%s", gp_hint());
        gp_collector_close(o->collector);
        o->collector = NULL;
    }
    return NULL;
}

int gp_collector_open_async(int device, const gp_metrics_request *request, size_t ranges,
                            gp_collector_opener **out)
{
    gp_collector_opener *o = malloc(sizeof *o);
    if (!o)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *o = (gp_collector_opener){.device = device, .request = request, .ranges = ranges};
    int e = pthread_create(&o->thread, NULL, open_on_thread, o);
    if (e != 0) {
        free(o);
        return gp_fail(GP_ERR_RUNTIME, "cannot start a thread to open the profiler (error %d)",
                       e);
    }
    *out = o;
    return GP_OK;
}

int gp_collector_open_wait(gp_collector_opener *o, gp_collector **out)
{
    pthread_join(o->thread, NULL);
    int rc = o->rc;
    *out = o->collector;
    if (rc != GP_OK) {
        gp_fail(rc, "%s", o->error);
        if (o->hint[0])
            gp_set_hint("%s", o->hint);
    }
    free(o);
    return rc;
}

void gp_collector_open_cancel(gp_collector_opener *o)
{
    if (!o)
        return;
    pthread_join(o->thread, NULL);
    gp_collector_close(o->collector);
    free(o);
}
