/* gpuprof: the command table's dispatcher, and the only place that prints errors or exits. */
#include "gpuprof/cli.h"
#include "gpuprof/commands.h"
#include "gpuprof/device.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int help(const gp_request *req)
{
    if (req->help_topic) {
        const gp_command_def *cmd = gp_find_command(req->help_topic);
        if (!cmd)
            return gp_fail(GP_ERR_USAGE, "no help for unknown command '%s'", req->help_topic);
        gp_print_command_help(stdout, cmd);
    } else {
        gp_print_usage(stdout);
    }
    return GP_OK;
}

static int dispatch(const gp_request *req, gp_report *report)
{
    switch (req->command) {
    case GP_CMD_HELP: return help(req);
    case GP_CMD_VERSION: printf("gpuprof %s\n", GPUPROF_VERSION); return GP_OK;
    case GP_CMD_KERNEL: return gp_cmd_kernel(req, stdout, report);
    case GP_CMD_LIST: return gp_cmd_list(req, stdout);
    case GP_CMD_DEVICE: return gp_cmd_device(req, stdout);
    case GP_CMD_METRICS: return gp_cmd_metrics(req, stdout, report);
    case GP_CMD_REPORT: return gp_cmd_report(req, stdout, report);
    case GP_CMD_NONE: break;
    }
    return gp_fail(GP_ERR_USAGE, "no command given (see 'gpuprof --help')");
}

int main(int argc, char **argv)
{
    gp_request req;
    gp_report report;
    gp_report_init(&report);
    gp_device_use_one_queue();
    int rc = gp_parse_command_line(argc, argv, &req);
    if (rc == GP_OK)
        rc = dispatch(&req, &report);
    fflush(stdout);
    for (size_t i = 0; i < report.n_warnings; i++)
        fprintf(stderr, "gpuprof: warning: %s\n", report.warnings[i]);
    if (rc != GP_OK) {
        fprintf(stderr, "gpuprof: %s\n", gp_error()[0] ? gp_error() : "unknown error");
        if (gp_hint()[0])
            fprintf(stderr, "gpuprof: hint: %s\n", gp_hint());
    }
    gp_report_free(&report);
    return rc;
}
