/* The per-line view (--source) as two parts (gpuprof/report_parts.h): a kernel's lines, and
 * its instructions, which text shows under their lines (--sass) in the same count columns.
 * A line and an instruction both hold their counts first (gpuprof/source_view.h), so that
 * one getter of a count column reads either. */
#include "gpuprof/report_parts.h"

#include "gpuprof/source_stalls.h"
#include "gpuprof/source_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The bytes of a line's place in text ("reduce.cu:44"), as the view has always cut it. */
#define WHERE_LEN 96
/* The bytes of CSV's parameters ("tile=32 rows=8"). */
#define PARAMS_LEN 256

gp_source_context gp_source_context_of(const gp_source_kernel *k)
{
    return (gp_source_context){.kernel = k, .excess = gp_source_kernel_excess(k),
                               .shared_excess = gp_source_kernel_shared_excess(k)};
}

static const gp_source_context *context(const void *ctx)
{
    return ctx;
}

static const uint64_t *counts_of(const void *row)
{
    return row;
}

/* A count for people: unknown ("-") where there is none. */
static gp_cell some(uint64_t v)
{
    return GP_CELL_NUMBER(v ? (double)v : NAN);
}

static gp_cell ratio(uint64_t num, uint64_t den)
{
    return GP_CELL_NUMBER(den ? (double)num / (double)den : NAN);
}

/* ---- where the line is ----------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What an instruction does, in words, from what it counted. */
static const char *access_of(const uint64_t *c)
{
    static const struct {
        int counter;
        const char *what;
    } accesses[] = {
        {GP_SRC_GLOBAL_LD, "global load"}, {GP_SRC_GLOBAL_ST, "global store"},
        {GP_SRC_SHARED_LD, "shared load"}, {GP_SRC_SHARED_ST, "shared store"},
        {GP_SRC_LOCAL_LD, "local load"},   {GP_SRC_LOCAL_ST, "local store"},
    };
    for (size_t i = 0; i < sizeof accesses / sizeof accesses[0]; i++)
        if (c[accesses[i].counter])
            return accesses[i].what;
    return c[GP_SRC_SECTORS] || c[GP_SRC_WAVEFRONTS] ? "memory" : "";
}

/* The offset of a line-less entry's one instruction, or -1. */
static long pc_of(const gp_source_kernel *k, const gp_source_line *l)
{
    const size_t line = (size_t)(l - k->lines);
    for (size_t p = 0; p < k->n_pcs; p++)
        if (k->pcs[p].line == line)
            return (long)k->pcs[p].pc;
    return -1;
}

/* Text: the file's name and the line, or without line information the instruction. */
static gp_cell get_where(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_source_line *l = row;
    const long pc = l->file ? -1 : pc_of(context(ctx)->kernel, l);
    len = len < WHERE_LEN ? len : WHERE_LEN;
    if (l->file)
        snprintf(buf, len, "%s:%u", base_name(l->file), l->line);
    else if (pc >= 0)
        snprintf(buf, len, "+0x%04lx %s", (unsigned long)pc, access_of(l->counts));
    else
        snprintf(buf, len, "?");
    return GP_CELL_TEXT(buf);
}

static gp_cell get_pc_where(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_source_pc *p = row;
    snprintf(buf, len, "  +0x%04x %s", p->pc, access_of(p->counts));
    return GP_CELL_TEXT(buf);
}

/* HTML: the line's number, "?" without line information. */
static gp_cell get_line_number(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_source_line *l = row;
    if (!l->file)
        return GP_CELL_TEXT("?");
    snprintf(buf, len, "%u", l->line);
    return GP_CELL_TEXT(buf);
}

/* HTML: the line's text as recorded (gp_source_line_shown), "" for none. */
static gp_cell get_text(const void *row, const void *ctx, char *buf, size_t len)
{
    gp_source_line_shown(context(ctx)->kernel, row, buf,
                         len < GP_SOURCE_TEXT_LEN ? len : GP_SOURCE_TEXT_LEN);
    return GP_CELL_TEXT(buf);
}

