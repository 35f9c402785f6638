/* The kernel commands (one per family): expand, run, render, and turn failed checks into
 * exit 1. */
#include "gpuprof/commands.h"

#include "gpuprof/device.h"
#include "gpuprof/plan.h"
#include "gpuprof/render.h"
#include "gpuprof/runner.h"
#include "gpuprof/status.h"

static int run_and_render(const gp_request *req, const gp_plan *plan, FILE *out,
                          gp_report *report)
{
    size_t failed = 0;
    GP_TRY(gp_run_plan(req, plan, report, &failed));
    GP_TRY(gp_render_report(out, report, gp_render_options_for(req)));
    if (failed)
        return gp_fail(GP_ERR_RUNTIME, "%zu result%s FAILED the check against the CPU", failed,
                       failed == 1 ? "" : "s");
    if (req->require_metrics && report->profiler.state != GP_PROF_OK)
        return gp_fail(GP_ERR_RUNTIME, "--require-metrics: %s", report->profiler.reason);
    return GP_OK;
}

int gp_cmd_kernel(const gp_request *req, FILE *out, gp_report *report)
{
    gp_device_use_one_queue();
    gp_plan plan;
    GP_TRY(gp_plan_expand(req, &plan)); /* every usage error before any device */
    int rc = gp_report_set_command_line(report, req->argc, req->argv);
    if (rc == GP_OK)
        rc = run_and_render(req, &plan, out, report);
    gp_plan_free(&plan);
    return rc;
}
