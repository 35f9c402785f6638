/* gpuprof: parse, run the command's handler, make sure its output was written; the only
 * place that prints errors or exits. */
#include "gpuprof/cli.h"
#include "gpuprof/commands.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <errno.h>
#include <stdbool.h>
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

/* Each warning once, with how many times the report holds it: a saved report's warnings are
 * printed by every `report` of it, and a merge of several runs holds each run's. */
static void print_warnings(const gp_report *r)
{
    for (size_t i = 0; i < r->n_warnings; i++) {
        size_t times = 0;
        bool seen = false;
        for (size_t j = 0; j < r->n_warnings && !seen; j++)
            if (strcmp(r->warnings[j], r->warnings[i]) == 0) {
                seen = j < i;
                times++;
            }
        if (seen)
            continue;
        if (times > 1)
            fprintf(stderr, "gpuprof: warning: %s (%zu times)\n", r->warnings[i], times);
        else
            fprintf(stderr, "gpuprof: warning: %s\n", r->warnings[i]);
    }
}

int main(int argc, char **argv)
{
    gp_request req;
    gp_report report;
    gp_report_init(&report);
    int rc = gp_parse_command_line(argc, argv, &req);
    if (rc == GP_OK)
        rc = check_output(stdout, req.command->run(&req, stdout, &report));
    print_warnings(&report);
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
