/* A kernel command's --stalls of commands/kernel_stalls.h. */
#include "commands/kernel_stalls.h"

#include "gpuprof/commands.h"
#include "gpuprof/exec_request.h"
#include "gpuprof/protocol.h"
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
    const int rc = gp_exec_command(&exec, !gp_output_is_text(req->output), out, report);
    free(argv);
    return rc;
}
