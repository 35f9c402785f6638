/* The options: one row per option, git's parse-options the model: its name, value and help
 * line, then how its value is read (the kind of value, its range) and where in the request
 * it goes. Every family parameter's option reads the same way, into the request's values of
 * that parameter, in the range its family's descriptor gives. A value is checked alone here;
 * what depends on other options is checked once the command line is read (cli.c). */
#include "cli/option_table.h"

#include "cli/chips.h"

#include "gpuprof/exec_modes.h"
#include "gpuprof/metrics.h"
#include "gpuprof/numparse.h"
#include "gpuprof/nvtx_filter.h"
#include "gpuprof/regex_size.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"
#include "gpuprof/suggest.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values ------------------------------------------------------------------------------ */

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

/* ---- the items of the lists -------------------------------------------------------------- */

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
                       f->name, gp_suggest_hint(hint, sizeof hint, "", name, candidates, n), names);
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

/* ---- a family parameter's values --------------------------------------------------------- */

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

/* ---- metrics and kernels ----------------------------------------------------------------- */

/* The sets --metrics takes as its whole value, by name: the one list of their names, which
 * the value, the refusal of a set inside a list and the suggestions all read. */
static const struct {
    const char *name;
    gp_metrics_kind kind;
} metric_sets[] = {
    {"default", GP_METRICS_DEFAULT},
    {"all", GP_METRICS_ALL},
    {"none", GP_METRICS_NONE},
};
#define N_METRIC_SETS (sizeof metric_sets / sizeof metric_sets[0])

static const gp_metrics_kind *metric_set_named(const char *name)
{
    for (size_t i = 0; i < N_METRIC_SETS; i++)
        if (strcmp(metric_sets[i].name, name) == 0)
            return &metric_sets[i].kind;
    return NULL;
}

/* What --metrics may say: the groups (default among them), the other sets, then the
 * catalogue's keys. */
static size_t metric_words(const char **words, size_t max)
{
    size_t n = 0, count;
    for (unsigned g = 0; g < GP_GROUP_ALL_ONLY && n < max; g++)
        words[n++] = gp_metric_group_name((gp_metric_group)g);
    gp_metric_group group;
    for (size_t i = 0; i < N_METRIC_SETS && n < max; i++)
        if (!gp_metric_group_from_name(metric_sets[i].name, &group))
            words[n++] = metric_sets[i].name;
    const gp_metric_def *cat = gp_metric_catalogue(&count);
    for (size_t i = 0; i < count && n < max; i++)
        words[n++] = cat[i].key;
    return n;
}

/* One item of a --metrics list: a group, a catalogue key or a raw PerfWorks name. */
static int add_metric(void *ctx, const char *text)
{
    gp_request *req = ctx;
    gp_metrics_request *m = &req->metrics;
    gp_metric_group group;
    if (gp_metric_group_from_name(text, &group)) { /* default is a group too */
        m->groups |= GP_GROUP_BIT(group);
        return GP_OK;
    }
    if (metric_set_named(text))
        return gp_fail(GP_ERR_USAGE, "'%s' cannot be combined with other metrics in --metrics",
                       text);
    /* Raw PerfWorks names contain "__" (unit__counter); anything else must be a key. */
    if (!gp_find_metric(text) && !strstr(text, "__")) {
        const char *words[GP_METRIC_GROUPS + N_METRIC_SETS + GP_MAX_CATALOGUE];
        const size_t n = metric_words(words, sizeof words / sizeof words[0]);
        char hint[GP_SUGGEST_MAX_LEN + 32], groups[128] = "";
        for (unsigned g = 0; g < GP_GROUP_ALL_ONLY; g++)
            snprintf(groups + strlen(groups), sizeof groups - strlen(groups), "%s%s",
                     g ? ", " : "", words[g]);
        return gp_fail(GP_ERR_USAGE, "unknown metric or group '%s'%s (groups: %s, all; keys: "
                                     "see 'gpuprof metrics'; PerfWorks names such as "
                                     "dram__bytes_read.sum are accepted too)", text,
                       gp_suggest_hint(hint, sizeof hint, "", text, words, n), groups);
    }
    if (strlen(text) >= sizeof m->names[0])
        return gp_fail(GP_ERR_USAGE, "metric name '%s' is too long", text);
    strcpy(m->names[m->n_names++], text);
    return GP_OK;
}

