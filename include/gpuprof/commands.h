/* The command table: one row per command with its options and its handler. Kernel commands
 * share one row and take their name, summary and own options from their family's row. Each
 * handler writes its output to `out`, its warnings into `report`, and returns a status;
 * main() dispatches, checks that the output was written, prints errors and exits. */
#ifndef GPUPROF_COMMANDS_H
#define GPUPROF_COMMANDS_H

#include "gpuprof/options.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdio.h>

typedef int (*gp_command_fn)(const gp_request *req, FILE *out, gp_report *report);

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
    int trouble_status;        /* the exit status of any failure, where 1 means something
                                  else (compare: a regression); 0: the failure's own */
    gp_command_fn run;
} gp_command_def;

const gp_command_def *gp_command_table(size_t *count);
/* The command called `name`: a row of the table, or the kernel row with *family set to the
 * family of that name (*family is NULL for the other commands). NULL when there is none. */
const gp_command_def *gp_find_command(const char *name, const gp_family **family);
/* Whether the command (of that family, for a kernel command) takes the option. */
bool gp_command_takes(const gp_command_def *cmd, const gp_family *family, gp_option_id id);
/* "reduce, transpose, …, list, device, …": every command's name. */
void gp_list_command_names(char *buf, size_t len);

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

/* Help text: the whole tool, or one command (of that family, for a kernel command). */
void gp_print_usage(FILE *out);
void gp_print_command_help(FILE *out, const gp_command_def *cmd, const gp_family *family);

#endif
