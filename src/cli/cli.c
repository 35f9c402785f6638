/* Command-line parsing: the command, its GNU-style long options (--opt=value and --opt
 * value, unambiguous prefixes) and its few one-letter flags (-h, exec's -f) read through the
 * option table (option_table.c), its operands, then the checks across options and against
 * the command, family and variant tables, all before any GPU is touched. */
#include "gpuprof/cli.h"

#include "cli/option_table.h"
#include "cli/command_table.h"
#include "gpuprof/compare.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/render.h"
#include "gpuprof/suggest.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- option lookup ------------------------------------------------------------------ */

typedef struct {
    const gp_command_def *cmd;
    const gp_family *family;
    const char *name;          /* the command's name, for messages */
} command_context;

/* The names of the options the command (and its family) takes. */
static size_t option_names(const command_context *cc, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < cc->cmd->n_options && n < max; i++)
        names[n++] = gp_option(cc->cmd->options[i])->name;
    for (size_t i = 0; cc->family && i < cc->family->n_options && n < max; i++)
        names[n++] = gp_option(cc->family->options[i])->name;
    return n;
}

/* Called for each option the command takes. */
static void consider(const gp_option_def *o, const char *name, size_t len,
                     const gp_option_def **exact, const gp_option_def **prefix, int *prefixes)
{
    if (strncmp(o->name, name, len) != 0)
        return;
    if (o->name[len] == '\0') {
        *exact = o;
        return;
    }
    *prefix = o;
    (*prefixes)++;
}

/* The option some command has that is called exactly so; OPT_COUNT for none. */
static gp_option_id option_called(const char *name, size_t len)
{
    for (int id = 0; id < OPT_COUNT; id++) {
        const char *known = gp_option((gp_option_id)id)->name;
        if (strncmp(known, name, len) == 0 && known[len] == '\0')
            return (gp_option_id)id;
    }
    return OPT_COUNT;
}

/* Another command's option, refused: with the way to what it does, where the command's row
 * has one (exec --html). */
static int refuse_option(const command_context *cc, gp_option_id id)
{
    const char *name = gp_option(id)->name;
    for (size_t i = 0; i < cc->cmd->n_refusals; i++)
        if (cc->cmd->refusals[i].option == id)
            return gp_fail(GP_ERR_USAGE, "option '--%s' does not apply to '%s': %s", name,
                           cc->name, cc->cmd->refusals[i].instead);
    return gp_fail(GP_ERR_USAGE, "option '--%s' does not apply to '%s' (see 'gpuprof %s "
                                 "--help')", name, cc->name, cc->name);
}

/* Exact name, else the one option of this command that the name abbreviates. The full name
 * of another command's option abbreviates nothing: `report --metrics` means --metrics, which
 * report does not take, not --metrics-detail. */
static int find_option(const command_context *cc, const char *name, size_t len,
                       const gp_option_def **found)
{
    const gp_option_def *exact = NULL, *prefix = NULL;
    int prefixes = 0;
    for (size_t i = 0; i < cc->cmd->n_options; i++)
        consider(gp_option(cc->cmd->options[i]), name, len, &exact, &prefix, &prefixes);
    for (size_t i = 0; cc->family && i < cc->family->n_options; i++)
        consider(gp_option(cc->family->options[i]), name, len, &exact, &prefix, &prefixes);
    *found = exact ? exact : prefix;
    if (exact)
        return GP_OK;
    const gp_option_id other = option_called(name, len);
    if (other != OPT_COUNT)
        return refuse_option(cc, other);
    if (prefixes == 1)
        return GP_OK;
    if (prefixes > 1)
        return gp_fail(GP_ERR_USAGE, "option '--%.*s' is ambiguous for '%s'", (int)len, name,
                       cc->name);
    const char *names[OPT_COUNT];
    char word[GP_SUGGEST_MAX_LEN + 1], hint[GP_SUGGEST_MAX_LEN + 32];
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    gp_suggest_hint(hint, sizeof hint, "--", word, names, option_names(cc, names, OPT_COUNT));
    return gp_fail(GP_ERR_USAGE, "unknown option '--%.*s' for '%s'%s (see 'gpuprof %s --help')",
                   (int)len, name, cc->name, hint, cc->name);
}

/* Which options were given, for the cross-option checks after parsing. */
typedef struct {
    bool seen[OPT_COUNT];
} given_options;

