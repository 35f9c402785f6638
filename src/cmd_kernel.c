/* reduce, transpose, reduce2d, saxpy: run, render, and turn failed checks into exit 1. */
#include "gpuprof/commands.h"

#include "gpuprof/runner.h"
#include "gpuprof/status.h"

int gp_render(const gp_request *req, FILE *out, const gp_report *report)
{
    gp_render_options o = {req->no_header, req->metrics_detail};
    switch (req->output) {
    case GP_OUT_JSON: return gp_render_json(out, report);
    case GP_OUT_CSV: return gp_render_csv(out, report, &o);
    case GP_OUT_TEXT: break;
    }
    return gp_render_text(out, report, &o);
}

int gp_cmd_kernel(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(gp_report_set_command_line(report, req->argc, req->argv));
    size_t failed = 0;
    GP_TRY(gp_run_kernels(req, report, &failed));
    GP_TRY(gp_render(req, out, report));
    if (fflush(out) != 0)
        return gp_fail(GP_ERR_RUNTIME, "writing the results failed");
    if (failed)
        return gp_fail(GP_ERR_RUNTIME, "%zu result%s FAILED the check against the CPU", failed,
                       failed == 1 ? "" : "s");
    if (req->require_metrics && report->profiler.state != GP_PROF_OK)
        return gp_fail(GP_ERR_RUNTIME, "--require-metrics: %s", report->profiler.reason);
    return GP_OK;
}
