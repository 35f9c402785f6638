/* Command-line parsing: GNU-style long options (--opt=value and --opt value, unambiguous
 * prefixes), validated against the registry before any GPU is touched. */
#include "gpuprof/cli.h"

#include "gpuprof/metrics.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gp_option_def options[OPT_COUNT] = {
    {OPT_VARIANT, "variant", "LIST", "variants to run, comma-separated, or 'all' (default: all)"},
    {OPT_BLOCK, "block", "N", "block size(s), comma-separated (default: each variant's own)"},
    {OPT_SIZE, "size", "N", "problem size(s), comma-separated; N, 2^K or 2^K+C"},
    {OPT_TYPE, "type", "T", "element type: int32, float32 or both comma-separated (default: int32)"},
    {OPT_PAD, "pad", "N", "shared-tile padding in 4-byte words, 0 to 32"},
    {OPT_GROUP, "group", "N", "tile side of the 2-D reduction: 2, 4, 8, 16 or 32 (default: 16)"},
    {OPT_GRID, "grid", "N", "blocks of the grid-stride variant (default: 32 x multiprocessors)"},
    {OPT_REPEAT, "repeat", "N", "timed launches per result (default: 20)"},
    {OPT_WARMUP, "warmup", "N", "untimed launches before timing (default: 3)"},
    {OPT_DEVICE, "device", "N", "CUDA device index (default: 0)"},
    {OPT_SEED, "seed", "N", "seed of the random input (default: 1)"},
    {OPT_JSON, "json", NULL, "JSON output (schema in schemas/)"},
    {OPT_CSV, "csv", NULL, "CSV output: one header line, one row per result"},
    {OPT_NO_HEADER, "no-header", NULL, "CSV without its header line (for appending in loops)"},
    {OPT_METRICS, "metrics", "SET",
     "hardware metrics: default, all, none, or a comma-separated list of keys or PerfWorks names"},
    {OPT_METRICS_DETAIL, "metrics-detail", NULL,
     "text: every metric of every kernel (nvprof's long form)"},
    {OPT_REQUIRE_METRICS, "require-metrics", NULL,
     "exit 1 when the metrics cannot be collected (default: warn, exit 0)"},
    {OPT_CHIP, "chip", "NAME", "chip to describe without a GPU, e.g. GH100, GA100, AD102"},
    {OPT_HELP, "help", NULL, "show this help and exit"},
};

/* Options of every kernel command; each adds its own family options, then --help. */
#define KERNEL_OPTIONS                                                                        \
    OPT_VARIANT, OPT_BLOCK, OPT_SIZE, OPT_REPEAT, OPT_WARMUP, OPT_DEVICE, OPT_SEED, OPT_JSON, \
        OPT_CSV, OPT_NO_HEADER, OPT_METRICS, OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS
#define N_KERNEL_OPTIONS 13

static const gp_command_def commands[] = {
    {"reduce", GP_CMD_KERNEL, GP_FAM_REDUCE, NULL, 0,
     "time, check and profile the parallel reductions", {KERNEL_OPTIONS, OPT_TYPE, OPT_HELP},
     N_KERNEL_OPTIONS + 2},
    {"transpose", GP_CMD_KERNEL, GP_FAM_TRANSPOSE, NULL, 0,
     "time, check and profile the matrix transposes", {KERNEL_OPTIONS, OPT_PAD, OPT_HELP},
     N_KERNEL_OPTIONS + 2},
    {"reduce2d", GP_CMD_KERNEL, GP_FAM_REDUCE2D, NULL, 0,
     "time, check and profile the 2-D multi-pass reductions", {KERNEL_OPTIONS, OPT_GROUP, OPT_HELP},
     N_KERNEL_OPTIONS + 2},
    {"saxpy", GP_CMD_KERNEL, GP_FAM_SAXPY, NULL, 0,
     "time, check and profile saxpy: one thread per element or grid-stride loops",
     {KERNEL_OPTIONS, OPT_GRID, OPT_HELP}, N_KERNEL_OPTIONS + 2},
    {"list", GP_CMD_LIST, -1, NULL, 0, "list every kernel family and variant",
     {OPT_JSON, OPT_CSV, OPT_NO_HEADER, OPT_HELP}, 4},
    {"device", GP_CMD_DEVICE, -1, NULL, 0,
     "describe the GPUs: clocks, memory, peak and measured copy bandwidth",
     {OPT_DEVICE, OPT_JSON, OPT_HELP}, 3},
    {"metrics", GP_CMD_METRICS, -1, NULL, 0,
     "the metric catalogue, and which metrics a GPU or chip provides",
     {OPT_CHIP, OPT_DEVICE, OPT_JSON, OPT_HELP}, 4},
    {"report", GP_CMD_REPORT, -1, "FILE", 1, "render a saved JSON report as text, JSON or CSV",
     {OPT_JSON, OPT_CSV, OPT_NO_HEADER, OPT_METRICS_DETAIL, OPT_HELP}, 5},
};

