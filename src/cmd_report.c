/* report FILE: render a saved JSON report again, as text, JSON or CSV. */
#include "gpuprof/commands.h"

#include "gpuprof/status.h"

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(gp_report_read_json(req->files[0], report));
    GP_TRY(gp_render(req, out, report));
    return fflush(out) == 0 ? GP_OK : gp_fail(GP_ERR_RUNTIME, "writing the report failed");
}
