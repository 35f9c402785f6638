/* The command table: each command's operands, options and handler. The kernel commands share
 * one row; their names, summaries and own options come from the family table. */
#include "cli/command_table.h"

#include <stdio.h>
#include <string.h>

/* Options of every kernel command; each family adds its own (--type, --pad, …). */
static const gp_command_def kernel_command = {
    .summary = "time, check and profile a family's kernels",
    GP_OPTION_LIST(options, n_options, OPT_VARIANT, OPT_BLOCK, OPT_SIZE, OPT_REPEAT,
                   OPT_WARMUP, OPT_MAX_NOISE, OPT_DEVICE, OPT_SEED, OPT_JSON, OPT_CSV,
                   OPT_HTML, OPT_MARKDOWN, OPT_NO_HEADER, OPT_CSV_COLUMNS, OPT_METRICS,
                   OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS, OPT_SOURCE, OPT_SASS, OPT_STALLS,
                   OPT_STALL_PERIOD, OPT_WIDE, OPT_KERNEL_NAME, OPT_HELP),
    .run = gp_cmd_kernel,
};

static const gp_command_def commands[] = {
    {.name = "list", .summary = "list every kernel family and variant",
     GP_OPTION_LIST(options, n_options, OPT_JSON, OPT_CSV, OPT_MARKDOWN, OPT_NO_HEADER,
                    OPT_WIDE, OPT_HELP),
     .run = gp_cmd_list},
    {.name = "device",
     .summary = "describe the GPUs: clocks, memory, peak and measured copy bandwidth",
     GP_OPTION_LIST(options, n_options, OPT_DEVICE, OPT_JSON, OPT_MARKDOWN, OPT_HELP),
     .device_optional = true,
     .run = gp_cmd_device},
    {.name = "metrics", .summary = "the metric catalogue, and which metrics a GPU or chip provides",
     GP_OPTION_LIST(options, n_options, OPT_CHIP, OPT_DEVICE, OPT_JSON, OPT_MARKDOWN,
                    OPT_HELP),
     .device_optional = true, .run = gp_cmd_metrics},
    {.name = "report",
     .summary = "render saved JSON reports, several merged into one (a distributed job's "
                "ranks side by side), in any output format",
     .operands = "FILE...", .min_operands = 1, .max_operands = GP_MAX_OPERANDS,
     GP_OPTION_LIST(options, n_options, OPT_JSON, OPT_CSV, OPT_HTML, OPT_MARKDOWN,
                    OPT_NO_HEADER, OPT_CSV_COLUMNS, OPT_LAUNCHES, OPT_BY_RANK, OPT_BY_RANGE, OPT_METRICS_DETAIL,
                    OPT_SOURCE, OPT_STALLS,
                    OPT_SASS, OPT_WIDE, OPT_KERNEL_NAME, OPT_HELP),
     .run = gp_cmd_report},
    {.name = "compare",
     .summary = "compare two saved reports: time, GB/s and metrics side by side, and whether "
                "anything got significantly slower",
     .operands = "BASE NEW", .min_operands = 2, .max_operands = 2,
     GP_OPTION_LIST(options, n_options, OPT_THRESHOLD, OPT_JSON, OPT_CSV, OPT_HTML,
                    OPT_MARKDOWN, OPT_NO_HEADER, OPT_WIDE, OPT_HELP),
     .trouble_status = 2, .run = gp_cmd_compare},
    {.name = "exec", .summary = "run a CUDA program and profile its kernels, as nvprof did",
     .operands = "[--] PROGRAM [ARGS...]", .min_operands = 1, .max_operands = 1,
     .program_operands = true,
     GP_OPTION_LIST(options, n_options, OPT_METRICS, OPT_KERNEL, OPT_LAUNCH_SKIP,
                    OPT_LAUNCH_COUNT, OPT_PER_KERNEL, OPT_LAUNCHES, OPT_BY_RANGE, OPT_JSON, OPT_CSV,
                    OPT_MARKDOWN, OPT_NO_HEADER, OPT_CSV_COLUMNS, OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS,
                    OPT_OUTPUT, OPT_FORCE, OPT_FOLLOW_CHILDREN, OPT_REPLAY, OPT_GRAPH_PROFILING,
                    OPT_GRAPH_SAMPLES, OPT_SOURCE, OPT_SASS, OPT_NVTX, OPT_NVTX_INCLUDE,
                    OPT_NVTX_EXCLUDE, OPT_STALLS, OPT_STALL_PERIOD,
                    OPT_RANK, OPT_WIDE,
                    OPT_KERNEL_NAME, OPT_HELP),
     /* The page is written whole from a saved report; exec's own is written while it runs. */
     .refusals = (const gp_option_refusal[]){
         {OPT_HTML, "for the page, save the report as JSON (--json --output=r.json), then "
                    "run 'gpuprof report r.json --html'"}},
     .n_refusals = 1,
     .run = gp_cmd_exec},
    {.name = "help", .summary = "show the help of gpuprof or of a command",
     .operands = "[COMMAND]", .max_operands = 1, GP_OPTION_LIST(options, n_options, OPT_HELP),
     .run = gp_cmd_help},
    {.name = "version", .summary = "print the version",
     GP_OPTION_LIST(options, n_options, OPT_HELP), .run = gp_cmd_version},
};

const gp_command_def *gp_command_table(size_t *count)
{
    *count = sizeof commands / sizeof commands[0];
    return commands;
}

const gp_command_def *gp_find_command(const char *name, const gp_family **family)
{
    *family = gp_find_family(name);
    if (*family)
        return &kernel_command;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

bool gp_command_takes(const gp_command_def *cmd, const gp_family *family, gp_option_id id)
{
    for (size_t i = 0; i < cmd->n_options; i++)
        if (cmd->options[i] == id)
            return true;
    return family && gp_family_has_option(family, id);
}

void gp_list_command_names(char *buf, size_t len)
{
    size_t n;
    const gp_family *families = gp_family_table(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s, ", families[i].name);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", commands[i].name,
                 i + 1 < sizeof commands / sizeof commands[0] ? ", " : "");
    }
}
