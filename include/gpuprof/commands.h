/* A command: its row of the command table (src/cli/command_table.c: its options and its
 * handler; kernel commands share one row and take their name, summary and own options from
 * their family's row), and the handlers (src/commands/cmd_*.c; help and version are the
 * command line's own, src/cli/help.c). Each handler writes its output to `out` through a
 * renderer, its warnings into `report`, and returns a status; main() dispatches, checks that
 * the output was written, prints errors and exits. */
#ifndef GPUPROF_COMMANDS_H
#define GPUPROF_COMMANDS_H

#include "gpuprof/options.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdio.h>

typedef int (*gp_command_fn)(const gp_request *req, FILE *out, gp_report *report);

/* An option a command does not take but people reach for, with the way to what they want
 * (exec --html: the page is report's): the usage error says it, and so does the command's
 * --help. */
typedef struct {
    gp_option_id option;
    const char *instead;
} gp_option_refusal;

typedef struct gp_command_def {
    const char *name;          /* NULL: the kernel commands' row, named after each family */
    const char *summary;
    const char *operands;      /* usage of the operands, e.g. "FILE"; NULL: none */
    size_t min_operands, max_operands;
    const gp_option_id *options;
    size_t n_options;
    bool device_optional;      /* without --device, device index -1: device describes every
                                  GPU, metrics the first if there is one */
    bool program_operands;     /* the first operand starts a program's command line: what
                                  follows it is the program's, options included */
    const gp_option_refusal *refusals;   /* options it does not take, told the way instead */
    size_t n_refusals;
    int trouble_status;        /* the exit status of any failure, where 1 means something
                                  else (compare: a regression); 0: the failure's own */
    gp_command_fn run;
} gp_command_def;

/* The handlers. */
int gp_cmd_kernel(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_list(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_device(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_metrics(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_compare(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_help(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_version(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_exec(const gp_request *req, FILE *out, gp_report *report);
/* exec's work for a request that names its program (req->program): `quiet_stdout` sends the
 * program's standard output to /dev/null (a kernel command's --stalls run in a child, whose
 * own report would break a JSON or CSV one). */
int gp_exec_command(const gp_request *req, bool quiet_stdout, FILE *out, gp_report *report);
/* The same, with `then` (ctx its own) given the report once the program has ended, before it
 * is written: a kernel command's --source --stalls counts its lines there. */
typedef int gp_exec_then(void *ctx, gp_report *report);
int gp_exec_command_then(const gp_request *req, bool quiet_stdout, FILE *out, gp_report *report,
                         gp_exec_then *then, void *ctx);

#endif
