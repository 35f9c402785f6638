/* gpuprof exec --source's views in the report: added, freed and copied (gpuprof/report.h),
 * and tied to the report's launches (gpuprof/exec_source.h). */
#include "gpuprof/exec_source.h"

#include "gpuprof/demangle.h"
#include "gpuprof/status.h"

#include <stdlib.h>
#include <string.h>

int gp_exec_add_source_view(gp_exec_info *e, gp_exec_source_view **out)
{
    *out = gp_append_zeroed(&e->source_views, &e->n_source_views, &e->source_view_capacity,
                            sizeof **out);
    if (!*out)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    (*out)->launch = GP_NO_LAUNCH;
    return GP_OK;
}

void gp_exec_source_view_clear(gp_exec_source_view *v)
{
    gp_source_kernel_clear(&v->view);
    free(v->note);
    v->note = NULL;
}

int gp_exec_source_view_copy(const gp_exec_source_view *from, gp_exec_source_view *to)
{
    gp_source_kernel *k;
    *to = *from;
    to->view = (gp_source_kernel){0};
    to->note = NULL;
    GP_TRY(gp_source_view_copy(&from->view, 1, &k));
    to->view = *k;
    free(k);
    to->note = from->note ? strdup(from->note) : NULL;
    if (from->note && !to->note) {
        gp_exec_source_view_clear(to);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    return GP_OK;
}

/* ---- the launches ------------------------------------------------------------------------- */

bool gp_exec_has_source(const gp_exec_info *e)
{
    return e->request.source || e->n_source_views;
}

static bool same_process(const gp_exec_launch *l, const gp_exec_source_view *v)
{
    return l->pid == v->pid && l->input == v->input;
}

/* A launch of the program gpuprof's own run ran, for a view of that run. */
static bool process_of(const gp_exec_launch *l, const gp_exec_source_view *v)
{
    return same_process(l, v) || (v->launch == GP_OWN_RUN && l->input == v->input);
}

static bool of_kernel(const gp_exec_launch *l, const char *mangled)
{
    return strcmp(l->mangled ? l->mangled : l->kernel, mangled) == 0;
}

const gp_exec_launch *gp_exec_source_launch(const gp_exec_info *e, const gp_exec_source_view *v)
{
    /* Of the kernel too: a graph launch's kernel nodes share its id. */
    for (size_t i = 0; v->launch != GP_NO_LAUNCH && i < e->n_launches; i++)
        if (same_process(&e->launches[i], v) && e->launches[i].id == v->launch &&
            of_kernel(&e->launches[i], v->view.kernel))
            return &e->launches[i];
    return NULL;
}

char *gp_exec_source_kernel(const gp_exec_info *e, const gp_exec_source_view *v)
{
    const gp_exec_launch *l = gp_exec_source_launch(e, v);
    for (size_t i = 0; !l && i < e->n_launches; i++)
        if (process_of(&e->launches[i], v) && of_kernel(&e->launches[i], v->view.kernel))
            l = &e->launches[i];
    if (l)
        return strdup(l->kernel);
    char *demangled = gp_demangle(v->view.kernel);
    return demangled ? demangled : strdup(v->view.kernel);
}

unsigned gp_exec_source_variant(const gp_exec_info *e, const gp_exec_source_view *v)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        if (l->code == v->code && of_kernel(l, v->view.kernel))
            return l->variant;
    }
    return 0;
}

uint64_t gp_exec_source_ordinal(const gp_exec_info *e, const gp_exec_source_view *v)
{
    const gp_exec_launch *patched = gp_exec_source_launch(e, v);
    if (!patched)
        return 0;
    uint64_t before = 0;
    for (size_t i = 0; i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        before += same_process(l, v) && l->id < v->launch && of_kernel(l, v->view.kernel);
    }
    return before + 1;
}

bool gp_exec_source_own_run(const gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_source_views; i++)
        if (e->source_views[i].launch == GP_OWN_RUN)
            return true;
    return false;
}
