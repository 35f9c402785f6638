/* A kernel command's --source --stalls: the lines its own run counted made the exec report's
 * views (gpuprof/own_views.h). Apart from exec_source.c, which report.c calls to free views:
 * this file names a result (report.c's gp_result_describe), so the two would call each other. */
#include "gpuprof/own_views.h"

#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "counted in gpuprof's own run of <result>, after the sampled one". */
static char *own_note(const gp_result *res)
{
    char what[GP_TEXT_LEN], note[GP_TEXT_LEN + 96];
    gp_result_describe(res, what, sizeof what);
    snprintf(note, sizeof note, "counted in gpuprof's own run of %s, after the sampled one",
             what);
    return strdup(note);
}

static int add_own_view(gp_exec_info *e, gp_source_kernel *k, const gp_result *res, int pid)
{
    gp_exec_source_view *v;
    GP_TRY(gp_exec_add_source_view(e, &v));
    v->view = *k;
    *k = (gp_source_kernel){0};
    v->code = v->view.code;
    v->pid = pid;
    v->launch = GP_OWN_RUN;
    v->note = own_note(res);
    return v->note ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

int gp_exec_add_own_views(gp_exec_info *e, gp_report *from, int pid)
{
    e->request.source = true;
    for (size_t i = 0; i < from->n_results; i++) {
        gp_result *res = &from->results[i];
        for (size_t k = 0; k < res->n_line_kernels; k++)
            GP_TRY(add_own_view(e, &res->lines[k], res, pid));
    }
    return GP_OK;
}
