/* The per-line view (--source) as two parts (gpuprof/report_parts.h): a kernel's lines, and
 * its instructions, which text shows under their lines (--sass) in the same count columns.
 * A line and an instruction both hold their counts first (gpuprof/source_view.h), so that
 * one getter of a count column reads either. */
#include "gpuprof/report_parts.h"

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

/* A getter of the row's counts alone, c: `value`, an expression of c. */
#define COUNTS_GETTER(name, value)                                                          \
    static gp_cell name(const void *row, const void *ctx, char *buf, size_t len)            \
    {                                                                                       \
        (void)ctx, (void)buf, (void)len;                                                    \
        const uint64_t *c = counts_of(row);                                                 \
        return value;                                                                       \
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

/* HTML: the line's text, "" where its file cannot be read. */
static gp_cell get_text(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_source_line *l = row;
    gp_source_line_text(l->file, l->line, buf, len < GP_SOURCE_TEXT_LEN ? len : GP_SOURCE_TEXT_LEN);
    return GP_CELL_TEXT(buf);
}

/* CSV and JSON: the file as the line information names it, or none. */
static gp_cell get_file(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_source_line *l = row;
    return l->file ? GP_CELL_TEXT(l->file) : GP_CELL_NUMBER(NAN);
}

static gp_cell get_line(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_source_line *l = row;
    return GP_CELL_NUMBER(l->file ? (double)l->line : NAN);
}

/* CSV: the offset of a line-less entry's instruction. */
static gp_cell get_pc_of_line(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const long pc = ((const gp_source_line *)row)->file ? -1 : pc_of(context(ctx)->kernel, row);
    return GP_CELL_NUMBER(pc >= 0 ? (double)pc : NAN);
}

/* ---- an instruction's place ------------------------------------------------------------- */

static gp_cell get_pc(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(((const gp_source_pc *)row)->pc);
}

static const char *set_pc(void *row, const gp_cell *v, char *why, size_t len)
{
    uint64_t pc = 0;
    const char *bad = gp_part_whole(v, 0, UINT32_MAX, &pc, why, len);
    ((gp_source_pc *)row)->pc = (uint32_t)pc;
    return bad;
}

static gp_cell get_pc_line(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)((const gp_source_pc *)row)->line);
}

static const char *set_pc_line(void *row, const gp_cell *v, char *why, size_t len)
{
    uint64_t line = 0;
    const char *bad = gp_part_whole(v, 0, SIZE_MAX, &line, why, len);
    ((gp_source_pc *)row)->line = (size_t)line;
    return bad;
}

/* ---- the counts ------------------------------------------------------------------------- */

COUNTS_GETTER(get_inst, some(c[GP_SRC_INST]))
COUNTS_GETTER(get_requests, some(gp_source_requests(c)))
COUNTS_GETTER(get_sectors_per_request, ratio(c[GP_SRC_SECTORS], gp_source_requests(c)))
COUNTS_GETTER(get_ideal_per_request, ratio(c[GP_SRC_SECTORS_IDEAL], gp_source_requests(c)))
COUNTS_GETTER(get_wavefronts_per_request,
              ratio(c[GP_SRC_WAVEFRONTS], gp_source_shared_requests(c)))
COUNTS_GETTER(get_ideal_wavefronts_per_request,
              ratio(c[GP_SRC_WAVEFRONTS_IDEAL], gp_source_shared_requests(c)))
COUNTS_GETTER(get_local, some(c[GP_SRC_LOCAL_SECTORS]))
COUNTS_GETTER(get_excess_sectors, GP_CELL_NUMBER((double)gp_source_excess(c)))

/* Text: the line's share of the kernel's global excess, "-" where it has none. */
static gp_cell get_share(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const uint64_t excess = gp_source_excess(counts_of(row)), all = context(ctx)->excess;
    return GP_CELL_NUMBER(excess && all ? 100.0 * (double)excess / (double)all : NAN);
}

/* HTML: the same, 0 where the line has none and the kernel some. */
static gp_cell get_html_share(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const uint64_t all = context(ctx)->excess;
    return GP_CELL_NUMBER(all ? 100.0 * (double)gp_source_excess(counts_of(row)) / (double)all
                              : NAN);
}

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

/* A counter of gpuprof/sass_source.h, named by its key (gp_source_keys[k]). */
#define COUNTER(key, k)                                                                     \
    COUNTS_GETTER(get_##key, GP_CELL_NUMBER((double)c[k]))                                  \
    static const char *set_##key(void *row, const gp_cell *v, char *why, size_t len)        \
    {                                                                                       \
        return gp_part_whole(v, 0, UINT64_MAX, &((uint64_t *)row)[k], why, len);            \
    }

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
     .legend = "without line information, the offset of the entry's one instruction"}

