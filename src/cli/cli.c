/* Command-line parsing: GNU-style long options (--opt=value and --opt value, unambiguous
 * prefixes), validated against the command, family and variant tables before any GPU is
 * touched. */
#include "gpuprof/cli.h"

#include "gpuprof/commands.h"
#include "gpuprof/compare.h"
#include "gpuprof/metrics.h"
#include "gpuprof/regex_size.h"
#include "gpuprof/suggest.h"
#include "gpuprof/status.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gp_option_def options[] = {
    [OPT_VARIANT] = {OPT_VARIANT, "variant", "LIST",
                     "variants to run, comma-separated, or 'all' (default: all)"},
    [OPT_BLOCK] = {OPT_BLOCK, "block", "N",
                   "block size(s), comma-separated (default: each variant's own)"},
    [OPT_SIZE] = {OPT_SIZE, "size", "N", "problem size(s), comma-separated; N, 2^K or 2^K+C"},
    [OPT_TYPE] = {OPT_TYPE, "type", "T",
                  "element type: int32, float32 or both comma-separated (default: int32)"},
    [OPT_PAD] = {OPT_PAD, "pad", "N",
                 "shared-tile padding(s) in 4-byte words, 0 to 32, comma-separated"},
    [OPT_GROUP] = {OPT_GROUP, "group", "N",
                   "tile side(s) of the 2-D reduction: 2, 4, 8, 16 or 32 (default: 16)"},
    [OPT_GRID] = {OPT_GRID, "grid", "N",
                  "blocks of the grid-stride variants (default: 32 x multiprocessors)"},
    [OPT_REPEAT] = {OPT_REPEAT, "repeat", "N", "timed launches per result (default: 20)"},
    [OPT_WARMUP] = {OPT_WARMUP, "warmup", "N", "untimed launches before timing (default: 3)"},
    [OPT_DEVICE] = {OPT_DEVICE, "device", "N", "CUDA device index (default: 0)"},
    [OPT_SEED] = {OPT_SEED, "seed", "N", "seed of the random input (default: 1)"},
    [OPT_JSON] = {OPT_JSON, "json", NULL, "JSON output (schema in schemas/)"},
    [OPT_CSV] = {OPT_CSV, "csv", NULL, "CSV output: one header line, one row per result"},
    [OPT_HTML] = {OPT_HTML, "html", NULL,
                  "HTML output: one self-contained page with charts, for a browser"},
    [OPT_MAX_NOISE] = {OPT_MAX_NOISE, "max-noise", "PCT",
                       "repeat each result until its timing noise is at most PCT % (up to "
                       "50 x --repeat launches or 10 s)"},
    [OPT_THRESHOLD] = {OPT_THRESHOLD, "threshold", "PCT",
                       "a change is significant beyond PCT % and both runs' noise (default: "
                       "5)"},
    [OPT_NO_HEADER] = {OPT_NO_HEADER, "no-header", NULL,
                       "CSV without its header line (for appending in loops)"},
    [OPT_METRICS] = {OPT_METRICS, "metrics", "SET",
                     "hardware metrics: default, all, none, or a comma-separated list of keys "
                     "or PerfWorks names"},
    [OPT_METRICS_DETAIL] = {OPT_METRICS_DETAIL, "metrics-detail", NULL,
                            "text: every metric of every kernel (nvprof's long form)"},
    [OPT_REQUIRE_METRICS] = {OPT_REQUIRE_METRICS, "require-metrics", NULL,
                             "exit 1 when the metrics cannot be collected (default: warn, "
                             "exit 0)"},
    [OPT_CHIP] = {OPT_CHIP, "chip", "NAME",
                  "chip to describe without a GPU, e.g. GH100, GA100, AD102"},
    [OPT_KERNEL] = {OPT_KERNEL, "kernel", "REGEX",
                    "profile only the kernels whose demangled or mangled name matches (POSIX "
                    "extended regular expression)"},
    [OPT_LAUNCH_SKIP] = {OPT_LAUNCH_SKIP, "launch-skip", "N",
                         "do not profile the first N launches that match (default: 0)"},
    [OPT_LAUNCH_COUNT] = {OPT_LAUNCH_COUNT, "launch-count", "N",
                          "profile at most N launches in all (default: every one)"},
    [OPT_PER_KERNEL] = {OPT_PER_KERNEL, "per-kernel", "N",
                        "profile at most N launches of each kernel, only time the rest"},
    [OPT_LAUNCHES] = {OPT_LAUNCHES, "launches", NULL,
                      "text: one row per launch instead of one per kernel"},
    [OPT_OUTPUT] = {OPT_OUTPUT, "output", "FILE",
                    "write the report to FILE (%p: gpuprof's process id, %q{NAME}: the "
                    "environment variable NAME, %%: %)"},
    [OPT_FOLLOW_CHILDREN] = {OPT_FOLLOW_CHILDREN, "follow-children", NULL,
                             "profile the processes the program starts too"},
    [OPT_HELP] = {OPT_HELP, "help", NULL, "show this help and exit"},
};

