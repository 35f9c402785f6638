/* `--help` text, generated from the command, option and variant tables. */
#include "gpuprof/cli.h"

#include "gpuprof/registry.h"

#include <string.h>

void gp_print_usage(FILE *out)
{
    size_t n;
    const gp_command_def *cmds = gp_command_table(&n);
    fprintf(out, "gpuprof %s - how well does a CUDA kernel use memory?\n\n", GPUPROF_VERSION);
    fprintf(out, "Usage: gpuprof <command> [options]\n"
                 "       gpuprof <command> --help\n"
                 "       gpuprof --help | --version\n\nCommands:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(out, "\nOptions are GNU-style long options: --block=512 or --block 512; an\n"
                 "unambiguous prefix such as --var works too.\n"
                 "\nExit status: 0 success; 1 runtime failure (CUDA, CUPTI, wrong result, I/O);\n"
                 "2 usage error; 3 no usable CUDA device or driver.\n"
                 "\nSee gpuprof(1) for the metrics, the output formats and examples.\n");
}

static void print_option(FILE *out, const gp_option_def *o)
{
    char left[40];
    if (o->arg)
        snprintf(left, sizeof left, "--%s=%s", o->name, o->arg);
    else
        snprintf(left, sizeof left, "--%s", o->name);
    fprintf(out, "  %-22s %s\n", left, o->help);
}

static void print_variants(FILE *out, gp_family family)
{
    const gp_variant *vs[64];
    size_t n = gp_family_variants(family, vs, 64);
    fprintf(out, "\nVariants (%s):\n", gp_family_summary(family));
    for (size_t i = 0; i < n && i < 64; i++) {
        char blocks[96], def[32];
        gp_describe_blocks(vs[i], blocks, sizeof blocks);
        gp_format_block(vs[i]->default_block, gp_family_is_2d(family), def, sizeof def);
        fprintf(out, "  %-22s %s\n  %-22s blocks %s; default %s\n", vs[i]->name,
                vs[i]->summary, "", blocks, def);
    }
}

void gp_print_command_help(FILE *out, const gp_command_def *cmd)
{
    fprintf(out, "Usage: gpuprof %s [options]%s%s\n%s\n\nOptions:\n", cmd->name,
            cmd->operands ? " " : "", cmd->operands ? cmd->operands : "", cmd->summary);
    for (size_t i = 0; i < cmd->n_options; i++)
        print_option(out, gp_option(cmd->options[i]));
    if (cmd->command == GP_CMD_KERNEL)
        print_variants(out, (gp_family)cmd->family);
}
