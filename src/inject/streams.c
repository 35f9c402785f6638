/* The private streams of inject/streams.h. */
#include "inject/streams.h"

#include "inject/profiled.h"
#include "inject/record.h"

#include <cupti.h>
#include <stdio.h>

#define MAX_STREAMS 64

/* Each context's private stream. Guard: the launch lock. */
static struct {
    CUcontext ctx;
    CUstream stream;
} streams[MAX_STREAMS];
static size_t n_streams; /* Guard: the launch lock */

void gp_streams_forget(CUcontext ctx)
{
    for (size_t i = 0; i < n_streams; i++)
        if (streams[i].ctx == ctx) {
            streams[i] = streams[--n_streams]; /* the stream goes with its context */
            return;
        }
}

/* The words of graph_launches.c's other failures of shadow launches. */
static void warn_no_stream(const char *why)
{
    char text[256];
    snprintf(text, sizeof text, "creating a stream for shadow launches failed (%s): a graph "
             "launch's kernel nodes were not shadow-launched", why);
    gp_record_warning(text, NULL);
}

static CUstream make_stream(CUcontext ctx)
{
    CUstream s = NULL;
    const CUresult r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        const char *name = NULL;
        cuGetErrorName(r, &name);
        warn_no_stream(name ? name : "cuStreamCreate failed");
        return NULL;
    }
    uint32_t id = 0;
    if (cuptiGetStreamIdEx(ctx, s, 0, &id) == CUPTI_SUCCESS)
        gp_profiled_add_stream(id);
    return s;
}

CUstream gp_streams_private(CUcontext ctx)
{
    for (size_t i = 0; i < n_streams; i++)
        if (streams[i].ctx == ctx)
            return streams[i].stream;
    if (n_streams == MAX_STREAMS) {
        char why[96];
        snprintf(why, sizeof why, "gpuprof's library keeps a stream for %d contexts at most",
                 MAX_STREAMS);
        warn_no_stream(why);
        return NULL;
    }
    CUstream s = make_stream(ctx);
    if (!s)
        return NULL;
    streams[n_streams].ctx = ctx;
    streams[n_streams++].stream = s;
    return s;
}