_Static_assert(sizeof options / sizeof options[0] == OPT_COUNT,
               "every option id has a row in the option table");

const gp_option_def *gp_option(gp_option_id id)
{
    return id < OPT_COUNT ? &options[id] : NULL;
}

/* ---- option lookup ------------------------------------------------------------------ */

typedef struct {
    const gp_command_def *cmd;
    const gp_family *family;
    const char *name;          /* the command's name, for messages */
} command_context;

/* "; did you mean '--block'?" (prefix "--") when one candidate is close to the word, else
 * "". */
static const char *did_you_mean(char *buf, size_t len, const char *prefix, const char *word,
                                const char *const *candidates, size_t n)
{
    const char *best = gp_suggest(word, candidates, n);
    if (best)
        snprintf(buf, len, "; did you mean '%s%s'?", prefix, best);
    else
        buf[0] = '\0';
    return buf;
}

/* The names of the options the command (and its family) takes. */
static size_t option_names(const command_context *cc, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < cc->cmd->n_options && n < max; i++)
        names[n++] = options[cc->cmd->options[i]].name;
    for (size_t i = 0; cc->family && i < cc->family->n_options && n < max; i++)
        names[n++] = options[cc->family->options[i]].name;
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

/* Exact name, else the one option of this command that the name abbreviates. */
static int find_option(const command_context *cc, const char *name, size_t len,
                       const gp_option_def **found)
{
    const gp_option_def *exact = NULL, *prefix = NULL;
    int prefixes = 0;
    for (size_t i = 0; i < cc->cmd->n_options; i++)
        consider(&options[cc->cmd->options[i]], name, len, &exact, &prefix, &prefixes);
    for (size_t i = 0; cc->family && i < cc->family->n_options; i++)
        consider(&options[cc->family->options[i]], name, len, &exact, &prefix, &prefixes);
    *found = exact ? exact : prefix;
    if (exact || prefixes == 1)
        return GP_OK;
    if (prefixes > 1)
        return gp_fail(GP_ERR_USAGE, "option '--%.*s' is ambiguous for '%s'", (int)len, name,
                       cc->name);
    const char *names[OPT_COUNT];
    char word[GP_SUGGEST_MAX_LEN + 1], hint[GP_SUGGEST_MAX_LEN + 32];
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    did_you_mean(hint, sizeof hint, "--", word, names, option_names(cc, names, OPT_COUNT));
    return gp_fail(GP_ERR_USAGE, "unknown option '--%.*s' for '%s'%s (see 'gpuprof %s --help')",
                   (int)len, name, cc->name, hint, cc->name);
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

/* A percentage: a decimal number above 0 and at most max. */
static int parse_percent(const char *opt, const char *text, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(v > 0.0) || v > max)
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: expected a percentage "
                                     "above 0 and at most %g", text, opt, max);
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