/* ---- whose line: CSV's leading columns -------------------------------------------------- */

/* A getter of the context alone, x: `value`, an expression of x. */
#define CONTEXT_GETTER(name, value)                                                         \
    static gp_cell name(const void *row, const void *ctx, char *buf, size_t len)            \
    {                                                                                       \
        (void)row, (void)buf, (void)len;                                                    \
        const gp_source_context *x = context(ctx);                                          \
        return value;                                                                       \
    }

CONTEXT_GETTER(get_family, GP_CELL_TEXT(x->result->family))
CONTEXT_GETTER(get_variant, GP_CELL_TEXT(x->result->variant))
CONTEXT_GETTER(get_type, GP_CELL_TEXT(x->result->type))
CONTEXT_GETTER(get_n, GP_CELL_NUMBER((double)x->result->n))
CONTEXT_GETTER(get_nx, GP_CELL_NUMBER(x->result->nx))
CONTEXT_GETTER(get_ny, GP_CELL_NUMBER(x->result->ny))
CONTEXT_GETTER(get_mangled, GP_CELL_TEXT(x->kernel->kernel))
CONTEXT_GETTER(get_program, GP_CELL_TEXT(x->program))
CONTEXT_GETTER(get_number, GP_CELL_NUMBER((double)x->number))
CONTEXT_GETTER(get_name, GP_CELL_TEXT(x->name))
CONTEXT_GETTER(get_pid, GP_CELL_NUMBER(x->view->pid))
CONTEXT_GETTER(get_launch, GP_CELL_NUMBER((double)x->view->launch))

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

#define WHOSE(key_, format_, get_)                                                          \
    {.key = key_, .format = format_, .in = GP_IN_CSV, .get = get_}

/* ---- the parts -------------------------------------------------------------------------- */

static const gp_part_column line_columns[] = {
    WHOSE("family", GP_NUMBER_COLUMN, get_family),
    WHOSE("variant", GP_NUMBER_COLUMN, get_variant),
    WHOSE("type", GP_NUMBER_COLUMN, get_type),
    WHOSE("n", GP_NUMBER_COUNT, get_n),
    WHOSE("nx", GP_NUMBER_COUNT, get_nx),
    WHOSE("ny", GP_NUMBER_COUNT, get_ny),
    WHOSE("block", GP_NUMBER_COLUMN, get_block),
    WHOSE("params", GP_NUMBER_COLUMN, get_params),
    WHOSE("kernel", GP_NUMBER_COLUMN, get_mangled),
    {.key = "where", .header = "line", .align = GP_ALIGN_LEFT, .in = GP_IN_TEXT,
     .get = get_where},
    {.key = "line_number", .html = "line", .in = GP_IN_HTML, .get = get_line_number},
    {.key = "source_text", .html = "source", .in = GP_IN_HTML, .get = get_text},
    PLACE_COLUMNS,
    PEOPLE_COLUMNS,
    COUNTER_COLUMNS,
};

static const gp_part_column exec_line_columns[] = {
    WHOSE("source", GP_NUMBER_COLUMN, get_program),
    WHOSE("kernel_id", GP_NUMBER_COUNT, get_number),
    WHOSE("kernel", GP_NUMBER_COLUMN, get_name),
    WHOSE("mangled", GP_NUMBER_COLUMN, get_mangled),
    WHOSE("pid", GP_NUMBER_COUNT, get_pid),
    WHOSE("launch", GP_NUMBER_COUNT, get_launch),
    PLACE_COLUMNS,
    COUNTER_COLUMNS,
};

static const gp_part_column pc_columns[] = {
    {.key = "where", .header = "line", .align = GP_ALIGN_LEFT, .in = GP_IN_TEXT,
     .get = get_pc_where},
    {.key = "pc", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON, .get = get_pc, .set = set_pc,
     .legend = "the instruction's offset in the kernel's code"},
    {.key = "line", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON, .get = get_pc_line,
     .set = set_pc_line, .legend = "the index of its line in the kernel's lines"},
    PEOPLE_COLUMNS,
    COUNTER_COLUMNS,
};

const gp_part gp_source_line_part = GP_PART_DECLARE("lines", line_columns, 1, gp_source_line, -1);
const gp_part gp_source_exec_line_part =
    GP_PART_DECLARE("lines", exec_line_columns, 0, gp_source_line, -1);
const gp_part gp_source_pc_part = GP_PART_DECLARE("instructions", pc_columns, 1, gp_source_pc, -1);
