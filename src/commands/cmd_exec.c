/* exec [options] [--] PROGRAM [ARGS...]: run an unmodified CUDA program with gpuprof's
 * library injected by the driver, then report its kernels: each launch's time, and the
 * metrics of those the filters chose, as the kernel commands report their own. The
 * program's output passes through; gpuprof exits with the program's status. */
#include "gpuprof/commands.h"

#include "commands/output_file.h"
#include "exec/rank.h"
#include "exec/run.h"
#include "gpuprof/device.h"
#include "gpuprof/protocol.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_LEN 4096

/* ---- the request ------------------------------------------------------------------------- */

static void describe_request(const gp_request *req, gp_report *report)
{
    report->is_exec = true;
    snprintf(report->command, sizeof report->command, "exec");
    report->exec.request = req->exec;
    /* --stalls: the report says so even when no context was sampled. */
    report->exec.stalls.sampled = req->exec.stalls;
    if (req->exec.stalls)
        report->exec.stalls.period_log2 =
            req->exec.stall_period ? req->exec.stall_period : GP_STALL_PERIOD_DEFAULT;
    report->profiler.state = GP_PROF_DISABLED;
    snprintf(report->profiler.metric_set, sizeof report->profiler.metric_set, "%s",
             gp_metrics_kind_name(req->metrics.kind));
}

/* What the library is asked to do: the request's metrics and exec request. */
static void options_of(const gp_request *req, const char *library, gp_exec_options *o)
{
    *o = (gp_exec_options){.library = library, .metrics = req->metrics, .request = req->exec};
}

/* ---- the report -------------------------------------------------------------------------------- */

typedef struct {
    const gp_request *req;
    const gp_report *report;
} rendering;

static int render_to(FILE *f, const void *what)
{
    const rendering *r = what;
    return gp_render_report(f, r->report, gp_render_options_for(r->req));
}

/* To standard output (no --output, or --output=-), or whole to --output's file (or not at
 * all). */
static int write_report(const gp_request *req, const char *file, FILE *out,
                        const gp_report *report)
{
    const rendering r = {req, report};
    return file[0] ? gp_output_write(file, render_to, &r) : render_to(out, &r);
}

/* The driver's version, and gpuprof's runtime's (the program's own may be another, linked
 * into it where gpuprof cannot see). */
static int set_versions(gp_exec_info *e)
{
    int driver, runtime;
    GP_TRY(gp_device_versions(&driver, &runtime));
    for (size_t i = 0; i < e->n_devices; i++) {
        e->devices[i].driver_version = driver;
        e->devices[i].runtime_version = runtime;
    }
    return GP_OK;
}

/* --nvtx names gpuprof's library NVTX's tool, in place of one the environment named (nsys's,
 * another profiler's): the report says so, as that tool sees no range then. */
static int note_replaced_nvtx_tool(const gp_request *req, const char *library,
                                   gp_report *report)
{
    const char *other = getenv(GP_ENV_NVTX_INJECTION);
    if (!req->exec.nvtx || !other || !other[0] || strcmp(other, library) == 0)
        return GP_OK;
    char text[PATH_LEN + 160];
    snprintf(text, sizeof text, "--nvtx: %s named %s as NVTX's tool; gpuprof's library took its "
             "place, so that tool saw no ranges", GP_ENV_NVTX_INJECTION, other);
    return gp_report_add_warning(report, text);
}

int gp_exec_command_then(const gp_request *req, bool quiet_stdout, FILE *out, gp_report *report,
                         gp_exec_then *then, void *ctx)
{
    char file[GP_OUTPUT_PATH_LEN] = "", path[PATH_LEN], library[PATH_LEN];
    if (req->output_file && strcmp(req->output_file, "-") != 0) {
        /* Refused now, not after the program has run for an hour. */
        GP_TRY(gp_output_expand(req->output_file, file, sizeof file));
        GP_TRY(gp_output_check(file, req->force));
    }
    GP_TRY(gp_exec_find_program(req->program[0], path, sizeof path));
    int count;
    GP_TRY(gp_device_count(&count));
    GP_TRY(gp_exec_find_library(library, sizeof library));
    GP_TRY(gp_report_set_command_line(report, req->argc, req->argv));
    GP_TRY(gp_exec_set_program(&report->exec, req->program_argc, req->program));
    describe_request(req, report);
    GP_TRY(gp_exec_find_rank(req->exec.rank, getenv, report));
    GP_TRY(note_replaced_nvtx_tool(req, library, report));
    gp_exec_options options;
    options_of(req, library, &options);
    const gp_exec_spawn program = {path, req->program, &options, false, quiet_stdout};
    GP_TRY(gp_exec_run_program(&program, report));
    GP_TRY(set_versions(&report->exec));
    if (report->exec.n_devices) {
        report->has_device = true;
        report->device = report->exec.devices[0];
    }
    if (then)
        GP_TRY(then(ctx, report));
    GP_TRY(write_report(req, file, out, report));
    if (req->require_metrics && report->profiler.state == GP_PROF_UNAVAILABLE)
        return gp_fail(GP_ERR_RUNTIME, "--require-metrics: %s", report->profiler.reason);
    return GP_OK;
}

int gp_exec_command(const gp_request *req, bool quiet_stdout, FILE *out, gp_report *report)
{
    return gp_exec_command_then(req, quiet_stdout, out, report, NULL, NULL);
}

int gp_cmd_exec(const gp_request *req, FILE *out, gp_report *report)
{
    return gp_exec_command(req, false, out, report);
}