static int add_variant(void *ctx, const char *name)
{
    gp_request *req = ctx;
    const gp_family *f = req->family;
    if (strcmp(name, "all") == 0) {
        for (size_t i = 0; i < f->n_variants; i++)
            req->variants[i] = &f->variants[i];
        req->n_variants = f->n_variants;
        return GP_OK;
    }
    const gp_variant *v = gp_find_variant(f, name);
    if (!v) {
        char names[1024], hint[GP_SUGGEST_MAX_LEN + 32];
        const char *candidates[GP_MAX_LIST];
        size_t n = 0;
        for (; n < f->n_variants && n < GP_MAX_LIST; n++)
            candidates[n] = f->variants[n].name;
        gp_list_variant_names(f, names, sizeof names);
        return gp_fail(GP_ERR_USAGE, "unknown variant '%s' for %s%s (valid: %s, all)", name,
                       f->name, did_you_mean(hint, sizeof hint, "", name, candidates, n), names);
    }
    for (size_t i = 0; i < req->n_variants; i++)
        if (req->variants[i] == v)
            return GP_OK;  /* listed twice: run once */
    req->variants[req->n_variants++] = v;
    return GP_OK;
}

static int add_block(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return gp_parse_block(text, req->family->two_d, &req->blocks[req->n_blocks++]);
}

static int add_size(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_size *s = &req->sizes[req->n_sizes++];
    if (req->family->two_d) {
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
    if (!gp_dtype_from_name(text, &t))
        return gp_fail(GP_ERR_USAGE, "invalid type '%s' (valid: int32, float32)", text);
    for (size_t i = 0; i < req->n_types; i++)
        if (req->types[i] == t)
            return GP_OK;
    req->types[req->n_types++] = t;
    return GP_OK;
}

/* One value of a family parameter, in the range its descriptor gives. */
typedef struct {
    const gp_param_def *param;
    gp_param_values *values;
    const char *option;        /* its option's name, for messages */
} param_item;

static int add_param_value(void *ctx, const char *text)
{
    const param_item *item = ctx;
    const gp_param_def *d = item->param;
    uint64_t v = 0;
    GP_TRY(parse_count(item->option, text, d->min, d->max, &v));
    if (d->power_of_two && (v & (v - 1)))
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: must be a power of two",
                       text, item->option);
    item->values->values[item->values->n++] = (double)v;
    return GP_OK;
}

/* The values of the family's parameter that the option lists. */
static int read_param(gp_request *req, const gp_option_def *o, const char *text)
{
    const gp_family *f = req->family;
    for (size_t i = 0; f && i < f->n_params; i++)
        if (f->params[i].option == o->id) {
            param_item item = {&f->params[i], &req->params[i], o->name};
            req->params[i].n = 0;
            return for_each_item(o->name, text, GP_MAX_LIST, add_param_value, &item);
        }
    return gp_fail(GP_ERR_USAGE, "internal error: --%s is no parameter of the command", o->name);
}

