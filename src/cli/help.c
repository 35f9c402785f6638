/* help and version: the `--help` text, generated from the command, option, family and
 * variant tables into a help text (gpuprof/render.h), which a renderer writes. */
#include "cli/command_table.h"

#include "gpuprof/registry.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WRAP_COMMAND 13    /* a command's summary wraps under itself */
#define WRAP_OPTION 25     /* so does an option's or variant's */

/* A line of the text (formatted); indent GP_HELP_AS_IS: written as it is, else wrapped. */
static int add(gp_help_text *h, int indent, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int add(gp_help_text *h, int indent, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return gp_help_add(h, line, indent);
}

static int usage(gp_help_text *h)
{
    size_t n_families, n_commands;
    const gp_family *families = gp_family_table(&n_families);
    const gp_command_def *cmds = gp_command_table(&n_commands);
    GP_TRY(add(h, GP_HELP_AS_IS, "gpuprof %s - how well does a CUDA kernel use memory?\n",
               GPUPROF_VERSION));
    GP_TRY(add(h, GP_HELP_AS_IS, "Usage: gpuprof <command> [options]\n"
                                 "       gpuprof <command> --help\n"
                                 "       gpuprof --help | --version\n\nCommands:"));
    for (size_t i = 0; i < n_families; i++)
        GP_TRY(add(h, GP_HELP_AS_IS, "  %-10s %s", families[i].name,
                   families[i].command_summary));
    for (size_t i = 0; i < n_commands; i++)
        GP_TRY(add(h, WRAP_COMMAND, "  %-10s %s", cmds[i].name, cmds[i].summary));
    return add(h, GP_HELP_AS_IS,
               "\nOptions are GNU-style long options: --block=512 or --block 512; an\n"
               "unambiguous prefix such as --var works too.\n"
               "\nExit status: 0 success; 1 runtime failure (CUDA, CUPTI, wrong result, I/O);\n"
               "2 usage error; 3 no usable CUDA device or driver.\n"
               "\nSee gpuprof(1) for the metrics, the output formats and examples.");
}

static int option(gp_help_text *h, gp_option_id id)
{
    const gp_option_def *o = gp_option(id);
    char left[40];
    if (gp_option_letter(id))
        snprintf(left, sizeof left, "-%c, --%s", gp_option_letter(id), o->name);
    else if (o->arg)
        snprintf(left, sizeof left, "--%s=%s", o->name, o->arg);
    else
        snprintf(left, sizeof left, "--%s", o->name);
    return add(h, WRAP_OPTION, "  %-22s %s", left, o->help);
}

static int variants(gp_help_text *h, const gp_family *f)
{
    GP_TRY(add(h, GP_HELP_AS_IS, "\nVariants (%s):", f->summary));
    for (size_t i = 0; i < f->n_variants; i++) {
        const gp_variant *v = &f->variants[i];
        char blocks[96], def[32];
        gp_describe_blocks(f, v, blocks, sizeof blocks);
        gp_describe_default_block(f, v, def, sizeof def);
        GP_TRY(add(h, WRAP_OPTION, "  %-22s %s", v->name, v->summary));
        if (v->flags & GP_VF_LIBRARY)   /* no block of its own to choose */
            GP_TRY(add(h, GP_HELP_AS_IS, "  %-22s blocks %s", "", blocks));
        else
            GP_TRY(add(h, GP_HELP_AS_IS, "  %-22s blocks %s; default %s", "", blocks, def));
    }
    return GP_OK;
}

/* The command's options, the family's own among them just before --help. */
static int command_help(gp_help_text *h, const gp_command_def *cmd, const gp_family *family)
{
    const char *name = family ? family->name : cmd->name;
    const char *summary = family ? family->command_summary : cmd->summary;
    GP_TRY(add(h, GP_HELP_AS_IS, "Usage: gpuprof %s [options]%s%s\n%s\n\nOptions:", name,
               cmd->operands ? " " : "", cmd->operands ? cmd->operands : "", summary));
    for (size_t i = 0; i < cmd->n_options; i++) {
        if (cmd->options[i] == OPT_HELP)
            for (size_t k = 0; family && k < family->n_options; k++)
                GP_TRY(option(h, family->options[k]));
        GP_TRY(option(h, cmd->options[i]));
    }
    for (size_t i = 0; i < cmd->n_refusals; i++) {   /* an option it does not take, and why */
        GP_TRY(add(h, GP_HELP_AS_IS, "%s", ""));
        GP_TRY(add(h, 2, "No --%s: %s.", gp_option(cmd->refusals[i].option)->name,
                   cmd->refusals[i].instead));
    }
    return family ? variants(h, family) : GP_OK;
}

static int help_of(const char *topic, gp_help_text *h)
{
    if (!topic || strcmp(topic, "help") == 0)
        return usage(h);
    const gp_family *family;
    const gp_command_def *cmd = gp_find_command(topic, &family);
    if (!cmd)
        return gp_fail(GP_ERR_USAGE, "no help for unknown command '%s'", topic);
    return command_help(h, cmd, family);
}

int gp_cmd_help(const gp_request *req, FILE *out, gp_report *report)
{
    (void)report;
    const char *topic = req->help_topic ? req->help_topic
                        : req->n_operands ? req->operands[0]
                                          : NULL;
    gp_help_text h = {0};
    int rc = help_of(topic, &h);
    if (rc == GP_OK)
        rc = gp_render_help(out, &h);
    gp_help_free(&h);
    return rc;
}

int gp_cmd_version(const gp_request *req, FILE *out, gp_report *report)
{
    (void)req;
    (void)report;
    gp_help_text h = {0};
    int rc = add(&h, GP_HELP_AS_IS, "gpuprof %s", GPUPROF_VERSION);
    if (rc == GP_OK)
        rc = gp_render_help(out, &h);
    gp_help_free(&h);
    return rc;
}