/* JSON: the text recorded with the view, null where its file could not be read then; no key
 * in a view not recorded (a report from before lines kept their text), as it was read. */
static gp_cell get_recorded_text(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_source_line *l = row;
    if (!context(ctx)->kernel->n_files)
        return GP_CELL_ABSENT;
    return l->text ? GP_CELL_TEXT(l->text) : GP_CELL_NUMBER(NAN);
}

/* CSV and JSON: the file as the line information names it, or none. */
GP_PART_GETTER(get_file, gp_source_line, void,
               r->file ? GP_CELL_TEXT(r->file) : GP_CELL_NUMBER(NAN))
GP_PART_NUMBER_GETTER(get_line, gp_source_line, void, r->file ? (double)r->line : NAN)

/* CSV: the offset of a line-less entry's instruction. */
static gp_cell get_pc_of_line(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const long pc = ((const gp_source_line *)row)->file ? -1 : pc_of(context(ctx)->kernel, row);
    return GP_CELL_NUMBER(pc >= 0 ? (double)pc : NAN);
}

/* ---- an instruction's place ------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_pc, gp_source_pc, void, r->pc)
GP_PART_WHOLE_SETTER(set_pc, gp_source_pc, r->pc, 0, UINT32_MAX)
GP_PART_NUMBER_GETTER(get_pc_line, gp_source_pc, void, r->line)
GP_PART_WHOLE_SETTER(set_pc_line, gp_source_pc, r->line, 0, SIZE_MAX)

/* ---- the counts ------------------------------------------------------------------------- */

GP_PART_GETTER(get_inst, uint64_t, void, some(r[GP_SRC_INST]))
GP_PART_GETTER(get_requests, uint64_t, void, some(gp_source_requests(r)))
GP_PART_GETTER(get_sectors_per_request, uint64_t, void,
               ratio(r[GP_SRC_SECTORS], gp_source_requests(r)))
GP_PART_GETTER(get_ideal_per_request, uint64_t, void,
               ratio(r[GP_SRC_SECTORS_IDEAL], gp_source_requests(r)))
GP_PART_GETTER(get_wavefronts_per_request, uint64_t, void,
               ratio(r[GP_SRC_WAVEFRONTS], gp_source_shared_requests(r)))
GP_PART_GETTER(get_ideal_wavefronts_per_request, uint64_t, void,
               ratio(r[GP_SRC_WAVEFRONTS_IDEAL], gp_source_shared_requests(r)))
GP_PART_GETTER(get_local, uint64_t, void, some(r[GP_SRC_LOCAL_SECTORS]))
GP_PART_NUMBER_GETTER(get_excess_sectors, uint64_t, void, gp_source_excess(r))

/* A share of the kernel's global excess in per cent; unknown where the kernel has none. */
static double share(uint64_t excess, uint64_t all)
{
    return all ? 100.0 * (double)excess / (double)all : NAN;
}

/* Text: the line's share, "-" where it has none; HTML: 0 where it has none and the kernel
 * some. */
GP_PART_NUMBER_GETTER(get_share, uint64_t, gp_source_context,
                      gp_source_excess(r) ? share(gp_source_excess(r), c->excess) : NAN)
GP_PART_NUMBER_GETTER(get_html_share, uint64_t, gp_source_context,
                      share(gp_source_excess(r), c->excess))

/* Read back: the excess JSON writes is a check of the counts read before it. */
static const char *set_excess_sectors(void *row, const gp_cell *v, char *why, size_t len)
{
    uint64_t excess;
    const char *bad = gp_part_whole(v, 0, UINT64_MAX, &excess, why, len);
    if (!bad && excess != gp_source_excess(counts_of(row))) {
        snprintf(why, len, "expected sectors minus ideal_sectors (0 when fewer)");
        return why;
    }
    return bad;
}

