/* A kernel command's --stalls of commands/kernel_stalls.h. */
#include "commands/kernel_stalls.h"

#include "gpuprof/commands.h"
#include "gpuprof/device.h"
#include "gpuprof/exec_request.h"
#include "gpuprof/own_views.h"
#include "gpuprof/plan.h"
#include "gpuprof/protocol.h"
#include "gpuprof/runner.h"
#include "gpuprof/status.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool gp_kernel_stalls_child(void)
{
    const char *period = getenv(GP_ENV_STALLS);
    return period && atoi(period) >= GP_STALL_PERIOD_MIN && getenv(GP_ENV_DIR);
}

/* This very gpuprof, whatever its argv[0] said. */
static int self_path(char *path, size_t len)
{
    const ssize_t n = readlink("/proc/self/exe", path, len - 1);
    if (n <= 0)
        return gp_fail(GP_ERR_RUNTIME, "--stalls: gpuprof cannot find its own program "
                                       "(/proc/self/exe) to run it again");
    path[n] = '\0';
    return GP_OK;
}

/* What the counting run needs, and what it found. */
typedef struct {
    const gp_request *req;
    size_t failed;             /* results that FAILED the check in the counting run */
} counting;

/* --source too: the lines counted in this process's own run of the command, once the sampled
 * child has ended (the two never share the GPU: patched code spoils PC sampling), made the
 * report's views beside the child's stalls. A failed check is said in the report, and makes
 * the command fail as a kernel command's does. */
static int count_lines(void *ctx, gp_report *report)
{
    counting *c = ctx;
    gp_request run = *c->req;
    run.stalls = false;
    gp_plan plan;
    GP_TRY(gp_plan_expand(&run, &plan));
    gp_report lines;
    gp_report_init(&lines);
    int rc = gp_run_plan(&run, &plan, &lines, &c->failed, NULL);
    if (rc == GP_OK)
        rc = gp_exec_add_own_views(&report->exec, &lines, (int)getpid());
    for (size_t i = 0; rc == GP_OK && i < lines.n_warnings; i++)
        rc = gp_report_add_warning(report, lines.warnings[i]);
    char checked[160];
    snprintf(checked, sizeof checked, "--source: %zu result%s FAILED the check against the CPU "
             "in the run that counted the lines", c->failed, c->failed == 1 ? "" : "s");
    if (rc == GP_OK && c->failed)
        rc = gp_report_add_warning(report, checked);
    gp_report_free(&lines);
    gp_plan_free(&plan);
    return rc;
}

int gp_kernel_stalls(const gp_request *req, FILE *out, gp_report *report)
{
    char self[PATH_MAX];
    GP_TRY(self_path(self, sizeof self));
    char **argv = calloc((size_t)req->argc + 1, sizeof *argv);
    if (!argv)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    /* The same command line: the child sees --stalls and, knowing itself the child, runs its
     * kernels without counters (cli.c set --metrics=none with --stalls). */
    argv[0] = self;
    for (int i = 1; i < req->argc; i++)
        argv[i] = req->argv[i];
    gp_request exec = *req;
    exec.program = argv;
    exec.program_argc = req->argc;
    exec.family = NULL;
    exec.exec.stalls = true;
    exec.metrics.kind = GP_METRICS_NONE;
    exec.output_file = NULL;
    if (req->source)
        gp_device_use_one_queue(); /* for this process's own run, as the child's */
    counting c = {req, 0};
    const int rc = gp_exec_command_then(&exec, !gp_output_is_text(req->output), out, report,
                                        req->source ? count_lines : NULL, &c);
    free(argv);
    GP_TRY(rc);
    if (c.failed)
        return gp_fail(GP_ERR_RUNTIME, "%zu result%s FAILED the check against the CPU in the "
                       "run that counted the lines", c.failed, c.failed == 1 ? "" : "s");
    return GP_OK;
}
