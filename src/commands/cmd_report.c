/* report FILE...: render saved JSON reports again, as text, JSON, CSV or HTML; several are
 * merged into one, each result labelled with its file. */
#include "gpuprof/commands.h"

#include "gpuprof/render.h"
#include "gpuprof/status.h"

/* The files, one read as it is, several merged. */
static int read_reports(const gp_request *req, gp_report *report)
{
    if (req->n_operands == 1)
        return gp_report_read_json(req->operands[0], report);
    for (size_t i = 0; i < req->n_operands; i++) {
        gp_report part;
        int rc = gp_report_read_json(req->operands[i], &part);
        if (rc == GP_OK)
            rc = gp_report_merge(report, &part, req->operands[i]);
        gp_report_free(&part);
        GP_TRY(rc);
    }
    return GP_OK;
}

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(read_reports(req, report));
    if (req->launches && !report->is_exec)
        return gp_fail(GP_ERR_USAGE, "--launches applies to exec reports only (%s is a report "
                                     "of '%s')", req->operands[0], report->command);
    return gp_render_report(out, report, gp_render_options_for(req));
}