const gp_command_def *gp_command_table(size_t *count)
{
    *count = sizeof commands / sizeof commands[0];
    return commands;
}

const gp_command_def *gp_find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

const gp_option_def *gp_option(gp_option_id id)
{
    return id < OPT_COUNT ? &options[id] : NULL;
}

/* ---- option lookup ------------------------------------------------------------------ */

/* Exact name, else the one option of this command that the name abbreviates. */
static int find_option(const gp_command_def *cmd, const char *name, size_t len,
                       const gp_option_def **found)
{
    const gp_option_def *prefix_match = NULL;
    int prefix_matches = 0;
    for (size_t i = 0; i < cmd->n_options; i++) {
        const gp_option_def *o = &options[cmd->options[i]];
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (o->name[len] == '\0') {
            *found = o;
            return GP_OK;
        }
        prefix_match = o;
        prefix_matches++;
    }
    if (prefix_matches == 1) {
        *found = prefix_match;
        return GP_OK;
    }
    if (prefix_matches > 1)
        return gp_fail(GP_ERR_USAGE, "option '--%.*s' is ambiguous for '%s'", (int)len, name,
                       cmd->name);
    return gp_fail(GP_ERR_USAGE, "unknown option '--%.*s' for '%s' (see 'gpuprof %s --help')",
                   (int)len, name, cmd->name, cmd->name);
}

/* ---- values --------------------------------------------------------------------------- */

static int parse_count(const char *opt, const char *text, uint64_t min, uint64_t max,
                       uint64_t *out)
{
    uint64_t v;
    if (gp_parse_u64(text, &v) != GP_OK)
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: expected a whole number",
                       text, opt);
    if (v < min || v > max)
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: must be from %llu to %llu",
                       text, opt, (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return GP_OK;
}

/* Calls item(ctx, piece) for each comma-separated piece of text (empty pieces rejected). The
 * list as a whole may be long (up to max_items raw metric names); each piece is short. */
static int for_each_item(const char *opt, const char *text, size_t max_items,
                         int (*item)(void *ctx, const char *piece), void *ctx)
{
    char piece[256];
    size_t count = 0;
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0)
            return gp_fail(GP_ERR_USAGE, "empty item in --%s=%s", opt, text);
        if (len >= sizeof piece)
            return gp_fail(GP_ERR_USAGE, "item %zu of --%s is too long", count + 1, opt);
        if (++count > max_items)
            return gp_fail(GP_ERR_USAGE, "too many items in --%s (at most %zu)", opt, max_items);
        memcpy(piece, p, len);
        piece[len] = '\0';
        GP_TRY(item(ctx, piece));
        if (!comma)
            return GP_OK;
        p = comma + 1;
    }
}

static void list_variant_names(gp_family family, char *buf, size_t len)
{
    const gp_variant *vs[GP_MAX_LIST];
    size_t n = gp_family_variants(family, vs, GP_MAX_LIST);
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < GP_MAX_LIST; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vs[i]->name);
    }
}

static int add_variant(void *ctx, const char *name)
{
    gp_request *req = ctx;
    if (strcmp(name, "all") == 0) {
        req->n_variants = gp_family_variants(req->family, req->variants, GP_MAX_LIST);
        return GP_OK;
    }
    const gp_variant *v = gp_find_variant(req->family, name);
    if (!v) {
        char names[1024];
        list_variant_names(req->family, names, sizeof names);
        return gp_fail(GP_ERR_USAGE, "unknown variant '%s' for %s (valid: %s, all)", name,
                       gp_family_name(req->family), names);
    }
    for (size_t i = 0; i < req->n_variants; i++)
        if (req->variants[i] == v)
            return GP_OK;  /* listed twice: run once */
    if (req->n_variants >= GP_MAX_LIST)
        return gp_fail(GP_ERR_USAGE, "too many variants");
    req->variants[req->n_variants++] = v;
    return GP_OK;
}

static int add_block(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return gp_parse_block(text, gp_family_is_2d(req->family), &req->blocks[req->n_blocks++]);
}