/* --metrics: a set alone (default, all, none), or a list of groups, keys and raw names. */
static int read_metrics(void *ctx, const char *text)
{
    gp_request *req = ctx;
    req->metrics.n_names = 0;
    req->metrics.groups = 0;
    const gp_metrics_kind *set = metric_set_named(text);
    if (set) {
        req->metrics.kind = *set;
        return GP_OK;
    }
    req->metrics.kind = GP_METRICS_LIST;
    return for_each_item("metrics", text, GP_MAX_METRIC_NAMES, add_metric, req);
}

/* --chip: a chip's name as CUPTI spells it; a product's name or another case is answered with
 * the chip meant, anything else is left for CUPTI to judge. */
static int read_chip(void *ctx, const char *text)
{
    gp_request *req = ctx;
    const char *meant = gp_chip_meant(text);
    if (meant)
        return gp_fail(GP_ERR_USAGE, "unknown chip '%s'; did you mean '%s'? (--chip takes the "
                                     "chip's name as CUPTI spells it)", text, meant);
    req->chip = text;
    return GP_OK;
}

/* --kernel: refused here when it does not compile, not in the program it is meant for. */
static int read_kernel(void *ctx, const char *text)
{
    gp_request *req = ctx;
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
    if (strlen(text) >= sizeof req->exec.kernel_regex)
        return gp_fail(GP_ERR_USAGE, "invalid value for --kernel: longer than %zu characters",
                       sizeof req->exec.kernel_regex - 1);
    strcpy(req->exec.kernel_regex, text);
    return GP_OK;
}

/* --nvtx-include and --nvtx-exclude: each expression checked here, its regexes bounded as
 * --kernel's before regcomp sees them; either implies --nvtx. */
static int read_nvtx_filter(gp_request *req, const char *opt, const char *text,
                            char (*list)[GP_EXEC_NVTX_FILTER_LEN], unsigned *n)
{
    gp_exec_request *q = &req->exec;
    if (q->n_nvtx_include + q->n_nvtx_exclude >= GP_NVTX_FILTERS_MAX)
        return gp_fail(GP_ERR_USAGE, "more than %d --nvtx-include and --nvtx-exclude "
                                     "expressions", GP_NVTX_FILTERS_MAX);
    gp_nvtx_filter f;
    GP_TRY(gp_nvtx_filter_shape(opt, text, &f));
    for (unsigned i = 0; f.regex && i <= f.n_names; i++) {
        const char *name = gp_nvtx_filter_name(&f, i);
        if (gp_regex_expansion(name) > GP_REGEX_MAX_NODES || gp_regex_repeats_empty(name))
            return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: the regex '%s' would "
                                         "take regcomp too long (as --kernel's: nested or "
                                         "repeated quantifiers, or a repeat of what can "
                                         "match nothing)", text, opt, name);
    }
    GP_TRY(gp_nvtx_filter_parse(opt, text, &f));
    strcpy(list[(*n)++], text); /* shorter than GP_NVTX_FILTER_LEN: parsed */
    q->nvtx = true;
    return GP_OK;
}

static int read_nvtx_include(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return read_nvtx_filter(req, "nvtx-include", text, req->exec.nvtx_include,
                            &req->exec.n_nvtx_include);
}

static int read_nvtx_exclude(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return read_nvtx_filter(req, "nvtx-exclude", text, req->exec.nvtx_exclude,
                            &req->exec.n_nvtx_exclude);
}

/* A value that is one of `names`: the usage error of another, with a suggestion and the
 * valid ones. */