static int add_metric(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_metrics_request *m = &req->metrics;
    if (strcmp(text, "default") == 0 || strcmp(text, "all") == 0 || strcmp(text, "none") == 0)
        return gp_fail(GP_ERR_USAGE, "'%s' cannot be combined with other metrics in --metrics",
                       text);
    /* Raw PerfWorks names contain "__" (unit__counter); anything else must be a key. */
    if (!gp_find_metric(text) && !strstr(text, "__")) {
        size_t n;
        const gp_metric_def *cat = gp_metric_catalogue(&n);
        const char *keys[GP_MAX_METRIC_NAMES];
        size_t k = 0;
        for (; k < n && k < GP_MAX_METRIC_NAMES; k++)
            keys[k] = cat[k].key;
        char hint[GP_SUGGEST_MAX_LEN + 32];
        return gp_fail(GP_ERR_USAGE, "unknown metric '%s'%s (see 'gpuprof metrics'; PerfWorks "
                                     "names such as dram__bytes_read.sum are accepted too)", text,
                       did_you_mean(hint, sizeof hint, "", text, keys, k));
    }
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

/* --kernel: refused here when it does not compile, not in the program it is meant for. */
static int check_regex(const char *text, const char **out)
{
    if (gp_regex_expansion(text) > GP_REGEX_MAX_NODES)
        return gp_fail(GP_ERR_USAGE, "invalid value for --kernel: the pattern would expand to "
                                     "more than %.0f nodes (repeated or nested quantifiers)",
                       GP_REGEX_MAX_NODES);
    if (gp_regex_repeats_empty(text))
        return gp_fail(GP_ERR_USAGE, "invalid value for --kernel: a *, + or {m,} repeats what "
                                     "can match nothing (as in r?+ or (a|)*), which takes "
                                     "regcomp exponential time; repeat what matches a character");
    regex_t re;
    int e = regcomp(&re, text, REG_EXTENDED | REG_NOSUB);
    if (e != 0) {
        char why[128];
        regerror(e, &re, why, sizeof why);
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --kernel: %s", text, why);
    }
    regfree(&re);
    *out = text;
    return GP_OK;
}

/* Which options were given, for the cross-option checks after parsing. */
typedef struct {
    bool seen[OPT_COUNT];
} given_options;

/* A list option: the list starts again each time the option is given. */
static int apply_list(gp_request *req, const gp_option_def *o, const char *value)
{
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
    case OPT_GROUP:
    case OPT_GRID:
        return read_param(req, o, value);
    default:
        return gp_fail(GP_ERR_USAGE, "internal error: --%s is not a list", o->name);
    }
}

static int apply_option(gp_request *req, const gp_option_def *o, const char *value)
{
    uint64_t v = 0;
    switch (o->id) {
    case OPT_VARIANT:
    case OPT_BLOCK:
    case OPT_SIZE:
    case OPT_TYPE:
    case OPT_PAD:
    case OPT_GROUP:
    case OPT_GRID:
        return apply_list(req, o, value);
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
    case OPT_KERNEL:
        return check_regex(value, &req->kernel_regex);
    case OPT_LAUNCH_SKIP:
        return parse_count(o->name, value, 0, UINT64_MAX - 1, &req->launch_skip);
    case OPT_LAUNCH_COUNT:
        return parse_count(o->name, value, 1, UINT64_MAX - 1, &req->launch_count);
    case OPT_PER_KERNEL:
        return parse_count(o->name, value, 1, UINT64_MAX - 1, &req->per_kernel);
    case OPT_OUTPUT:
        req->output_file = value;
        return GP_OK;
    case OPT_MAX_NOISE:
        return parse_percent(o->name, value, 100.0, &req->max_noise_pct);
    case OPT_THRESHOLD:
        return parse_percent(o->name, value, 1000.0, &req->threshold_pct);
    case OPT_LAUNCHES: req->launches = true; return GP_OK;
    case OPT_FOLLOW_CHILDREN: req->follow_children = true; return GP_OK;
    case OPT_JSON: req->output = GP_OUT_JSON; return GP_OK;
    case OPT_CSV: req->output = GP_OUT_CSV; return GP_OK;
    case OPT_HTML: req->output = GP_OUT_HTML; return GP_OK;
    case OPT_NO_HEADER: req->no_header = true; return GP_OK;
    case OPT_METRICS_DETAIL: req->metrics_detail = true; return GP_OK;
    case OPT_REQUIRE_METRICS: req->require_metrics = true; return GP_OK;
    case OPT_HELP: return GP_OK; /* handled after parsing: --help wins */
    case OPT_COUNT: break;
    }
    return gp_fail(GP_ERR_USAGE, "internal error: unhandled option --%s", o->name);
}

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
    return apply_option(req, o, value);
}

