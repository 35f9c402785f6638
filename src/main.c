/* gpuprof: parse, run the command's handler, make sure its output was written; the only
 * place that prints errors or exits. */
#include "gpuprof/cli.h"
#include "gpuprof/commands.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Everything a command wrote reached standard output: a write error (a full disk, a closed
 * pipe) is the run's failure, whatever the command returned. */
static int check_output(FILE *out, int rc)
{
    errno = 0;
    if (fflush(out) == 0 && !ferror(out))
        return rc;
    const int e = errno;
    return gp_fail(GP_ERR_RUNTIME, "cannot write the output: %s",
                   e ? strerror(e) : "write error");
}

int main(int argc, char **argv)
{
    gp_request req;
    gp_report report;
    gp_report_init(&report);
    int rc = gp_parse_command_line(argc, argv, &req);
    if (rc == GP_OK)
        rc = check_output(stdout, req.command->run(&req, stdout, &report));
    for (size_t i = 0; i < report.n_warnings; i++)
        fprintf(stderr, "gpuprof: warning: %s\n", report.warnings[i]);
    if (rc != GP_OK) {
        fprintf(stderr, "gpuprof: %s\n", gp_error()[0] ? gp_error() : "unknown error");
        if (gp_hint()[0])
            fprintf(stderr, "gpuprof: hint: %s\n", gp_hint());
    }
    if (rc == GP_OK)
        rc = report.exit_status; /* exec: the program's own status; compare: a regression */
    else if (req.command && req.command->trouble_status && rc != GP_ERR_USAGE)
        rc = req.command->trouble_status;
    gp_report_free(&report);
    return rc;
}