/* ---- the warp stalls joined (gpuprof/source_stalls.h) ----------------------------------- */

static bool joined(const void *ctx)
{
    return context(ctx)->stalls != NULL;
}

static const gp_stall_line *line_stalls(const void *row, const void *ctx)
{
    return gp_source_line_stalls(context(ctx)->stalls, context(ctx)->kernel, row);
}

static const gp_stall_line *pc_stalls(const void *row, const void *ctx)
{
    return gp_source_pc_stalls(context(ctx)->stalls, ((const gp_source_pc *)row)->pc);
}

/* JSON and CSV: the samples, their share of the kernel's and the key of their top group;
 * absent where the view has none joined, the group where the row has no samples. */
static gp_cell stall_samples(const gp_source_context *c, const gp_stall_line *s)
{
    return c->stalls ? GP_CELL_NUMBER(s ? s->counts.samples : 0) : GP_CELL_ABSENT;
}

static gp_cell stall_percent(const gp_source_context *c, const gp_stall_line *s)
{
    return c->stalls ? GP_CELL_NUMBER(s ? s->counts.share : 0) : GP_CELL_ABSENT;
}

static gp_stall_group top_of(const gp_stall_line *s)
{
    return s ? gp_stall_top_group(&s->counts) : GP_STALL_GROUPS;
}

static gp_cell stall_group(const gp_source_context *c, const gp_stall_line *s)
{
    const gp_stall_group g = top_of(s);
    return c->stalls && g < GP_STALL_GROUPS ? GP_CELL_TEXT(gp_stall_groups[g].key)
                                            : GP_CELL_ABSENT;
}

/* People: the share and the group's heading (its name on hover); "-" without samples, and
 * for a kernel of too few samples to tell shares apart (as the stall section has it). */
static bool shown(const gp_stall_line *s)
{
    return s && s->counts.samples && !s->counts.few;
}

static gp_cell stall_share(const gp_source_context *c, const gp_stall_line *s)
{
    (void)c;
    return GP_CELL_NUMBER(shown(s) ? s->counts.share : NAN);
}

static gp_cell stall_top(const gp_source_context *c, const gp_stall_line *s)
{
    (void)c;
    const gp_stall_group g = top_of(s);
    if (!shown(s) || g == GP_STALL_GROUPS)
        return GP_CELL_TEXT("-");
    return (gp_cell){.text = gp_stall_groups[g].header, .title = gp_stall_groups[g].name};
}