static void set_defaults(gp_request *req, const command_context *cc)
{
    req->command = cc->cmd;
    req->family = cc->family;
    req->repeat = GP_DEFAULT_REPEAT;
    req->warmup = GP_DEFAULT_WARMUP;
    req->max_noise_pct = NAN;
    req->threshold_pct = GP_COMPARE_DEFAULT_THRESHOLD;
    req->device = cc->cmd->every_device ? -1 : 0;
    req->seed = GP_DEFAULT_SEED;
    req->launch_count = UINT64_MAX;
    req->per_kernel = UINT64_MAX;
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
                               options[d->option].name, f->name, req->variants[v]->name);
    }
    return GP_OK;
}

/* What a kernel command runs when an option is not given: the family's defaults (its
 * parameters' defaults are the plan's to resolve, variant by variant). */
static void fill_kernel_defaults(gp_request *req, const given_options *given)
{
    const gp_family *f = req->family;
    if (!given->seen[OPT_VARIANT])
        add_variant(req, "all");
    if (req->n_sizes == 0) {
        req->sizes[0] = f->default_size;
        req->n_sizes = 1;
    }
    if (req->n_types == 0) {
        req->types[0] = f->default_type;
        req->n_types = 1;
    }
}

static int finish_kernel_request(gp_request *req, const given_options *given)
{
    fill_kernel_defaults(req, given);
    GP_TRY(check_variant_params(req, given));
    if (req->n_variants == 0)
        return gp_fail(GP_ERR_USAGE, "no %s variant takes these options", req->family->name);
    return check_blocks(req, given);
}

static int finish_request(gp_request *req, const command_context *cc, const given_options *given)
{
    const gp_command_def *cmd = cc->cmd;
    if (given->seen[OPT_CSV] + given->seen[OPT_JSON] + given->seen[OPT_HTML] > 1)
        return gp_fail(GP_ERR_USAGE, "--json, --csv and --html cannot be combined");
    if (req->no_header && req->output != GP_OUT_CSV)
        return gp_fail(GP_ERR_USAGE, "--no-header applies to --csv output only");
    if (req->metrics_detail && req->output != GP_OUT_TEXT)
        return gp_fail(GP_ERR_USAGE, "--metrics-detail applies to text output only");
    if (req->launches && req->output != GP_OUT_TEXT)
        return gp_fail(GP_ERR_USAGE, "--launches applies to text output only (JSON and CSV "
                                     "hold every launch)");
    if (req->require_metrics && req->metrics.kind == GP_METRICS_NONE)
        return gp_fail(GP_ERR_USAGE, "--require-metrics contradicts --metrics=none");
    if (req->n_operands < cmd->min_operands)
        return gp_fail(GP_ERR_USAGE, "'%s' needs %s (see 'gpuprof %s --help')", cc->name,
                       cmd->operands, cc->name);
    if (req->chip && given->seen[OPT_DEVICE])
        return gp_fail(GP_ERR_USAGE, "--chip and --device cannot be combined");
    if (req->family)
        return finish_kernel_request(req, given);
    return GP_OK;
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
                   did_you_mean(hint, sizeof hint, "", first, candidates,
                                command_names(candidates, 64)),
                   names);
}

/* An operand (a word that is not an option). */
static int add_operand(gp_request *req, const command_context *cc, const char *arg)
{
    if (cc->cmd->program_operands && req->n_operands == 0 && !arg[0])
        return gp_fail(GP_ERR_USAGE, "an empty program name for '%s'", cc->name);
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
        else if (!operands_only && strcmp(arg, "-h") == 0)
            help = true;
        else if (!operands_only && arg[0] == '-' && arg[1] != '\0')
            return gp_fail(GP_ERR_USAGE, "unknown option '%s' for '%s' (options are long: "
                                         "--name=value; see 'gpuprof %s --help')", arg,
                           cc.name, cc.name);
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