static int add_size(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_size *s = &req->sizes[req->n_sizes++];
    if (gp_family_is_2d(req->family)) {
        GP_TRY(gp_parse_size_2d(text, &s->nx, &s->ny));
        s->n = (uint64_t)s->nx * s->ny;
        return GP_OK;
    }
    s->nx = s->ny = 0;
    return gp_parse_size_1d(text, &s->n);
}

static int add_type(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_dtype t;
    if (strcmp(text, "int32") == 0)
        t = GP_INT32;
    else if (strcmp(text, "float32") == 0)
        t = GP_FLOAT32;
    else
        return gp_fail(GP_ERR_USAGE, "invalid type '%s' (valid: int32, float32)", text);
    for (size_t i = 0; i < req->n_types; i++)
        if (req->types[i] == t)
            return GP_OK;
    req->types[req->n_types++] = t;
    return GP_OK;
}

static int add_metric(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_metrics_request *m = &req->metrics;
    if (strcmp(text, "default") == 0 || strcmp(text, "all") == 0 || strcmp(text, "none") == 0)
        return gp_fail(GP_ERR_USAGE, "'%s' cannot be combined with other metrics in --metrics",
                       text);
    /* Raw PerfWorks names contain "__" (unit__counter); anything else must be a key. */
    if (!gp_find_metric(text) && !strstr(text, "__"))
        return gp_fail(GP_ERR_USAGE, "unknown metric '%s' (see 'gpuprof metrics'; PerfWorks "
                                     "names such as dram__bytes_read.sum are accepted too)", text);
    if (strlen(text) >= sizeof m->names[0])
        return gp_fail(GP_ERR_USAGE, "metric name '%s' is too long", text);
    strcpy(m->names[m->n_names++], text);
    return GP_OK;
}

static int parse_metrics(gp_request *req, const char *text)
{
    req->metrics.n_names = 0;
    if (strcmp(text, "default") == 0)
        req->metrics.kind = GP_METRICS_DEFAULT;
    else if (strcmp(text, "all") == 0)
        req->metrics.kind = GP_METRICS_ALL;
    else if (strcmp(text, "none") == 0)
        req->metrics.kind = GP_METRICS_NONE;
    else {
        req->metrics.kind = GP_METRICS_LIST;
        GP_TRY(for_each_item("metrics", text, GP_MAX_METRIC_NAMES, add_metric, req));
    }
    return GP_OK;
}

/* Which options were given, for the cross-option checks after parsing. */
typedef struct {
    bool seen[OPT_COUNT];
} given_options;

static int apply_option(gp_request *req, const gp_option_def *o, const char *value)
{
    uint64_t v;
    switch (o->id) {
    case OPT_VARIANT:
        req->n_variants = 0;
        return for_each_item(o->name, value, GP_MAX_LIST, add_variant, req);
    case OPT_BLOCK:
        req->n_blocks = 0;
        return for_each_item(o->name, value, GP_MAX_LIST, add_block, req);
    case OPT_SIZE:
        req->n_sizes = 0;
        return for_each_item(o->name, value, GP_MAX_LIST, add_size, req);
    case OPT_TYPE:
        req->n_types = 0;
        return for_each_item(o->name, value, 2, add_type, req);
    case OPT_PAD:
        GP_TRY(parse_count(o->name, value, 0, 32, &v));
        req->pad = (int)v;
        return GP_OK;
    case OPT_GROUP:
        GP_TRY(parse_count(o->name, value, 2, 32, &v));
        if (v & (v - 1))
            return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --group: must be a power of "
                                         "two (2, 4, 8, 16 or 32)", value);
        req->group = (unsigned)v;
        return GP_OK;
    case OPT_GRID:
        GP_TRY(parse_count(o->name, value, 1, 2147483647u, &v));
        req->grid = (unsigned)v;
        return GP_OK;
    case OPT_REPEAT:
        GP_TRY(parse_count(o->name, value, 1, 100000, &v));
        req->repeat = (unsigned)v;
        return GP_OK;
    case OPT_WARMUP:
        GP_TRY(parse_count(o->name, value, 0, 100000, &v));
        req->warmup = (unsigned)v;
        return GP_OK;
    case OPT_DEVICE:
        GP_TRY(parse_count(o->name, value, 0, 1023, &v));
        req->device = (int)v;
        return GP_OK;
    case OPT_SEED:
        GP_TRY(parse_count(o->name, value, 0, UINT64_MAX, &v));
        req->seed = v;
        return GP_OK;
    case OPT_METRICS:
        return parse_metrics(req, value);
    case OPT_CHIP:
        req->chip = value;
        return GP_OK;
    case OPT_JSON: req->output = GP_OUT_JSON; return GP_OK;
    case OPT_CSV: req->output = GP_OUT_CSV; return GP_OK;
    case OPT_NO_HEADER: req->no_header = true; return GP_OK;
    case OPT_METRICS_DETAIL: req->metrics_detail = true; return GP_OK;
    case OPT_REQUIRE_METRICS: req->require_metrics = true; return GP_OK;
    case OPT_HELP: req->command = GP_CMD_HELP; return GP_OK;
    case OPT_COUNT: break;
    }
    return gp_fail(GP_ERR_USAGE, "internal error: unhandled option --%s", o->name);
}