/* One "--name[=value]" argument (value may come from the next argv entry). */
static int parse_long_option(const command_context *cc, gp_request *req, given_options *given,
                             int argc, char **argv, int *i)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const gp_option_def *o = NULL;
    GP_TRY(find_option(cc, arg, len, &o));
    const char *value = NULL;
    if (o->arg) {
        if (eq)
            value = eq + 1;
        else if (*i + 1 < argc)
            value = argv[++*i];
        else
            return gp_fail(GP_ERR_USAGE, "option --%s needs a value (%s)", o->name, o->arg);
        if (*value == '\0')
            return gp_fail(GP_ERR_USAGE, "option --%s needs a value (%s)", o->name, o->arg);
    } else if (eq) {
        return gp_fail(GP_ERR_USAGE, "option --%s takes no value", o->name);
    }
    given->seen[o->id] = true;
    return gp_option_read(req, o, value);
}

/* A one-letter flag ("-f"): the command's option of that letter (gp_option_letter); "-h" is
 * --help's, whatever the command. */
static int parse_short_option(const command_context *cc, gp_request *req, given_options *given,
                              const char *arg, bool *help)
{
    if (strcmp(arg, "-h") == 0) {
        *help = true;
        return GP_OK;
    }
    for (size_t i = 0; arg[2] == '\0' && i < cc->cmd->n_options; i++) {
        const gp_option_def *o = gp_option(cc->cmd->options[i]);
        if (gp_option_letter(o->id) == arg[1] && !o->arg) {
            given->seen[o->id] = true;
            return gp_option_read(req, o, NULL);
        }
    }
    return gp_fail(GP_ERR_USAGE, "unknown option '%s' for '%s' (options are long: "
                                 "--name=value; see 'gpuprof %s --help')", arg, cc->name,
                   cc->name);
}

static void set_defaults(gp_request *req, const command_context *cc)
{
    req->command = cc->cmd;
    req->family = cc->family;
    req->repeat = GP_DEFAULT_REPEAT;
    req->warmup = GP_DEFAULT_WARMUP;
    req->max_noise_pct = NAN;
    req->threshold_pct = GP_COMPARE_DEFAULT_THRESHOLD;
    req->device = cc->cmd->device_optional ? -1 : 0;
    req->seed = GP_DEFAULT_SEED;
    req->exec = gp_exec_request_default();
}

/* ---- checks after parsing ---------------------------------------------------------------- */

/* Whether the variant takes any of the listed blocks. */
static bool takes_a_block(const gp_request *req, const gp_variant *var)
{
    for (size_t b = 0; b < req->n_blocks; b++)
        if (gp_block_allowed(var, req->blocks[b]))
            return true;
    return false;
}

static int refuse_block(const gp_request *req, const gp_variant *var, gp_dim3 block)
{
    char blk[32], allowed[96];
    gp_format_block(block, req->family->two_d, blk, sizeof blk);
    gp_describe_blocks(req->family, var, allowed, sizeof allowed);
    return gp_fail(GP_ERR_USAGE, "block %s is not allowed for %s %s (allowed: %s)", blk,
                   req->family->name, var->name, allowed);
}

/* The first listed block the variant does not take, or NULL. */
static const gp_dim3 *block_refused(const gp_request *req, const gp_variant *var)
{
    for (size_t b = 0; b < req->n_blocks; b++)
        if (!gp_block_allowed(var, req->blocks[b]))
            return &req->blocks[b];
    return NULL;
}

/* Named variants must take every listed block. Without --variant, a sweep runs each variant
 * at the blocks it takes (tile at 32xY only); a variant that takes none is left out. */
static int check_blocks(gp_request *req, const given_options *given)
{
    const gp_family *f = req->family;
    if (req->n_blocks == 0)
        return GP_OK; /* each variant's default block */
    req->skip_disallowed_blocks = !given->seen[OPT_VARIANT] && req->n_variants > 1;
    size_t kept = 0;
    for (size_t v = 0; v < req->n_variants; v++) {
        const gp_variant *var = req->variants[v];
        if (var->flags & GP_VF_GROUP_BLOCK) {
            /* Its block is --group x --group: a --block meant for the others is fine,
             * one given for this variant alone is a mistake. */
            if (given->seen[OPT_VARIANT] && req->n_variants == 1)
                return gp_fail(GP_ERR_USAGE, "--block does not apply to %s %s (its block "
                                             "is --group x --group)", f->name, var->name);
        } else if (req->skip_disallowed_blocks) {
            if (!takes_a_block(req, var))
                continue;
        } else if (block_refused(req, var)) {
            return refuse_block(req, var, *block_refused(req, var));
        }
        req->variants[kept++] = var;
    }
    if (kept == 0)
        return refuse_block(req, req->variants[0], req->blocks[0]);
    req->n_variants = kept;
    return GP_OK;
}

