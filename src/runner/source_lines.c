/* The per-line pass of runner/source_lines.h. */
#include "runner/source_lines.h"

#include "counters/cupti_call.h"
#include "gpuprof/checked_calls.h"
#include "gpuprof/device.h"
#include "gpuprof/source_view.h"
#include "gpuprof/status.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

/* The module-load subscription: the kernel commands' one CUPTI subscriber, while a run counts
 * instructions (HACKING.md, the CUPTI rule); NULL when none. */
static CUpti_SubscriberHandle watcher;

static void CUPTIAPI on_module(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                               const void *params)
{
    (void)data;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED)
        return;
    const CUpti_ResourceData *r = params;
    const CUpti_ModuleResourceData *m = r ? r->resourceDescriptor : NULL;
    if (m && gp_cubins_add(m->pCubin, m->cubinSize) != GP_OK)
        gp_clear_error(); /* that module's lines stay unknown, and the view says so */
}

int gp_source_lines_watch(void)
{
    if (watcher)
        return GP_OK;
    CUpti_SubscriberHandle s;
    CUPTI(cuptiSubscribe(&s, on_module, NULL));
    /* The whole domain, not just module loads: with only that callback enabled, the SASS
     * metrics counted the first flush of the process and nothing after (H100, CUDA 13.0). */
    const CUptiResult r = cuptiEnableDomain(1, s, CUPTI_CB_DOMAIN_RESOURCE);
    if (r != CUPTI_SUCCESS) {
        GP_CHECKED(cuptiUnsubscribe(s), "a CUPTI subscription was left open");
        return gp_cupti_fail(r, "cuptiEnableDomain(...)", __FILE__, __LINE__);
    }
    watcher = s;
    return GP_OK;
}

int gp_source_lines_open(int device, const char *unwatched, gp_report *report,
                         gp_sass_source **out)
{
    *out = NULL;
    char warning[GP_MESSAGE_LEN + 64];
    if (unwatched[0]) { /* the SASS metrics count nothing without the watch (sass_source.h) */
        snprintf(warning, sizeof warning, "--source: no per-line view: %s", unwatched);
        return gp_report_add_warning(report, warning);
    }
    if (gp_sass_source_open(device, out) == GP_OK)
        return GP_OK;
    /* Timing, checks and metrics still run; the lines are missing with the reason. */
    snprintf(warning, sizeof warning, "--source: no per-line view: %s", gp_error());
    gp_clear_error();
    return gp_report_add_warning(report, warning);
}

/* The patched launch, finished. */
static int run_patched(const gp_source_target *t)
{
    GP_TRY(t->launch(t->ctx));
    GP_CUDA(cudaDeviceSynchronize());
    return GP_OK;
}

int gp_source_lines_collect(gp_sass_source *s, int device, const gp_source_target *t,
                            gp_result *res)
{
    void *current = NULL;
    GP_TRY(gp_device_use(device, &current));
    CUcontext ctx = current;
    GP_TRY(t->restore(t->ctx));
    GP_CUDA(cudaDeviceSynchronize());
    GP_TRY(gp_sass_source_start(s, ctx));
    int status = run_patched(t);
    gp_source_instruction *v = NULL;
    size_t n = 0;
    const int stopped = gp_sass_source_stop(s, ctx, &v, &n);
    if (status == GP_OK)
        status = stopped;
    if (status == GP_OK)
        status = gp_source_view_build(v, n, &res->lines, &res->n_line_kernels);
    if (status == GP_OK)
        status = gp_source_view_record(res->lines, res->n_line_kernels);
    gp_source_instructions_free(v, n);
    /* Nothing counted is still a view: the report says --source found no instruction. */
    if (status == GP_OK && !res->lines && !(res->lines = calloc(1, sizeof *res->lines)))
        status = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return status;
}

void gp_source_lines_close(gp_sass_source *s)
{
    gp_sass_source_close(s);
    if (watcher)
        GP_CHECKED(cuptiUnsubscribe(watcher), "a CUPTI subscription was left open");
    watcher = NULL;
    gp_cubins_clear();
}
