/* report FILE: render a saved JSON report again, as text, JSON or CSV. */
#include "gpuprof/commands.h"

#include "gpuprof/status.h"

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(gp_report_read_json(req->operands[0], report));
    return gp_render(req, out, report);
}