/* Parameters that apply to some variants only: refuse a combination that would be ignored. */
static int check_variant_params(gp_request *req, const given_options *given)
{
    const gp_family *f = req->family;
    for (size_t i = 0; i < f->n_params; i++) {
        const gp_param_def *d = &f->params[i];
        if (!d->variants || req->params[i].n == 0)
            continue; /* applies to every variant, or not given */
        if (!given->seen[OPT_VARIANT]) {
            /* --pad alone selects the variants it applies to (`transpose --pad=1`). */
            size_t kept = 0;
            for (size_t v = 0; v < req->n_variants; v++)
                if (gp_param_applies(d, req->variants[v]))
                    req->variants[kept++] = req->variants[v];
            req->n_variants = kept;
            continue;
        }
        for (size_t v = 0; v < req->n_variants; v++)
            if (!gp_param_applies(d, req->variants[v]))
                return gp_fail(GP_ERR_USAGE, "--%s does not apply to %s %s",
                               gp_option(d->option)->name, f->name, req->variants[v]->name);
    }
    return GP_OK;
}

/* What a kernel command runs when an option is not given: the family's defaults (its
 * parameters' defaults are the plan's to resolve, variant by variant). */
static int fill_kernel_defaults(gp_request *req, const given_options *given)
{
    const gp_family *f = req->family;
    if (!given->seen[OPT_VARIANT])
        GP_TRY(gp_option_read(req, gp_option(OPT_VARIANT), "all"));
    if (req->n_sizes == 0) {
        req->sizes[0] = f->default_size;
        req->n_sizes = 1;
    }
    if (req->n_types == 0) {
        req->types[0] = f->default_type;
        req->n_types = 1;
    }
    return GP_OK;
}

static int finish_kernel_request(gp_request *req, const given_options *given)
{
    GP_TRY(fill_kernel_defaults(req, given));
    GP_TRY(check_variant_params(req, given));
    if (req->n_variants == 0)
        return gp_fail(GP_ERR_USAGE, "no %s variant takes these options", req->family->name);
    return check_blocks(req, given);
}

/* exec's standard output is the program's: a JSON or CSV report there would be mixed with
 * whatever the program prints, and no longer parse. Such a report needs its own file, or
 * --output=- for a program known to print nothing. */
static int check_output_file(const gp_request *req, const given_options *given)
{
    if (given->seen[OPT_FORCE] && !req->output_file)
        return gp_fail(GP_ERR_USAGE, "--force applies to --output only");
    if (!gp_command_takes(req->command, NULL, OPT_OUTPUT) || req->output_file ||
        gp_output_is_text(req->output))
        return GP_OK;
    return gp_fail(GP_ERR_USAGE, "exec %s needs --output=FILE: standard output is the "
                                 "program's, and its lines would break the report "
                                 "(--output=- writes there anyway)",
                   req->output == GP_OUT_JSON ? "--json" : "--csv");
}

/* --stalls: exec samples in a run of its own, since CUPTI's PC sampling gives no PC in a
 * context where the range profiler or SASS patching ran (bench/README.md, PC sampling beside
 * the other collectors); its counters are off unless asked for, and then refused. A kernel
 * command runs again as exec's program (commands/kernel_stalls.h), under the same rules,
 * and writes exec's report, which has no page of its own; its --source counts the lines in
 * a run of its own after that one. exec's --source needs the program run once more: the user
 * runs it, and `report` joins the two reports. */
static int check_stalls(gp_request *req, const gp_command_def *cmd, const given_options *given)
{
    if (given->seen[OPT_STALL_PERIOD] && !req->stalls)
        return gp_fail(GP_ERR_USAGE, "--stall-period applies to --stalls only");
    if (!req->stalls)
        return GP_OK;
    /* (exec's --source is refused below: a run of its own) */
    const bool source = req->source && !cmd->program_operands;
    if (req->output == GP_OUT_CSV && (req->by_range || req->launches || req->by_rank || source))
        return gp_fail(GP_ERR_USAGE, "--stalls and %s are two CSV views: choose one",
                       req->by_range ? "--by-range" : req->launches ? "--launches"
                       : req->by_rank ? "--by-rank" : "--source");
    if (req->csv_columns)
        return gp_fail(GP_ERR_USAGE, "--csv-columns does not apply to --stalls' CSV (a row per "
                                     "kernel line, its reason columns the run's)");
    if (!cmd->program_operands && !req->family)
        return GP_OK;
    const char *name = req->family ? req->family->name : "exec";
    if (req->output == GP_OUT_HTML)
        return gp_fail(GP_ERR_USAGE, "%s --stalls writes exec's report, which has no page of "
                                     "its own: save it as JSON, then run 'gpuprof report "
                                     "FILE --html'", name);
    if (req->source && !req->family)
        return gp_fail(GP_ERR_USAGE, "exec --stalls samples in a run of its own: it cannot go "
                                     "with --source (patched code spoils PC sampling); run the "
                                     "program once with each (--source --json --output=A.json, "
                                     "--stalls --json --output=B.json) and give both reports "
                                     "to 'gpuprof report A.json B.json', which shows each "
                                     "line's stalls beside its sectors");
    if (given->seen[OPT_METRICS] && req->metrics.kind != GP_METRICS_NONE)
        return gp_fail(GP_ERR_USAGE, "%s --stalls samples in a run without counters (PC "
                                     "sampling and the range profiler do not share a "
                                     "context): drop --metrics, or collect them in another "
                                     "run", name);
    if (req->require_metrics)
        return gp_fail(GP_ERR_USAGE, "--require-metrics contradicts --stalls (a run without "
                                     "counters)");
    req->metrics.kind = GP_METRICS_NONE;
    req->exec.stalls = true;
    return GP_OK;
}