static int invalid_choice(const char *opt, const char *text, const char *const *names,
                          size_t n)
{
    char hint[GP_SUGGEST_MAX_LEN + 32], valid[256] = "";
    for (size_t i = 0, used = 0; i < n && used < sizeof valid; i++)
        used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "",
                                 names[i]);
    return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s%s (valid: %s)", text, opt,
                   gp_suggest_hint(hint, sizeof hint, "", text, names, n), valid);
}

/* --replay: one of exec's modes. */
static int read_replay(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return gp_exec_replay_from_name(text, &req->exec.replay)
               ? GP_OK
               : invalid_choice("replay", text, gp_exec_replay_names, GP_EXEC_REPLAY_MODES);
}

/* --graph-profiling: how the kernel nodes of CUDA graphs are profiled. */
static int read_graph_profiling(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return gp_graph_profiling_from_name(text, &req->exec.graph_profiling)
               ? GP_OK
               : invalid_choice("graph-profiling", text, gp_graph_profiling_names,
                                GP_GRAPH_MODES);
}

/* --graph-samples: a count, or all. */
static int read_graph_samples(void *ctx, const char *text)
{
    gp_request *req = ctx;
    if (strcmp(text, "all") == 0) {
        req->exec.graph_samples = UINT64_MAX;
        return GP_OK;
    }
    return parse_count("graph-samples", text, 0, UINT64_MAX - 1, &req->exec.graph_samples);
}

/* --stall-period: log2 cycles, as CUPTI takes them. */
static int read_stall_period(void *ctx, const char *text)
{
    gp_request *req = ctx;
    uint64_t n = 0;
    GP_TRY(parse_count("stall-period", text, GP_STALL_PERIOD_MIN, GP_STALL_PERIOD_MAX, &n));
    req->exec.stall_period = (unsigned)n;
    return GP_OK;
}

/* --kernel-name: one of ncu's styles. */
static int read_kernel_name(void *ctx, const char *text)
{
    gp_request *req = ctx;
    return gp_kernel_name_style_from_name(text, &req->kernel_name)
               ? GP_OK
               : invalid_choice("kernel-name", text, gp_kernel_name_styles,
                                GP_KERNEL_NAME_STYLES);
}

/* ---- the table --------------------------------------------------------------------------- */

/* How an option's value is read, and where it goes. */
typedef enum {
    READ_NOTHING,  /* --help: looked at once the command line is read */
    READ_TRUE,     /* a flag: the bool at `field` becomes true */
    READ_FORMAT,   /* a flag: the output format becomes `format` */
    READ_COUNT,    /* a whole number from min to max: into the unsigned, int or uint64_t at
                      `field` */
    READ_PERCENT,  /* a percentage above 0 and at most max: into the double at `field` */
    READ_TEXT,     /* the text as given: into the const char * at `field` */
    READ_LIST,     /* at most max comma-separated items, each added by read(); the list, whose
                      count is at `field`, starts again */
    READ_PARAM,    /* the values of the family's parameter of this option (read_param) */
    READ_CUSTOM    /* read(request, text) */
} read_kind;

typedef struct {
    gp_option_def def;         /* what --help and the parser's lookup see */
    read_kind kind;
    size_t field, size;        /* where the value goes: offset and size in gp_request */
    uint64_t min, max;
    gp_output format;
    int (*read)(void *ctx, const char *text);
} option_row;

#define FIELD(f) .field = offsetof(gp_request, f), .size = sizeof(((gp_request *)0)->f)
#define FLAG(f) .kind = READ_TRUE, FIELD(f)
#define FORMAT(fmt) .kind = READ_FORMAT, .format = (fmt)
#define COUNT(f, lo, hi) .kind = READ_COUNT, FIELD(f), .min = (lo), .max = (hi)
#define PERCENT(f, most) .kind = READ_PERCENT, FIELD(f), .max = (most)
#define TEXT(f) .kind = READ_TEXT, FIELD(f)
#define LIST(count, item, most) .kind = READ_LIST, FIELD(count), .read = (item), .max = (most)
#define PARAM .kind = READ_PARAM
#define CUSTOM(fn) .kind = READ_CUSTOM, .read = (fn)

