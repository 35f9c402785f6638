/* Commands and options: the tables the parser, `--help` and the tests read. */
#ifndef GPUPROF_CLI_H
#define GPUPROF_CLI_H

#include "gpuprof/request.h"

#include <stddef.h>
#include <stdio.h>

typedef enum {
    OPT_VARIANT, OPT_BLOCK, OPT_SIZE, OPT_TYPE, OPT_PAD, OPT_GROUP, OPT_GRID,
    OPT_REPEAT, OPT_WARMUP, OPT_DEVICE, OPT_SEED,
    OPT_JSON, OPT_CSV, OPT_NO_HEADER,
    OPT_METRICS, OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS, OPT_CHIP,
    OPT_HELP,
    OPT_COUNT
} gp_option_id;

typedef struct {
    gp_option_id id;
    const char *name;        /* without the leading "--" */
    const char *arg;         /* NULL: a flag */
    const char *help;
} gp_option_def;

#define GP_MAX_COMMAND_OPTIONS 24

typedef struct {
    const char *name;
    gp_command command;
    int family;              /* gp_family for kernel commands, -1 otherwise */
    const char *operands;    /* e.g. "FILE"; NULL when none */
    size_t n_operands;
    const char *summary;
    gp_option_id options[GP_MAX_COMMAND_OPTIONS];
    size_t n_options;
} gp_command_def;

const gp_command_def *gp_command_table(size_t *count);
const gp_command_def *gp_find_command(const char *name);
const gp_option_def *gp_option(gp_option_id id);

/* Defaults the help text and the parser share. */
#define GP_DEFAULT_REPEAT 20u
#define GP_DEFAULT_WARMUP 3u
#define GP_DEFAULT_SEED 1u
#define GP_DEFAULT_GROUP 16u
#define GP_DEFAULT_ALPHA 2.0f

/* Help text (stdout): the whole tool, or one command. */
void gp_print_usage(FILE *out);
void gp_print_command_help(FILE *out, const gp_command_def *cmd);

#endif
