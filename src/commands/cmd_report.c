/* report FILE...: render saved JSON reports again, as text, JSON, CSV or HTML; several are
 * merged into one, each result labelled with its file. */
#include "gpuprof/commands.h"

#include "gpuprof/render.h"
#include "gpuprof/status.h"

/* The report rendered; --launches (a row per launch) is for exec reports only. */
static int render(const gp_request *req, FILE *out, const gp_report *report)
{
    if (req->launches && !report->is_exec)
        return gp_fail(GP_ERR_USAGE, "--launches applies to exec reports only");
    return gp_render_report(out, report, gp_render_options_for(req));
}

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    if (req->n_operands == 1) {
        GP_TRY(gp_report_read_json(req->operands[0], report));
        return render(req, out, report);
    }
    for (size_t i = 0; i < req->n_operands; i++) {
        gp_report part;
        int rc = gp_report_read_json(req->operands[i], &part);
        if (rc == GP_OK)
            rc = gp_report_merge(report, &part, req->operands[i]);
        gp_report_free(&part);
        GP_TRY(rc);
    }
    return render(req, out, report);
}