static const option_row rows[] = {
    [OPT_VARIANT] = {{OPT_VARIANT, "variant", "LIST",
                      "variants to run, comma-separated, or 'all' (default: all)"},
                     LIST(n_variants, add_variant, GP_MAX_LIST)},
    [OPT_BLOCK] = {{OPT_BLOCK, "block", "N",
                    "block size(s), comma-separated (default: each variant's own)"},
                   LIST(n_blocks, add_block, GP_MAX_LIST)},
    [OPT_SIZE] = {{OPT_SIZE, "size", "N", "problem size(s), comma-separated; N, 2^K or 2^K+C"},
                  LIST(n_sizes, add_size, GP_MAX_LIST)},
    [OPT_TYPE] = {{OPT_TYPE, "type", "T",
                   "element type: int32, float32 or both comma-separated (default: int32)"},
                  LIST(n_types, add_type, 2)},
    [OPT_PAD] = {{OPT_PAD, "pad", "N",
                  "shared-tile padding(s) in 4-byte words, 0 to 32, comma-separated"},
                 PARAM},
    [OPT_GROUP] = {{OPT_GROUP, "group", "N",
                    "tile side(s) of the 2-D reduction: 2, 4, 8, 16 or 32 (default: 16)"},
                   PARAM},
    [OPT_GRID] = {{OPT_GRID, "grid", "N",
                   "blocks of the grid-stride variants (default: 32 x multiprocessors)"},
                  PARAM},
    [OPT_REPEAT] = {{OPT_REPEAT, "repeat", "N", "timed launches per result (default: 20)"},
                    COUNT(repeat, 1, 100000)},
    [OPT_WARMUP] = {{OPT_WARMUP, "warmup", "N", "untimed launches before timing (default: 3)"},
                    COUNT(warmup, 0, 100000)},
    [OPT_DEVICE] = {{OPT_DEVICE, "device", "N", "CUDA device index (default: 0)"},
                    COUNT(device, 0, 1023)},
    [OPT_SEED] = {{OPT_SEED, "seed", "N", "seed of the random input (default: 1)"},
                  COUNT(seed, 0, UINT64_MAX)},
    [OPT_JSON] = {{OPT_JSON, "json", NULL, "JSON output (JSON Schema in PREFIX/share/gpuprof/schemas/)"},
                  FORMAT(GP_OUT_JSON)},
    [OPT_CSV] = {{OPT_CSV, "csv", NULL, "CSV output: one header line, one row per result"},
                 FORMAT(GP_OUT_CSV)},
    [OPT_HTML] = {{OPT_HTML, "html", NULL,
                   "HTML output: one self-contained page with charts, for a browser"},
                  FORMAT(GP_OUT_HTML)},
    [OPT_MARKDOWN] = {{OPT_MARKDOWN, "markdown", NULL,
                       "Markdown output: the text's parts as GitHub-flavoured tables, for a "
                       "pull request's comment or a CI job's summary"},
                      FORMAT(GP_OUT_MARKDOWN)},
    [OPT_MAX_NOISE] = {{OPT_MAX_NOISE, "max-noise", "PCT",
                        "repeat each result until its timing noise is at most PCT % (up to "
                        "50 x --repeat launches or 10 s)"},
                       PERCENT(max_noise_pct, 100)},
    [OPT_THRESHOLD] = {{OPT_THRESHOLD, "threshold", "PCT",
                        "a change is significant beyond PCT % and both runs' noise (default: "
                        "5)"},
                       PERCENT(threshold_pct, 1000)},
    [OPT_NO_HEADER] = {{OPT_NO_HEADER, "no-header", NULL,
                        "CSV without its header line (for appending in loops)"},
                       FLAG(no_header)},
    [OPT_CSV_COLUMNS] = {{OPT_CSV_COLUMNS, "csv-columns", "LIST",
                          "CSV: only these columns, comma-separated, in this order (names "
                          "as in the full header)"},
                         TEXT(csv_columns)},
    [OPT_METRICS] = {{OPT_METRICS, "metrics", "SET",
                      "hardware metrics: default, all, none, or a comma-separated list of "
                      "groups (default, local, l2, atomics, sysmem, async), keys or PerfWorks "
                      "names"},
                     CUSTOM(read_metrics)},
    [OPT_METRICS_DETAIL] = {{OPT_METRICS_DETAIL, "metrics-detail", NULL,
                             "text: every metric of every kernel, its minimum and maximum too (nvprof's long form)"},
                            FLAG(metrics_detail)},
    [OPT_REQUIRE_METRICS] = {{OPT_REQUIRE_METRICS, "require-metrics", NULL,
                              "exit 1 when the metrics cannot be collected (default: warn, "
                              "exit 0)"},
                             FLAG(require_metrics)},
    [OPT_SOURCE] = {{OPT_SOURCE, "source", NULL,
                     "where each kernel moves memory: its source lines with the instructions, "
                     "requests, sectors and ideal sectors they executed, worst first (kernel "
                     "commands: one more run, its instructions counted; exec: the program's "
                     "next launch of each kernel after its counters, patched to count them, "
                     "untimed, each code of a kernel apart; a graph's node: a shadow launch of "
                     "it); "
                     "report: CSV of a saved view, a row per line (a report without one: a "
                     "usage error)"},
                    FLAG(source)},
    [OPT_NVTX] = {{OPT_NVTX, "nvtx", NULL,
                   "record the program's NVTX ranges (push/pop per thread, start/end, domains) "
                   "and each kernel launch's range path, as ncu's --nvtx (a graph node's "
                   "capture ranges nested in its launch's; a PyTorch backward op's naming its "
                   "forward op); in the JSON report's launches"},
                  FLAG(exec.nvtx)},
    [OPT_NVTX_INCLUDE] = {{OPT_NVTX_INCLUDE, "nvtx-include", "EXPR",
                           "profile only launches inside the NVTX ranges EXPR names, ncu's "
                           "grammar: 'A/B/' push/pop ranges nested on the launching thread "
                           "('[' and ']' anchor at the outermost and innermost, '*' any ranges), "
                           "'A,B' start/end ranges open, 'Domain@' a domain's, 'regex:' regular "
                           "expressions; given again, any of them; implies --nvtx (the others "
                           "are timed)"},
                          CUSTOM(read_nvtx_include)},
    [OPT_NVTX_EXCLUDE] = {{OPT_NVTX_EXCLUDE, "nvtx-exclude", "EXPR",
                           "do not profile launches inside the NVTX ranges EXPR names (the "
                           "grammar of --nvtx-include, 16 expressions of both in all); implies "
                           "--nvtx"},
                          CUSTOM(read_nvtx_exclude)},
    [OPT_SASS] = {{OPT_SASS, "sass", NULL,
                   "with --source, text: each line's instructions under it"},
                  FLAG(sass)},
    [OPT_CHIP] = {{OPT_CHIP, "chip", "NAME",
                   "chip to describe without a GPU, e.g. GH100, GA100, AD102"},
                  CUSTOM(read_chip)},
    [OPT_KERNEL] = {{OPT_KERNEL, "kernel", "REGEX",
                     "profile only the kernels whose demangled or mangled name matches (POSIX "
                     "extended regular expression)"},
                    CUSTOM(read_kernel)},
    [OPT_LAUNCH_SKIP] = {{OPT_LAUNCH_SKIP, "launch-skip", "N",
                          "do not profile the first N launches that match (default: 0)"},
                         COUNT(exec.launch_skip, 0, UINT64_MAX - 1)},
    [OPT_LAUNCH_COUNT] = {{OPT_LAUNCH_COUNT, "launch-count", "N",
                           "profile at most N launches in all (default: every one)"},
                          COUNT(exec.launch_count, 1, UINT64_MAX - 1)},
    [OPT_PER_KERNEL] = {{OPT_PER_KERNEL, "per-kernel", "N",
                         "profile at most N launches of each kernel (by name: all its codes), "
                         "only time the rest"},
                        COUNT(exec.per_kernel, 1, UINT64_MAX - 1)},
    [OPT_LAUNCHES] = {{OPT_LAUNCHES, "launches", NULL,
                       "exec reports: one row per launch, and per copy and memset, instead of "
                       "one per kernel, in text and CSV, each with its kernel's label; its "
                       "profiled column: yes, no, or the counter groups it collected, p0, p1, "
                       "..., all (JSON always holds every launch)"},
                      FLAG(launches)},
    [OPT_OUTPUT] = {{OPT_OUTPUT, "output", "FILE",
                     "write the report to FILE, or to standard output for '-' (%p: gpuprof's "
                     "process id, %q{NAME}: the environment variable NAME, %%: %); needed by "
                     "--json and --csv, whose report would mix with the program's output"},
                    TEXT(output_file)},
    [OPT_FORCE] = {{OPT_FORCE, "force", NULL,
                    "let --output replace a file that exists (without it, exec refuses "
                    "before the program runs)"},
                   FLAG(force)},
    [OPT_FOLLOW_CHILDREN] = {{OPT_FOLLOW_CHILDREN, "follow-children", NULL,
                              "profile the processes the program starts too"},
                             FLAG(exec.follow_children)},
    [OPT_REPLAY] = {{OPT_REPLAY, "replay", "MODE",
                     "how counters of several passes are collected, per kernel code and "
                     "launch shape: auto (the first launch replayed, later ones one pass each, "
                     "every pass again at the 256th launch and each 4 times as many), rotate "
                     "(never replay), kernel (every launch replayed) or application (the "
                     "program run once per pass) (default: auto)"},
                    CUSTOM(read_replay)},
    [OPT_GRAPH_PROFILING] = {{OPT_GRAPH_PROFILING, "graph-profiling", "MODE",
                              "kernels of CUDA graphs: node (each kernel node profiled as a "
                              "launch of its own, its DRAM traffic sampled in the graph's own "
                              "run), graph (one range per graph launch, hardware counters only) "
                              "or time (timed, not profiled) (default: node)"},
                             CUSTOM(read_graph_profiling)},
    [OPT_GRAPH_SAMPLES] = {{OPT_GRAPH_SAMPLES, "graph-samples", "N",
                            "profile each CUDA graph's first N launches (sampled DRAM traffic "
                            "under node, a range under graph), only time the later ones; 'all' "
                            "for every launch (default: 10)"},
                           CUSTOM(read_graph_samples)},
    [OPT_WIDE] = {{OPT_WIDE, "wide", NULL,
                   "text: full column headers and kernel names, lines as long as they need, "
                   "the ideals beside per-request values, each kernel in exec's GPU activities "
                   "(default: 120 columns, abbreviated headers explained by a legend)"},
                  FLAG(wide)},
    [OPT_KERNEL_NAME] = {{OPT_KERNEL_NAME, "kernel-name", "STYLE",
                          "text: kernel names short (the qualified name and the template "
                          "arguments that tell kernels apart), in full (demangled, with "
                          "parameters), as function (without parameters) or base (without "
                          "namespaces, templates and parameters) (default: short)"},
                         CUSTOM(read_kernel_name)},
    [OPT_RANK] = {{OPT_RANK, "rank", "N",
                   "the process's rank in a distributed job, for the report (default: from "
                   "RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, the first set)"},
                  COUNT(exec.rank, 0, INT_MAX)},
    [OPT_BY_RANK] = {{OPT_BY_RANK, "by-rank", NULL,
                      "ranks' exec reports: one row per kernel and rank instead of each "
                      "kernel's spread over the ranks (JSON always holds every rank)"},
                     FLAG(by_rank)},
    [OPT_BY_RANGE] = {{OPT_BY_RANGE, "by-range", NULL,
                       "exec reports recorded with --nvtx: one row per NVTX range instead of "
                       "one per kernel, an indented tree in text (PyTorch emit_nvtx's per-call "
                       "seq, op_id and sizes removed from its labels), flat in CSV (JSON "
                       "always holds every range); of ranks' reports, each range's time over "
                       "the ranks and its slowest rank"},
                      FLAG(by_range)},
    [OPT_STALLS] = {{OPT_STALLS, "stalls", NULL,
                     "why warps wait: CUPTI's PC sampling during the program's own launches, "
                     "each kernel's and each source line's samples by stall reason, grouped "
                     "memory first, beside --source's sectors where a report holds both (a run "
                     "of its own: no counters; exec: no --source, give a report of each to "
                     "'report'; a kernel command runs again in a child under exec, its "
                     "--source after it); CSV: a row per kernel line (report: of a saved run)"},
                    FLAG(stalls)},
    [OPT_STALL_PERIOD] = {{OPT_STALL_PERIOD, "stall-period", "N",
                           "with --stalls: a sample every 2^N cycles of each SM sub-partition, "
                           "N from 5 to 31 (default: 15)"},
                          CUSTOM(read_stall_period)},
    [OPT_HELP] = {{OPT_HELP, "help", NULL, "show this help and exit"}, .kind = READ_NOTHING},
};

