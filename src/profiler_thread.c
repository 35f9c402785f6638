/* Opening the profiler on a thread of its own: CUPTI's set-up (about a tenth of a second
 * on an H100) runs while the caller creates the CUDA context and builds the problem's data. */
#include "gpuprof/profiler.h"

#include "gpuprof/status.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gp_profiler_opener {
    pthread_t thread;
    int device;
    const gp_metrics_request *request;
    gp_profile_plan plan;
    gp_profiler *profiler;
    gp_profiler_info info;
    int rc;
    char error[512];
    char hint[512];
};

static void *open_on_thread(void *arg)
{
    gp_profiler_opener *o = arg;
    o->rc = gp_profiler_open(o->device, o->request, &o->plan, &o->profiler, &o->info);
    /* The error channel is per thread: carry the message over to the waiting one. */
    snprintf(o->error, sizeof o->error, "%s", gp_error());
    snprintf(o->hint, sizeof o->hint, "%s", gp_hint());
    return NULL;
}

int gp_profiler_open_async(int device, const gp_metrics_request *request,
                           const gp_profile_plan *plan, gp_profiler_opener **out)
{
    gp_profiler_opener *o = calloc(1, sizeof *o);
    if (!o)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    o->device = device;
    o->request = request;
    o->plan = *plan;
    int e = pthread_create(&o->thread, NULL, open_on_thread, o);
    if (e != 0) {
        free(o);
        return gp_fail(GP_ERR_RUNTIME, "cannot start a thread to open the profiler (error %d)",
                       e);
    }
    *out = o;
    return GP_OK;
}

int gp_profiler_open_wait(gp_profiler_opener *o, gp_profiler **out, gp_profiler_info *info)
{
    pthread_join(o->thread, NULL);
    int rc = o->rc;
    *out = o->profiler;
    *info = o->info;
    if (rc != GP_OK) {
        gp_fail(rc, "%s", o->error);
        if (o->hint[0])
            gp_set_hint("%s", o->hint);
    }
    free(o);
    return rc;
}

void gp_profiler_open_cancel(gp_profiler_opener *o)
{
    if (!o)
        return;
    pthread_join(o->thread, NULL);
    gp_profiler_close(o->profiler);
    free(o);
}