/* A getter of cell `what` of a row of kind `of` (line or pc). */
#define STALL_GETTER(of, what)                                                              \
    static gp_cell get_##of##_##what(const void *row, const void *ctx, char *buf, size_t len) \
    {                                                                                       \
        (void)buf, (void)len;                                                               \
        return what(context(ctx), of##_stalls(row, ctx));                                   \
    }
#define STALL_GETTERS(of)                                                                   \
    STALL_GETTER(of, stall_samples) STALL_GETTER(of, stall_percent)                         \
    STALL_GETTER(of, stall_group) STALL_GETTER(of, stall_share) STALL_GETTER(of, stall_top)
STALL_GETTERS(line)
STALL_GETTERS(pc)

/* People's, after the line's memory (shown where the view has stalls joined). */
#define STALL_PEOPLE_COLUMNS(of)                                                            \
    {.key = "stall_share", .header = "%stalls", .html = "% of stalls",                      \
     .format = GP_NUMBER_PERCENT1, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML,                 \
     .get = get_##of##_stall_share, .when = joined},                                        \
    {.key = "top_stall", .header = "stall", .html = "top stall", .align = GP_ALIGN_LEFT,    \
     .gap = 1, .in = GP_IN_TEXT | GP_IN_HTML, .get = get_##of##_stall_top, .when = joined}

/* JSON's (the line and instruction parts) or CSV's (an exec report's with stalls). */
#define STALL_DATA_COLUMNS(of, views)                                                       \
    {.key = "stall_samples", .format = GP_NUMBER_COUNT, .in = (views),                      \
     .get = get_##of##_stall_samples,                                                       \
     .legend = "its kernel code's warp-stall samples here (--stalls)"},                     \
    {.key = "stall_percent", .format = GP_NUMBER_PERCENT1, .in = (views),                   \
     .get = get_##of##_stall_percent,                                                       \
     .legend = "their share of the kernel code's samples, percent"},                        \
    {.key = "stall_group", .in = (views), .get = get_##of##_stall_group,                    \
     .legend = "the group of the most of them (memory_latency, ..., other)"}

/* A counter of gpuprof/sass_source.h, named by its key. */
#define COUNTER(key, k)                                                                     \
    GP_PART_NUMBER_GETTER(get_##key, uint64_t, void, r[k])                                  \
    GP_PART_WHOLE_SETTER(set_##key, uint64_t, r[k], 0, UINT64_MAX)

COUNTER(instructions, GP_SRC_INST)
COUNTER(global_loads, GP_SRC_GLOBAL_LD)
COUNTER(global_stores, GP_SRC_GLOBAL_ST)
COUNTER(sectors, GP_SRC_SECTORS)
COUNTER(ideal_sectors, GP_SRC_SECTORS_IDEAL)
COUNTER(shared_loads, GP_SRC_SHARED_LD)
COUNTER(shared_stores, GP_SRC_SHARED_ST)
COUNTER(shared_wavefronts, GP_SRC_WAVEFRONTS)
COUNTER(shared_ideal_wavefronts, GP_SRC_WAVEFRONTS_IDEAL)
COUNTER(local_loads, GP_SRC_LOCAL_LD)
COUNTER(local_stores, GP_SRC_LOCAL_ST)
COUNTER(local_sectors, GP_SRC_LOCAL_SECTORS)

#define COUNTER_COLUMN(key_, legend_)                                                       \
    {.key = #key_, .format = GP_NUMBER_COUNT, .in = GP_IN_CSV | GP_IN_JSON,                  \
     .get = get_##key_, .set = set_##key_, .legend = legend_}

/* People's figures of a line or an instruction, from inst on (text; HTML from sect/req on). */
#define PEOPLE_COLUMNS                                                                      \
    {.key = "inst", .header = "inst", .format = GP_NUMBER_WHOLE, .gap = 2,                  \
     .in = GP_IN_TEXT, .get = get_inst},                                                    \
    {.key = "req", .header = "req", .format = GP_NUMBER_WHOLE, .gap = 2, .in = GP_IN_TEXT,  \
     .get = get_requests},                                                                  \
    {.key = "sectors_per_request", .header = "sect/req", .html = "sectors/req",             \
     .format = GP_NUMBER_FIXED2, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML,                   \
     .get = get_sectors_per_request},                                                       \
    {.key = "ideal_per_request", .header = "ideal/req", .html = "ideal/req",                \
     .format = GP_NUMBER_FIXED2, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML,                   \
     .get = get_ideal_per_request},                                                         \
    {.key = "excess", .header = "excess", .format = GP_NUMBER_PERCENT1, .gap = 2,           \
     .in = GP_IN_TEXT, .get = get_share},                                                   \
    {.key = "excess_percent", .html = "excess %", .format = GP_NUMBER_PERCENT1,             \
     .in = GP_IN_HTML, .get = get_html_share},                                              \
    {.key = "wavefronts_per_request", .header = "shm wf/req", .html = "shared wf/req",      \
     .format = GP_NUMBER_FIXED2, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML,                   \
     .get = get_wavefronts_per_request},                                                    \
    {.key = "ideal_wavefronts_per_request", .header = "ideal/req", .html = "ideal/req",     \
     .format = GP_NUMBER_FIXED2, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML,                   \
     .get = get_ideal_wavefronts_per_request},                                              \
    {.key = "local", .header = "local", .format = GP_NUMBER_WHOLE, .gap = 2,                \
     .in = GP_IN_TEXT | GP_IN_HTML, .get = get_local}

/* The counters by key, and the excess: CSV's and JSON's. */
#define COUNTER_COLUMNS                                                                     \
    COUNTER_COLUMN(instructions, "warp instructions executed"),                             \
    COUNTER_COLUMN(global_loads, "of them, global loads (requests)"),                       \
    COUNTER_COLUMN(global_stores, "global stores (requests)"),                              \
    COUNTER_COLUMN(sectors, "global sectors accessed"),                                     \
    COUNTER_COLUMN(ideal_sectors, "the global sectors the bytes asked for would take"),     \
    COUNTER_COLUMN(shared_loads, "shared loads"),                                           \
    COUNTER_COLUMN(shared_stores, "shared stores"),                                         \
    COUNTER_COLUMN(shared_wavefronts, "shared wavefronts"),                                 \
    COUNTER_COLUMN(shared_ideal_wavefronts, "shared wavefronts without bank conflicts"),    \
    COUNTER_COLUMN(local_loads, "local (spill) loads"),                                     \
    COUNTER_COLUMN(local_stores, "local stores"),                                           \
    COUNTER_COLUMN(local_sectors, "local sectors"),                                         \
    {.key = "excess_sectors", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV | GP_IN_JSON,      \
     .get = get_excess_sectors, .set = set_excess_sectors,                                  \
     .legend = "global sectors over the ideal (sectors minus ideal_sectors, 0 when fewer)"}

/* CSV's and JSON's place of a line: its file, its line, without line information the offset
 * of its one instruction (CSV). */
#define PLACE_COLUMNS                                                                       \
    {.key = "file", .in = GP_IN_CSV | GP_IN_JSON, .get = get_file,                          \
     .legend = "the source file as the line information names it; null without it"},        \
    {.key = "line", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV | GP_IN_JSON,                \
     .get = get_line, .legend = "the line in the file; null without line information"},     \
    {.key = "pc", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_pc_of_line,        \
     .legend = "without line information, the offset of the entry's one instruction"},      \
    {.key = "text", .in = GP_IN_JSON, .get = get_recorded_text,                              \
     .legend = "the line's text when the report was recorded, without its indentation"}

/* ---- whose line: CSV's leading columns -------------------------------------------------- */

GP_PART_TEXT_GETTER(get_family, void, gp_source_context, c->result->family)
GP_PART_TEXT_GETTER(get_variant, void, gp_source_context, c->result->variant)
GP_PART_TEXT_GETTER(get_type, void, gp_source_context, c->result->type)
GP_PART_NUMBER_GETTER(get_n, void, gp_source_context, c->result->n)
GP_PART_NUMBER_GETTER(get_nx, void, gp_source_context, c->result->nx)
GP_PART_NUMBER_GETTER(get_ny, void, gp_source_context, c->result->ny)
GP_PART_TEXT_GETTER(get_mangled, void, gp_source_context, c->kernel->kernel)
GP_PART_TEXT_GETTER(get_program, void, gp_source_context, c->program)
GP_PART_NUMBER_GETTER(get_number, void, gp_source_context, c->number)
GP_PART_TEXT_GETTER(get_name, void, gp_source_context, c->name)
GP_PART_NUMBER_GETTER(get_pid, void, gp_source_context, c->view->pid)
GP_PART_NUMBER_GETTER(get_launch, void, gp_source_context, c->view->launch)

static gp_cell get_block(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)row;
    const gp_dim3 *b = &context(ctx)->result->block;
    snprintf(buf, len, "%ux%ux%u", b->x, b->y, b->z);
    return GP_CELL_TEXT(buf);
}

/* "name=value" of each parameter that has a value, separated by spaces. */
static gp_cell get_params(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)row;
    const gp_result *res = context(ctx)->result;
    len = len < PARAMS_LEN ? len : PARAMS_LEN;
    for (size_t i = 0, used = 0; i < res->n_params && used < len; i++)
        if (!isnan(res->params[i].value))
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", used ? " " : "",
                                     res->params[i].name, res->params[i].value);
    return GP_CELL_TEXT(buf);
}

/* ---- the parts -------------------------------------------------------------------------- */

static const gp_part_column line_columns[] = {
    {.key = "family", .in = GP_IN_CSV, .get = get_family},
    {.key = "variant", .in = GP_IN_CSV, .get = get_variant},
    {.key = "type", .in = GP_IN_CSV, .get = get_type},
    {.key = "n", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_n},
    {.key = "nx", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_nx},
    {.key = "ny", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_ny},
    {.key = "block", .in = GP_IN_CSV, .get = get_block},
    {.key = "params", .in = GP_IN_CSV, .get = get_params},
    {.key = "kernel", .in = GP_IN_CSV, .get = get_mangled},
    {.key = "where", .header = "line", .align = GP_ALIGN_LEFT, .in = GP_IN_TEXT,
     .get = get_where},
    {.key = "line_number", .html = "line", .in = GP_IN_HTML, .get = get_line_number},
    {.key = "source_text", .html = "source", .in = GP_IN_HTML, .get = get_text},
    PLACE_COLUMNS,
    PEOPLE_COLUMNS,
    STALL_PEOPLE_COLUMNS(line),
    COUNTER_COLUMNS,
    STALL_DATA_COLUMNS(line, GP_IN_JSON),
};

/* Where an exec report's view comes from: CSV's leading columns. */
#define EXEC_VIEW_COLUMNS                                                                   \
    {.key = "source", .in = GP_IN_CSV, .get = get_program},                                 \
    {.key = "kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_number},    \
    {.key = "kernel", .in = GP_IN_CSV, .get = get_name},                                    \
    {.key = "mangled", .in = GP_IN_CSV, .get = get_mangled},                                \
    {.key = "pid", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_pid},             \
    {.key = "launch", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_launch}

static const gp_part_column exec_line_columns[] = {
    EXEC_VIEW_COLUMNS,
    PLACE_COLUMNS,
    COUNTER_COLUMNS,
};

static const gp_part_column exec_stall_line_columns[] = {
    EXEC_VIEW_COLUMNS,
    PLACE_COLUMNS,
    COUNTER_COLUMNS,
    STALL_DATA_COLUMNS(line, GP_IN_CSV),
};

static const gp_part_column pc_columns[] = {
    {.key = "where", .header = "line", .align = GP_ALIGN_LEFT, .in = GP_IN_TEXT,
     .get = get_pc_where},
    {.key = "pc", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON, .get = get_pc, .set = set_pc,
     .legend = "the instruction's offset in the kernel's code"},
    {.key = "line", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON, .get = get_pc_line,
     .set = set_pc_line, .legend = "the index of its line in the kernel's lines"},
    PEOPLE_COLUMNS,
    STALL_PEOPLE_COLUMNS(pc),
    COUNTER_COLUMNS,
    STALL_DATA_COLUMNS(pc, GP_IN_JSON),
};

const gp_part gp_source_line_part = GP_PART_DECLARE("lines", line_columns, 1, gp_source_line, -1);
const gp_part gp_source_exec_line_part =
    GP_PART_DECLARE("lines", exec_line_columns, 0, gp_source_line, -1);
const gp_part gp_source_exec_stall_line_part =
    GP_PART_DECLARE("lines", exec_stall_line_columns, 0, gp_source_line, -1);
const gp_part gp_source_pc_part = GP_PART_DECLARE("instructions", pc_columns, 1, gp_source_pc, -1);