/* One "--name[=value]" argument (value may come from the next argv entry). */
static int parse_long_option(const gp_command_def *cmd, gp_request *req, given_options *given,
                             int argc, char **argv, int *i)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const gp_option_def *o = NULL;
    GP_TRY(find_option(cmd, arg, len, &o));
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
    return apply_option(req, o, value);
}

static void set_defaults(gp_request *req, const gp_command_def *cmd, int argc, char **argv)
{
    memset(req, 0, sizeof *req);
    req->command = cmd->command;
    req->family = cmd->family >= 0 ? (gp_family)cmd->family : GP_FAM_REDUCE;
    req->help_topic = cmd->name;
    req->pad = -1;
    req->group = GP_DEFAULT_GROUP;
    req->alpha = GP_DEFAULT_ALPHA;
    req->repeat = GP_DEFAULT_REPEAT;
    req->warmup = GP_DEFAULT_WARMUP;
    req->device = cmd->command == GP_CMD_KERNEL || cmd->command == GP_CMD_METRICS ? 0 : -1;
    req->seed = GP_DEFAULT_SEED;
    req->argc = argc;
    req->argv = argv;
}

static void default_sizes(gp_request *req)
{
    gp_size *s = &req->sizes[0];
    req->n_sizes = 1;
    switch (req->family) {
    case GP_FAM_REDUCE: s->n = (uint64_t)1 << 24; break;
    case GP_FAM_SAXPY: s->n = (uint64_t)1 << 26; break;
    case GP_FAM_TRANSPOSE:
    case GP_FAM_REDUCE2D:
    case GP_FAM_COUNT:
        s->nx = s->ny = 4096;
        s->n = (uint64_t)s->nx * s->ny;
        break;
    }
}

static int check_blocks(const gp_request *req, const given_options *given)
{
    for (size_t v = 0; v < req->n_variants; v++)
        for (size_t b = 0; b < req->n_blocks; b++) {
            const gp_variant *var = req->variants[v];
            if (var->flags & GP_VF_GROUP_BLOCK) {
                /* Its block is --group x --group: a --block meant for the others is fine,
                 * one given for this variant alone is a mistake. */
                if (given->seen[OPT_VARIANT] && req->n_variants == 1)
                    return gp_fail(GP_ERR_USAGE, "--block does not apply to %s %s (its block "
                                                 "is --group x --group)",
                                   gp_family_name(var->family), var->name);
                continue;
            }
            if (gp_block_allowed(var, req->blocks[b]))
                continue;
            char blk[32], allowed[96];
            gp_format_block(req->blocks[b], gp_family_is_2d(req->family), blk, sizeof blk);
            gp_describe_blocks(var, allowed, sizeof allowed);
            return gp_fail(GP_ERR_USAGE, "block %s is not allowed for %s %s (allowed: %s)", blk,
                           gp_family_name(var->family), var->name, allowed);
        }
    return GP_OK;
}

/* Options that apply to some variants only: refuse a combination that would be ignored. */
static int check_variant_options(gp_request *req, const given_options *given)
{
    struct { gp_option_id id; unsigned flag; } scoped[] = {
        {OPT_PAD, GP_VF_PADDED}, {OPT_GRID, GP_VF_GRID},
    };
    for (size_t s = 0; s < sizeof scoped / sizeof scoped[0]; s++) {
        if (!given->seen[scoped[s].id])
            continue;
        if (!given->seen[OPT_VARIANT]) {
            /* --pad alone selects the variants it applies to (`transpose --pad=1`). */
            size_t kept = 0;
            for (size_t v = 0; v < req->n_variants; v++)
                if (req->variants[v]->flags & scoped[s].flag)
                    req->variants[kept++] = req->variants[v];
            req->n_variants = kept;
            continue;
        }
        for (size_t v = 0; v < req->n_variants; v++)
            if (!(req->variants[v]->flags & scoped[s].flag))
                return gp_fail(GP_ERR_USAGE, "--%s does not apply to %s %s",
                               options[scoped[s].id].name, gp_family_name(req->family),
                               req->variants[v]->name);
    }
    return GP_OK;
}

