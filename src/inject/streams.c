/* The private streams of inject/streams.h. */
#include "inject/streams.h"

#include "inject/profiled.h"

#include <cupti.h>

#define MAX_STREAMS 64
#define TEXT_OF(x) #x
#define TEXT(x) TEXT_OF(x)

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

static CUstream make_stream(CUcontext ctx, const char **why)
{
    CUstream s = NULL;
    const CUresult r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        cuGetErrorName(r, why); /* left NULL for an error it does not know */
        return NULL;
    }
    uint32_t id = 0;
    if (cuptiGetStreamIdEx(ctx, s, 0, &id) == CUPTI_SUCCESS)
        gp_profiled_add_stream(id);
    return s;
}

CUstream gp_streams_private(CUcontext ctx, const char **why)
{
    for (size_t i = 0; i < n_streams; i++)
        if (streams[i].ctx == ctx)
            return streams[i].stream;
    if (n_streams == MAX_STREAMS) {
        *why = "gpuprof's library keeps a stream for " TEXT(MAX_STREAMS) " contexts at most";
        return NULL;
    }
    CUstream s = make_stream(ctx, why);
    if (!s)
        return NULL;
    streams[n_streams].ctx = ctx;
    streams[n_streams++].stream = s;
    return s;
}