static int finish_request(gp_request *req, const command_context *cc, const given_options *given)
{
    const gp_command_def *cmd = cc->cmd;
    if (given->seen[OPT_CSV] + given->seen[OPT_JSON] + given->seen[OPT_HTML] +
            given->seen[OPT_MARKDOWN] > 1)
        return gp_fail(GP_ERR_USAGE, "--json, --csv, --html and --markdown cannot be combined");
    if (req->no_header && req->output != GP_OUT_CSV)
        return gp_fail(GP_ERR_USAGE, "--no-header applies to --csv output only");
    if (req->metrics_detail && !gp_output_is_text(req->output))
        return gp_fail(GP_ERR_USAGE, "--metrics-detail applies to text and Markdown output only");
    if (req->csv_columns && req->output != GP_OUT_CSV)
        return gp_fail(GP_ERR_USAGE, "--csv-columns applies to --csv output only");
    /* JSON and CSV hold every launch whatever is asked; the page has no row per launch. */
    if (req->launches && req->output == GP_OUT_HTML)
        return gp_fail(GP_ERR_USAGE, "--launches does not apply to --html (the page has one "
                                     "row per kernel; JSON and CSV hold every launch)");
    if (req->by_range && (req->launches || req->by_rank))
        return gp_fail(GP_ERR_USAGE, "--by-range and %s are two views: choose one",
                       req->launches ? "--launches" : "--by-rank");
    /* exec records ranges only when asked: without, the tree would be one "(no range)". */
    if (req->by_range && cmd->program_operands && !req->exec.nvtx)
        return gp_fail(GP_ERR_USAGE, "exec --by-range shows the launches by NVTX range: add "
                                     "--nvtx to record them");
    if (req->wide && req->output != GP_OUT_TEXT)
        return gp_fail(GP_ERR_USAGE, "--wide applies to text output only%s",
                       req->output == GP_OUT_MARKDOWN ? " (Markdown's tables have no width)"
                                                      : "");
    if (given->seen[OPT_KERNEL_NAME] && !gp_output_is_text(req->output))
        return gp_fail(GP_ERR_USAGE, "--kernel-name applies to text and Markdown output only");
    if (req->sass && !gp_output_is_text(req->output))
        return gp_fail(GP_ERR_USAGE, "--sass applies to text and Markdown output only (JSON "
                                     "and CSV hold every instruction)");
    if (req->source && req->csv_columns)
        return gp_fail(GP_ERR_USAGE, "--csv-columns does not apply to --source's CSV (a row "
                                     "per source line, its columns fixed)");
    if (req->sass && req->family && !req->source)
        return gp_fail(GP_ERR_USAGE, "--sass shows the instructions of --source's lines: add "
                                     "--source");
    if (req->sass && cmd->program_operands && !req->source && !req->stalls)
        return gp_fail(GP_ERR_USAGE, "--sass shows the instructions of --source's or --stalls' "
                                     "lines: add one of them");
    GP_TRY(check_stalls(req, cmd, given));
    if (req->require_metrics && req->metrics.kind == GP_METRICS_NONE)
        return gp_fail(GP_ERR_USAGE, "--require-metrics contradicts --metrics=none");
    /* exec patches a kernel's launch once its counters are in: none, no patched launch. */
    if (req->source && cmd->program_operands && req->metrics.kind == GP_METRICS_NONE)
        return gp_fail(GP_ERR_USAGE, "exec --source patches a launch of each profiled kernel: "
                                     "it cannot go with --metrics=none");
    if (req->n_operands < cmd->min_operands)
        return gp_fail(GP_ERR_USAGE, "'%s' needs %s (see 'gpuprof %s --help')", cc->name,
                       cmd->operands, cc->name);
    if (req->chip && given->seen[OPT_DEVICE])
        return gp_fail(GP_ERR_USAGE, "--chip and --device cannot be combined");
    if (req->family)
        GP_TRY(finish_kernel_request(req, given));
    if (cmd->program_operands || req->family)
        GP_TRY(gp_csv_check_columns(req));
    /* exec's --source is the library's to do too: it travels in the exec request. */
    req->exec.source = cmd->program_operands && req->source;
    return check_output_file(req, given);
}