static int finish_kernel_request(gp_request *req, const given_options *given)
{
    if (!given->seen[OPT_VARIANT])
        req->n_variants = gp_family_variants(req->family, req->variants, GP_MAX_LIST);
    if (req->n_sizes == 0)
        default_sizes(req);
    if (req->n_types == 0) {
        req->types[0] = req->family == GP_FAM_REDUCE ? GP_INT32 : GP_FLOAT32;
        req->n_types = 1;
    }
    GP_TRY(check_variant_options(req, given));
    if (req->n_variants == 0)
        return gp_fail(GP_ERR_USAGE, "no %s variant takes these options",
                       gp_family_name(req->family));
    return check_blocks(req, given);
}

static int finish_request(gp_request *req, const gp_command_def *cmd, const given_options *given)
{
    if (given->seen[OPT_CSV] && given->seen[OPT_JSON])
        return gp_fail(GP_ERR_USAGE, "--json and --csv cannot be combined");
    if (req->no_header && req->output != GP_OUT_CSV)
        return gp_fail(GP_ERR_USAGE, "--no-header applies to --csv output only");
    if (req->metrics_detail && req->output != GP_OUT_TEXT)
        return gp_fail(GP_ERR_USAGE, "--metrics-detail applies to text output only");
    if (req->require_metrics && req->metrics.kind == GP_METRICS_NONE)
        return gp_fail(GP_ERR_USAGE, "--require-metrics contradicts --metrics=none");
    if (req->n_files != cmd->n_operands)
        return gp_fail(GP_ERR_USAGE, "'%s' needs %s (see 'gpuprof %s --help')", cmd->name,
                       cmd->operands ? cmd->operands : "no operands", cmd->name);
    if (req->chip && given->seen[OPT_DEVICE])
        return gp_fail(GP_ERR_USAGE, "--chip and --device cannot be combined");
    if (req->command == GP_CMD_KERNEL)
        return finish_kernel_request(req, given);
    return GP_OK;
}

static void list_command_names(char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", commands[i].name);
    }
}

int gp_parse_command_line(int argc, char **argv, gp_request *req)
{
    memset(req, 0, sizeof *req);
    req->argc = argc;
    req->argv = argv;
    if (argc < 2)
        return gp_fail(GP_ERR_USAGE, "no command given (see 'gpuprof --help')");
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        req->command = GP_CMD_HELP;
        if (argc > 2 && strcmp(first, "help") == 0)
            req->help_topic = argv[2];
        return GP_OK;
    }
    if (strcmp(first, "--version") == 0) {
        req->command = GP_CMD_VERSION;
        return GP_OK;
    }
    const gp_command_def *cmd = gp_find_command(first);
    if (!cmd) {
        char names[256];
        list_command_names(names, sizeof names);
        if (first[0] == '-')
            return gp_fail(GP_ERR_USAGE, "unknown option '%s' before the command (commands: %s)",
                           first, names);
        return gp_fail(GP_ERR_USAGE, "unknown command '%s' (commands: %s)", first, names);
    }
    set_defaults(req, cmd, argc, argv);
    given_options given = {{false}};
    bool operands_only = false;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!operands_only && strcmp(arg, "--") == 0) {
            operands_only = true;
        } else if (!operands_only && strncmp(arg, "--", 2) == 0) {
            GP_TRY(parse_long_option(cmd, req, &given, argc, argv, &i));
        } else if (!operands_only && strcmp(arg, "-h") == 0) {
            req->command = GP_CMD_HELP;
        } else if (!operands_only && arg[0] == '-' && arg[1] != '\0') {
            return gp_fail(GP_ERR_USAGE, "unknown option '%s' for '%s' (options are long: "
                                         "--name=value; see 'gpuprof %s --help')", arg,
                           cmd->name, cmd->name);
        } else if (req->n_files < cmd->n_operands) {
            req->files[req->n_files++] = arg;
        } else {
            return gp_fail(GP_ERR_USAGE, "unexpected argument '%s' for '%s'", arg, cmd->name);
        }
    }
    if (req->command == GP_CMD_HELP)
        return GP_OK;  /* --help wins over everything else on the line */
    return finish_request(req, cmd, &given);
}
