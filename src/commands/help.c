/* help and version, and the `--help` text, generated from the command, option, family and
 * variant tables. */
#include "gpuprof/commands.h"

#include "gpuprof/registry.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <string.h>

void gp_print_usage(FILE *out)
{
    size_t n_families, n_commands;
    const gp_family *families = gp_family_table(&n_families);
    const gp_command_def *cmds = gp_command_table(&n_commands);
    fprintf(out, "gpuprof %s - how well does a CUDA kernel use memory?\n\n", GPUPROF_VERSION);
    fprintf(out, "Usage: gpuprof <command> [options]\n"
                 "       gpuprof <command> --help\n"
                 "       gpuprof --help | --version\n\nCommands:\n");
    for (size_t i = 0; i < n_families; i++)
        fprintf(out, "  %-10s %s\n", families[i].name, families[i].command_summary);
    for (size_t i = 0; i < n_commands; i++) {
        char line[512];
        snprintf(line, sizeof line, "  %-10s %s", cmds[i].name, cmds[i].summary);
        gp_render_wrapped(out, line, 13);
    }
    fprintf(out, "\nOptions are GNU-style long options: --block=512 or --block 512; an\n"
                 "unambiguous prefix such as --var works too.\n"
                 "\nExit status: 0 success; 1 runtime failure (CUDA, CUPTI, wrong result, I/O);\n"
                 "2 usage error; 3 no usable CUDA device or driver.\n"
                 "\nSee gpuprof(1) for the metrics, the output formats and examples.\n");
}

static void print_option(FILE *out, gp_option_id id)
{
    const gp_option_def *o = gp_option(id);
    char left[40], line[1024];
    if (o->arg)
        snprintf(left, sizeof left, "--%s=%s", o->name, o->arg);
    else
        snprintf(left, sizeof left, "--%s", o->name);
    snprintf(line, sizeof line, "  %-22s %s", left, o->help);
    gp_render_wrapped(out, line, 25);
}

static void print_variants(FILE *out, const gp_family *f)
{
    fprintf(out, "\nVariants (%s):\n", f->summary);
    for (size_t i = 0; i < f->n_variants; i++) {
        const gp_variant *v = &f->variants[i];
        char blocks[96], def[32];
        gp_describe_blocks(f, v, blocks, sizeof blocks);
        gp_format_block(v->default_block, f->two_d, def, sizeof def);
        char line[512];
        snprintf(line, sizeof line, "  %-22s %s", v->name, v->summary);
        gp_render_wrapped(out, line, 25);
        fprintf(out, "  %-22s blocks %s; default %s\n", "", blocks, def);
    }
}

/* The command's options, the family's own among them just before --help. */
void gp_print_command_help(FILE *out, const gp_command_def *cmd, const gp_family *family)
{
    const char *name = family ? family->name : cmd->name;
    const char *summary = family ? family->command_summary : cmd->summary;
    fprintf(out, "Usage: gpuprof %s [options]%s%s\n%s\n\nOptions:\n", name,
            cmd->operands ? " " : "", cmd->operands ? cmd->operands : "", summary);
    for (size_t i = 0; i < cmd->n_options; i++) {
        if (cmd->options[i] == OPT_HELP)
            for (size_t k = 0; family && k < family->n_options; k++)
                print_option(out, family->options[k]);
        print_option(out, cmd->options[i]);
    }
    if (family)
        print_variants(out, family);
}

int gp_cmd_help(const gp_request *req, FILE *out, gp_report *report)
{
    (void)report;
    const char *topic = req->help_topic ? req->help_topic
                        : req->n_operands ? req->operands[0]
                                          : NULL;
    if (!topic || strcmp(topic, "help") == 0) {
        gp_print_usage(out);
        return GP_OK;
    }
    const gp_family *family;
    const gp_command_def *cmd = gp_find_command(topic, &family);
    if (!cmd)
        return gp_fail(GP_ERR_USAGE, "no help for unknown command '%s'", topic);
    gp_print_command_help(out, cmd, family);
    return GP_OK;
}

int gp_cmd_version(const gp_request *req, FILE *out, gp_report *report)
{
    (void)req;
    (void)report;
    fprintf(out, "gpuprof %s\n", GPUPROF_VERSION);
    return GP_OK;
}