/* ---- the command line ---------------------------------------------------------------------- */

/* Every command's name: the families', then the others'. */
static size_t command_names(const char **names, size_t max)
{
    size_t n_families, n_commands, n = 0;
    const gp_family *families = gp_family_table(&n_families);
    const gp_command_def *commands = gp_command_table(&n_commands);
    for (size_t i = 0; i < n_families && n < max; i++)
        names[n++] = families[i].name;
    for (size_t i = 0; i < n_commands && n < max; i++)
        names[n++] = commands[i].name;
    return n;
}

/* The command named by argv[1], with the aliases --help, -h and --version. */
static int find_command(const char *first, command_context *cc)
{
    const char *name = strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 ? "help"
                       : strcmp(first, "--version") == 0                        ? "version"
                                                                                : first;
    cc->cmd = gp_find_command(name, &cc->family);
    cc->name = name;
    if (cc->cmd)
        return GP_OK;
    char names[512], hint[GP_SUGGEST_MAX_LEN + 32];
    gp_list_command_names(names, sizeof names);
    if (first[0] == '-')
        return gp_fail(GP_ERR_USAGE, "unknown option '%s' before the command (commands: %s)",
                       first, names);
    const char *candidates[64];
    return gp_fail(GP_ERR_USAGE, "unknown command '%s'%s (commands: %s)", first,
                   gp_suggest_hint(hint, sizeof hint, "", first, candidates,
                                   command_names(candidates, 64)),
                   names);
}

/* An operand (a word that is not an option). */
static int add_operand(gp_request *req, const command_context *cc, const char *arg)
{
    if (cc->cmd->program_operands && req->n_operands == 0 && !arg[0])
        return gp_fail(GP_ERR_USAGE, "an empty program name for '%s'", cc->name);
    if (req->n_operands >= GP_MAX_OPERANDS)
        return gp_fail(GP_ERR_USAGE, "more than %d files for '%s' (merge them in groups, then "
                                     "the groups' --json)", GP_MAX_OPERANDS, cc->name);
    if (req->n_operands >= cc->cmd->max_operands)
        return gp_fail(GP_ERR_USAGE, "unexpected argument '%s' for '%s'", arg, cc->name);
    req->operands[req->n_operands++] = arg;
    return GP_OK;
}

/* `gpuprof CMD ... --help` asks for CMD's help, whatever else the line holds. */
static void turn_into_help(gp_request *req, const command_context *cc)
{
    const gp_family *unused;
    memset(req, 0, sizeof *req);
    req->command = gp_find_command("help", &unused);
    req->help_topic = cc->name;
}

int gp_parse_command_line(int argc, char **argv, gp_request *req)
{
    memset(req, 0, sizeof *req);
    if (argc < 2)
        return gp_fail(GP_ERR_USAGE, "no command given (see 'gpuprof --help')");
    command_context cc;
    GP_TRY(find_command(argv[1], &cc));
    set_defaults(req, &cc);
    given_options given = {{false}};
    bool operands_only = false, help = false;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!operands_only && strcmp(arg, "--") == 0)
            operands_only = true;
        else if (!operands_only && strncmp(arg, "--", 2) == 0)
            GP_TRY(parse_long_option(&cc, req, &given, argc, argv, &i));
        else if (!operands_only && arg[0] == '-' && arg[1] != '\0')
            GP_TRY(parse_short_option(&cc, req, &given, arg, &help));
        else
            GP_TRY(add_operand(req, &cc, arg));
        if (cc.cmd->program_operands && req->n_operands == 1) {
            /* The program's own arguments, options included, are not gpuprof's. */
            req->program = &argv[i];
            req->program_argc = argc - i;
            break;
        }
    }
    req->argc = argc;
    req->argv = argv;
    if (help || given.seen[OPT_HELP]) {
        turn_into_help(req, &cc);
        return GP_OK;
    }
    return finish_request(req, &cc, &given);
}