_Static_assert(sizeof rows / sizeof rows[0] == OPT_COUNT,
               "every option id has a row in the option table");

const gp_option_def *gp_option(gp_option_id id)
{
    return id < OPT_COUNT ? &rows[id].def : NULL;
}

/* The one-letter forms, of flags only (so that one never takes the next word as its value);
 * -h is --help's for every command, read by the parser itself. */
static const struct {
    gp_option_id id;
    char letter;
} letters[] = {
    {OPT_FORCE, 'f'},
};

char gp_option_letter(gp_option_id id)
{
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
        if (letters[i].id == id)
            return letters[i].letter;
    return '\0';
}

/* ---- reading by the row ------------------------------------------------------------------ */

/* The two widths of READ_COUNT's fields: an int holds its non-negative values with the bits
 * of the unsigned of the same value. */
_Static_assert(sizeof(unsigned) == sizeof(int) && sizeof(unsigned) < sizeof(uint64_t),
               "a count's field is told apart by its size");

static void store_count(void *field, size_t size, uint64_t v)
{
    if (size == sizeof v) {
        memcpy(field, &v, sizeof v);
        return;
    }
    const unsigned narrow = (unsigned)v; /* the row's range fits its field */
    memcpy(field, &narrow, sizeof narrow);
}

int gp_option_read(gp_request *req, const gp_option_def *o, const char *text)
{
    const option_row *row = &rows[o->id];
    void *field = (char *)req + row->field;
    uint64_t v = 0;
    switch (row->kind) {
    case READ_NOTHING: return GP_OK;
    case READ_TRUE: *(bool *)field = true; return GP_OK;
    case READ_FORMAT: req->output = row->format; return GP_OK;
    case READ_COUNT:
        GP_TRY(parse_count(o->name, text, row->min, row->max, &v));
        store_count(field, row->size, v);
        return GP_OK;
    case READ_PERCENT: return parse_percent(o->name, text, (double)row->max, field);
    case READ_TEXT: *(const char **)field = text; return GP_OK;
    case READ_LIST:
        *(size_t *)field = 0;
        return for_each_item(o->name, text, row->max, row->read, req);
    case READ_PARAM: return read_param(req, o, text);
    case READ_CUSTOM: return row->read(req, text);
    }
    return gp_fail(GP_ERR_USAGE, "internal error: unhandled option --%s", o->name);
}
