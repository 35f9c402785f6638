/* The rank view's parts (gpuprof/report_parts.h): each kernel over the ranks, a kernel's
 * spread, a kernel on each rank, and the ranks. Their rows are the view's own arrays; what
 * else a cell needs (the view, the kernels' labels, the cells' kernel, the ranks' median) is
 * the context, gp_rank_part_ctx. Ranks are named by their rank, never by an index. Where the
 * views order or show a value differently (text's "3/3" and CSV's count; HTML's DRAM in MB),
 * the part has a column per place, each in its views. */
#include "gpuprof/report_parts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const gp_rank_part_ctx *ctx_of(const void *ctx)
{
    return ctx;
}

/* A rank's number by its index in the view; unknown (NAN) for none (SIZE_MAX). */
static gp_cell rank_number(const gp_rank_view *v, size_t index)
{
    return GP_CELL_NUMBER(index < v->n_ranks ? (double)v->ranks[index].rank : NAN);
}

/* A value that may be an estimate ("~" before it where people read it). */
static gp_cell estimate(double v, bool estimated, gp_number_format plain,
                        gp_number_format approximate)
{
    return (gp_cell){.number = v, .format = estimated ? approximate : plain};
}

/* A value against the median of its kind, in per cent; unknown without both. */
static gp_cell against(double v, double median)
{
    const bool both = isfinite(v) && isfinite(median) && median > 0;
    return GP_CELL_NUMBER(both ? 100.0 * (v - median) / median : NAN);
}

/* ---- setters ----------------------------------------------------------------------------- */

/* A whole number from min to max into an int, size_t or bool field of the row. */
static const char *set_int(int *out, const gp_cell *v, uint64_t min, uint64_t max, char *why,
                           size_t len)
{
    uint64_t u;
    const char *bad = gp_part_whole(v, min, max, &u, why, len);
    if (!bad)
        *out = (int)u;
    return bad;
}

static const char *set_size(size_t *out, const gp_cell *v, uint64_t min, uint64_t max,
                            char *why, size_t len)
{
    uint64_t u;
    const char *bad = gp_part_whole(v, min, max, &u, why, len);
    if (!bad)
        *out = (size_t)u;
    return bad;
}

/* null (0) or a whole number from min. */
static const char *set_int_or_null(int *out, const gp_cell *v, uint64_t min, char *why,
                                   size_t len)
{
    *out = 0;
    return isnan(v->number) && !v->text ? NULL : set_int(out, v, min, INT_MAX, why, len);
}

/* What the writer derives, read back to be checked (gp_rank_view_derive computes it again):
 * the reader's check of its type is the whole check. */
static const char *set_checked(void *row, const gp_cell *v, char *why, size_t len)
{
    (void)row, (void)v, (void)why, (void)len;
    return NULL;
}

static const char *set_count_checked(void *row, const gp_cell *v, char *why, size_t len)
{
    size_t n;
    (void)row;
    return set_size(&n, v, 0, UINT64_MAX, why, len);
}

static const char *set_number_checked(void *row, const gp_cell *v, char *why, size_t len)
{
    size_t n;
    (void)row;
    return set_size(&n, v, 1, UINT64_MAX, why, len);
}

static const char *set_rank_checked(void *row, const gp_cell *v, char *why, size_t len)
{
    int rank;
    (void)row;
    return set_int_or_null(&rank, v, 0, why, len);
}

static const char *set_time_checked(void *row, const gp_cell *v, char *why, size_t len)
{
    double ms;
    (void)row;
    return gp_part_at_least(v, 0, &ms, why, len);
}

/* ---- each kernel over the ranks ---------------------------------------------------------- */

static const gp_rank_kernel *kernel_of(const void *row)
{
    return row;
}

/* Getters of a kernel's spread: a statistic (min, median, max) of time_ms or dram_bytes,
 * scaled, with the formats of a value and of an estimate. */
#define SPREAD_GETTER(name, spread, stat, scale, plain, approximate)                            \
    static gp_cell name(const void *row, const void *ctx, char *buf, size_t len)               \
    {                                                                                          \
        (void)ctx, (void)buf, (void)len;                                                       \
        const gp_rank_spread *s = &kernel_of(row)->spread;                                     \
        return estimate(s->stat / (scale), s->estimated, plain, approximate);                  \
    }
SPREAD_GETTER(get_time_min, time_ms, min, 1, GP_NUMBER_MS, GP_NUMBER_MS_ESTIMATED)
SPREAD_GETTER(get_time_median, time_ms, median, 1, GP_NUMBER_MS, GP_NUMBER_MS_ESTIMATED)
SPREAD_GETTER(get_time_max, time_ms, max, 1, GP_NUMBER_MS, GP_NUMBER_MS_ESTIMATED)
SPREAD_GETTER(get_dram_min, dram_bytes, min, 1, GP_NUMBER_BYTES, GP_NUMBER_BYTES_ESTIMATED)
SPREAD_GETTER(get_dram_median, dram_bytes, median, 1, GP_NUMBER_BYTES,
              GP_NUMBER_BYTES_ESTIMATED)
SPREAD_GETTER(get_dram_max, dram_bytes, max, 1, GP_NUMBER_BYTES, GP_NUMBER_BYTES_ESTIMATED)
SPREAD_GETTER(get_dram_min_mb, dram_bytes, min, 1e6, GP_NUMBER_FIXED2,
              GP_NUMBER_FIXED2_ESTIMATED)
SPREAD_GETTER(get_dram_median_mb, dram_bytes, median, 1e6, GP_NUMBER_FIXED2,
              GP_NUMBER_FIXED2_ESTIMATED)
SPREAD_GETTER(get_dram_max_mb, dram_bytes, max, 1e6, GP_NUMBER_FIXED2,
              GP_NUMBER_FIXED2_ESTIMATED)

/* Its #N in every view: its place in the view's kernels, from 1. */
static gp_cell get_kernel_id(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return GP_CELL_NUMBER((double)(kernel_of(row) - ctx_of(ctx)->view->kernels + 1));
}

static gp_cell get_kernel(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_TEXT(kernel_of(row)->kernel);
}

/* Read back into a scratch row: the name lasts as long as the document. */
static const char *set_kernel(void *row, const gp_cell *v, char *why, size_t len)
{
    (void)why, (void)len;
    ((gp_rank_kernel *)row)->kernel = (char *)v->text;
    return NULL;
}

/* Unknown: empty in CSV, null in JSON. */
static gp_cell get_mangled(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const char *m = kernel_of(row)->mangled;
    return m ? GP_CELL_TEXT(m) : GP_CELL_NUMBER(NAN);
}

/* JSON's: decimal digits (a JSON number is exact only below 2^53); left out when unknown. */
static gp_cell get_code(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const uint64_t code = kernel_of(row)->code;
    if (!code)
        return (gp_cell){.number = NAN, .format = GP_NUMBER_ABSENT};
    snprintf(buf, len, "%llu", (unsigned long long)code);
    return GP_CELL_TEXT(buf);
}

/* CSV's variant: empty for a kernel of one code. */
static gp_cell get_variant(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_kernel *k = kernel_of(row);
    return GP_CELL_NUMBER(k->variants ? (double)k->variant : NAN);
}

/* JSON's variant and variants: only a kernel of several known codes has them. */
static gp_cell variant_json(const gp_rank_kernel *k, unsigned value)
{
    return k->code && k->variants ? GP_CELL_NUMBER(value)
                                  : (gp_cell){.number = NAN, .format = GP_NUMBER_ABSENT};
}

static gp_cell get_variant_json(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return variant_json(kernel_of(row), kernel_of(row)->variant);
}

static gp_cell get_variants_json(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return variant_json(kernel_of(row), kernel_of(row)->variants);
}

static gp_cell get_collective(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(kernel_of(row)->collective);
}

/* Text's "3/4": the ranks it ran on, of the view's. */
static gp_cell get_ranks_of(const void *row, const void *ctx, char *buf, size_t len)
{
    snprintf(buf, len, "%zu/%zu", kernel_of(row)->n_cells, ctx_of(ctx)->view->n_ranks);
    return GP_CELL_TEXT(buf);
}

static gp_cell get_ranks(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)kernel_of(row)->n_cells);
}

static gp_cell get_of_ranks(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)row, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)ctx_of(ctx)->view->n_ranks);
}

static gp_cell get_world_size(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)row, (void)buf, (void)len;
    const int world = ctx_of(ctx)->view->world_size;
    return GP_CELL_NUMBER(world ? world : NAN);
}

/* The most time over the median. */
static gp_cell get_ratio(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_spread *s = &kernel_of(row)->time_ms;
    return GP_CELL_NUMBER(s->ranks && s->median > 0 ? s->max / s->median : NAN);
}

static gp_cell get_time_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(kernel_of(row)->time_ms.estimated);
}

static gp_cell get_dram_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(kernel_of(row)->dram_bytes.estimated);
}

/* Text's slowest rank, "*" after a collective's (its note says why). */
static gp_cell get_slowest_mark(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_kernel *k = kernel_of(row);
    const gp_rank_view *v = ctx_of(ctx)->view;
    if (k->slowest >= v->n_ranks)
        return GP_CELL_TEXT("-");
    snprintf(buf, len, "%d%s", v->ranks[k->slowest].rank, k->collective ? "*" : "");
    return GP_CELL_TEXT(buf);
}

static gp_cell get_slowest_rank(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return rank_number(ctx_of(ctx)->view, kernel_of(row)->slowest);
}

static gp_cell get_fastest_rank(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return rank_number(ctx_of(ctx)->view, kernel_of(row)->fastest);
}

/* Text's name: "#3 " kept whole before the label the kernel has in text. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_part_ctx *c = ctx_of(ctx);
    const size_t i = (size_t)(kernel_of(row) - c->view->kernels);
    snprintf(buf, len, "#%zu ", i + 1);
    return (gp_cell){.text = c->labels ? c->labels[i] : kernel_of(row)->kernel, .tag = buf};
}

static const gp_part_column kernel_columns[] = {
    {.key = "number", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_kernel_id,
     .set = set_number_checked,
     .legend = "its #N in every view of the rank view: its place in kernels, from 1"},
    {.key = "kernel_id", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_kernel_id},
    {.key = "kernel", .in = GP_IN_CSV | GP_IN_JSON, .get = get_kernel, .set = set_kernel,
     .legend = "its demangled name"},
    {.key = "mangled", .in = GP_IN_CSV | GP_IN_JSON, .get = get_mangled,
     .legend = "its mangled name; null when not known"},
    {.key = "code", .in = GP_IN_JSON, .get = get_code,
     .legend = "the code it ran (its cubin's CRC, decimal digits); absent when not known"},
    {.key = "variant", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_variant_json,
     .legend = "present when the kernel ran several codes: this entry's number among them"},
    {.key = "variants", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_variants_json,
     .legend = "present when the kernel ran several codes: how many"},
    {.key = "collective", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV | GP_IN_JSON,
     .get = get_collective, .set = set_checked,
     .legend = "NCCL's or NVSHMEM's: its time includes waiting for the other ranks"},
    {.key = "ranks", .header = "ranks", .in = GP_IN_TEXT, .get = get_ranks_of},
    {.key = "ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_ranks},
    {.key = "of_ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_of_ranks},
    {.key = "world_size", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_world_size},
    {.key = "time_min_ms", .header = "time min", .html = "time min, ms",
     .format = GP_NUMBER_MS, .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML,
     .get = get_time_min},
    {.key = "time_median_ms", .header = "time med", .html = "median", .format = GP_NUMBER_MS,
     .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML, .get = get_time_median},
    {.key = "time_max_ms", .header = "time max", .html = "max", .format = GP_NUMBER_MS,
     .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML, .get = get_time_max},
    {.key = "max_over_median", .header = "max/med", .html = "max/median",
     .format = GP_NUMBER_RATIO2, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML, .get = get_ratio},
    {.key = "time_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV,
     .get = get_time_estimated},
    {.key = "slowest", .header = "slowest", .gap = 2, .in = GP_IN_TEXT,
     .get = get_slowest_mark},
    {.key = "slowest_rank", .html = "slowest rank", .format = GP_NUMBER_WHOLE,
     .in = GP_IN_CSV | GP_IN_HTML | GP_IN_JSON, .get = get_slowest_rank,
     .set = set_rank_checked,
     .legend = "the rank of the most time (the lowest of equals); null when no rank timed it"},
    {.key = "fastest_rank", .html = "fastest rank", .format = GP_NUMBER_WHOLE,
     .in = GP_IN_CSV | GP_IN_HTML | GP_IN_JSON, .get = get_fastest_rank,
     .set = set_rank_checked, .legend = "the rank of the least time"},
    {.key = "dram_min_bytes", .header = "DRAM min", .format = GP_NUMBER_BYTES, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_CSV, .get = get_dram_min},
    {.key = "dram_median_bytes", .header = "DRAM med", .format = GP_NUMBER_BYTES, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_CSV, .get = get_dram_median},
    {.key = "dram_max_bytes", .header = "DRAM max", .format = GP_NUMBER_BYTES, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_CSV, .get = get_dram_max},
    {.key = "dram_min_mb", .html = "DRAM min, MB", .format = GP_NUMBER_FIXED2,
     .in = GP_IN_HTML, .get = get_dram_min_mb},
    {.key = "dram_median_mb", .html = "median", .format = GP_NUMBER_FIXED2, .in = GP_IN_HTML,
     .get = get_dram_median_mb},
    {.key = "dram_max_mb", .html = "max", .format = GP_NUMBER_FIXED2, .in = GP_IN_HTML,
     .get = get_dram_max_mb},
    {.key = "dram_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV,
     .get = get_dram_estimated},
    {.key = "variant", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_variant},
    {.key = "kernel", .header = "kernel", .align = GP_ALIGN_NAME, .gap = 2, .in = GP_IN_TEXT,
     .get = get_label},
};

const gp_part gp_rank_kernel_part =
    GP_PART_DECLARE("kernels", kernel_columns, 0, gp_rank_kernel, -1);

/* ---- a kernel's spread ------------------------------------------------------------------- */

static const gp_rank_spread *spread_of(const void *row)
{
    return row;
}

static gp_cell get_min(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(spread_of(row)->min);
}

static gp_cell get_median(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(spread_of(row)->median);
}

static gp_cell get_max(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(spread_of(row)->max);
}

static gp_cell get_spread_ranks(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)spread_of(row)->ranks);
}

static gp_cell get_spread_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(spread_of(row)->estimated);
}

/* JSON's alone: the number formats say only that the values are numbers. */
static const gp_part_column spread_columns[] = {
    {.key = "min", .format = GP_NUMBER_FIXED2, .in = GP_IN_JSON, .get = get_min,
     .set = set_time_checked, .legend = "the least over the ranks that have a value"},
    {.key = "median", .format = GP_NUMBER_FIXED2, .in = GP_IN_JSON, .get = get_median,
     .set = set_time_checked,
     .legend = "the median (of an even count, the mean of the middle two)"},
    {.key = "max", .format = GP_NUMBER_FIXED2, .in = GP_IN_JSON, .get = get_max,
     .set = set_time_checked, .legend = "the most"},
    {.key = "ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_spread_ranks,
     .set = set_count_checked, .legend = "the ranks that have a value"},
    {.key = "estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
     .get = get_spread_estimated, .set = set_checked,
     .legend = "some rank's value is an estimate"},
};

const gp_part gp_rank_spread_part =
    GP_PART_DECLARE("spread", spread_columns, 0, gp_rank_spread, -1);

/* ---- a kernel on each rank ------------------------------------------------------------------ */

static const gp_rank_cell *cell_of(const void *row)
{
    return row;
}

static gp_rank_cell *cell_to(void *row)
{
    return row;
}

/* The cells' kernel's own columns, in CSV's rows of its cells. */
#define OF_KERNEL(get)                                                                         \
    static gp_cell get##_of_kernel(const void *row, const void *ctx, char *buf, size_t len)    \
    {                                                                                          \
        (void)row;                                                                             \
        return get(ctx_of(ctx)->kernel, ctx, buf, len);                                        \
    }
OF_KERNEL(get_kernel_id)
OF_KERNEL(get_kernel)
OF_KERNEL(get_mangled)
OF_KERNEL(get_collective)
OF_KERNEL(get_variant)

/* Its rank's number; read back as the number, which the loader makes an index. */
static gp_cell get_cell_rank(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return rank_number(ctx_of(ctx)->view, cell_of(row)->rank);
}

static const char *set_cell_rank(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_size(&cell_to(row)->rank, v, 0, INT_MAX, why, len);
}

static gp_cell get_file(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return GP_CELL_TEXT(ctx_of(ctx)->view->ranks[cell_of(row)->rank].file);
}

static gp_cell get_calls(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)cell_of(row)->calls);
}

static const char *set_calls(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_size(&cell_to(row)->calls, v, 1, UINT64_MAX, why, len);
}

static gp_cell get_timed(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)cell_of(row)->timed);
}

/* After calls (the columns are read in order): at most the calls. */
static const char *set_timed(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_size(&cell_to(row)->timed, v, 0, cell_to(row)->calls, why, len);
}

static gp_cell get_profiled(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)cell_of(row)->profiled);
}

static const char *set_profiled(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_size(&cell_to(row)->profiled, v, 0, cell_to(row)->calls, why, len);
}

static gp_cell get_total(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_cell *c = cell_of(row);
    return estimate(c->total_ms, c->total_estimated, GP_NUMBER_MS, GP_NUMBER_MS_ESTIMATED);
}

/* After timed: a time exactly when a launch was timed. */
static const char *set_total(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_cell *c = cell_to(row);
    if (gp_part_at_least(v, 0, &c->total_ms, why, len))
        return why;
    if (isnan(c->total_ms) == !c->timed)
        return NULL;
    snprintf(why, len, "expected a number when a launch was timed, else null");
    return why;
}

static gp_cell get_total_against(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return against(cell_of(row)->total_ms, ctx_of(ctx)->kernel->time_ms.median);
}

static gp_cell get_total_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(cell_of(row)->total_estimated);
}

static const char *set_total_estimated(void *row, const gp_cell *v, char *why, size_t len)
{
    (void)why, (void)len;
    cell_to(row)->total_estimated = v->number != 0;
    return NULL;
}

static gp_cell get_dram(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_cell *c = cell_of(row);
    return estimate(c->dram_bytes, c->dram_estimated, GP_NUMBER_BYTES,
                    GP_NUMBER_BYTES_ESTIMATED);
}

static const char *set_dram(void *row, const gp_cell *v, char *why, size_t len)
{
    return gp_part_at_least(v, 0, &cell_to(row)->dram_bytes, why, len);
}

static gp_cell get_dram_mb(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_cell *c = cell_of(row);
    return estimate(c->dram_bytes / 1e6, c->dram_estimated, GP_NUMBER_FIXED2,
                    GP_NUMBER_FIXED2_ESTIMATED);
}

static gp_cell get_dram_against(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return against(cell_of(row)->dram_bytes, ctx_of(ctx)->kernel->dram_bytes.median);
}

static gp_cell get_cell_dram_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(cell_of(row)->dram_estimated);
}

static const char *set_dram_estimated(void *row, const gp_cell *v, char *why, size_t len)
{
    (void)why, (void)len;
    cell_to(row)->dram_estimated = v->number != 0;
    return NULL;
}

/* Text's: the slowest and fastest of a kernel that ran on several ranks. */
static gp_cell get_marks(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_rank_kernel *k = ctx_of(ctx)->kernel;
    const size_t rank = cell_of(row)->rank;
    const bool several = k->n_cells > 1;
    const bool slowest = several && rank == k->slowest, fastest = several && rank == k->fastest;
    return GP_CELL_TEXT(slowest && fastest ? "slowest, fastest"
                        : slowest          ? "slowest"
                        : fastest          ? "fastest"
                                           : "");
}

static gp_cell get_is_slowest(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return GP_CELL_NUMBER(cell_of(row)->rank == ctx_of(ctx)->kernel->slowest);
}

static gp_cell get_is_fastest(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return GP_CELL_NUMBER(cell_of(row)->rank == ctx_of(ctx)->kernel->fastest);
}

static const gp_part_column cell_columns[] = {
    {.key = "kernel_id", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV,
     .get = get_kernel_id_of_kernel},
    {.key = "kernel", .in = GP_IN_CSV, .get = get_kernel_of_kernel},
    {.key = "mangled", .in = GP_IN_CSV, .get = get_mangled_of_kernel},
    {.key = "collective", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV,
     .get = get_collective_of_kernel},
    {.key = "rank", .header = "rank", .format = GP_NUMBER_WHOLE, .in = GP_IN_ALL,
     .get = get_cell_rank, .set = set_cell_rank, .legend = "the rank"},
    {.key = "file", .in = GP_IN_CSV, .get = get_file},
    {.key = "calls", .header = "calls", .format = GP_NUMBER_WHOLE, .gap = 2, .in = GP_IN_ALL,
     .get = get_calls, .set = set_calls, .legend = "its calls on the rank"},
    {.key = "timed", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV | GP_IN_HTML | GP_IN_JSON,
     .get = get_timed, .set = set_timed, .legend = "the calls that were timed"},
    {.key = "profiled", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV | GP_IN_HTML | GP_IN_JSON,
     .get = get_profiled, .set = set_profiled, .legend = "the calls that were profiled"},
    {.key = "total_ms", .header = "time", .html = "time, ms", .format = GP_NUMBER_MS,
     .gap = 2, .in = GP_IN_ALL, .get = get_total, .set = set_total,
     .legend = "calls x the mean of the timed launches; null when none was timed"},
    {.key = "total_vs_median", .header = "vs median", .html = "vs median, %",
     .format = GP_NUMBER_SIGNED_PERCENT1, .gap = 1, .in = GP_IN_TEXT | GP_IN_HTML,
     .get = get_total_against},
    {.key = "total_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV | GP_IN_JSON,
     .get = get_total_estimated, .set = set_total_estimated,
     .legend = "not every launch was timed"},
    {.key = "dram_bytes", .header = "DRAM", .format = GP_NUMBER_BYTES, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_JSON, .get = get_dram, .set = set_dram,
     .legend = "bytes read and written in DRAM: calls x the means of dram_read_bytes and "
               "dram_write_bytes over the profiled launches that have them; null when none "
               "has both"},
    {.key = "dram_mb", .html = "DRAM, MB", .format = GP_NUMBER_FIXED2, .in = GP_IN_HTML,
     .get = get_dram_mb},
    {.key = "dram_vs_median", .header = "vs median", .html = "vs median, %",
     .format = GP_NUMBER_SIGNED_PERCENT1, .gap = 1, .in = GP_IN_TEXT | GP_IN_HTML,
     .get = get_dram_against},
    {.key = "dram_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV | GP_IN_JSON,
     .get = get_cell_dram_estimated, .set = set_dram_estimated,
     .legend = "fewer launches than calls had them"},
    {.key = "marks", .header = "", .align = GP_ALIGN_LEFT, .gap = 2, .in = GP_IN_TEXT,
     .get = get_marks},
    {.key = "slowest", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV, .get = get_is_slowest},
    {.key = "fastest", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV, .get = get_is_fastest},
    {.key = "variant", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV,
     .get = get_variant_of_kernel},
};

const gp_part gp_rank_cell_part = GP_PART_DECLARE("by_rank", cell_columns, 1, gp_rank_cell, -1);

/* ---- the ranks ----------------------------------------------------------------------------- */

static const gp_rank_entry *entry_of(const void *row)
{
    return row;
}

static gp_rank_entry *entry_to(void *row)
{
    return row;
}

static gp_cell get_rank(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(entry_of(row)->rank);
}

static const char *set_rank(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_int(&entry_to(row)->rank, v, 0, INT_MAX, why, len);
}

static gp_cell get_size(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const int size = entry_of(row)->size;
    return GP_CELL_NUMBER(size ? size : NAN);
}

/* After rank: more than the rank, or null. */
static const char *set_world(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_entry *e = entry_to(row);
    if (set_int_or_null(&e->size, v, 1, why, len))
        return why;
    if (!e->size || e->rank < e->size)
        return NULL;
    snprintf(why, len, "expected more than the rank");
    return why;
}

static gp_cell get_from(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_TEXT(entry_of(row)->from);
}

static const char *set_from(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_entry *e = entry_to(row);
    const size_t n = strlen(v->text);
    if (n >= sizeof e->from) {
        snprintf(why, len, "longer than %zu characters", sizeof e->from - 1);
        return why;
    }
    if (!n) {
        snprintf(why, len, "expected the option or variable it came from");
        return why;
    }
    memcpy(e->from, v->text, n + 1);
    return NULL;
}

static gp_cell get_rank_file(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_TEXT(entry_of(row)->file);
}

/* Read back into a scratch row: the name lasts as long as the document. */
static const char *set_file(void *row, const gp_cell *v, char *why, size_t len)
{
    (void)why, (void)len;
    entry_to(row)->file = (char *)v->text;
    return NULL;
}

static gp_cell get_pid(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(entry_of(row)->pid);
}

static const char *set_pid(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_int(&entry_to(row)->pid, v, 0, INT_MAX, why, len);
}

static gp_cell get_exit_status(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(entry_of(row)->exit_status);
}

static const char *set_exit_status(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_int(&entry_to(row)->exit_status, v, 0, 255, why, len);
}

static gp_cell get_signal(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const int signal = entry_of(row)->signal;
    return GP_CELL_NUMBER(signal ? signal : NAN);
}

static const char *set_signal(void *row, const gp_cell *v, char *why, size_t len)
{
    return set_int_or_null(&entry_to(row)->signal, v, 1, why, len);
}

static gp_cell get_launches(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)entry_of(row)->launches);
}

static gp_cell get_kernel_ms(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_rank_entry *e = entry_of(row);
    return estimate(e->kernel_ms, e->kernel_estimated, GP_NUMBER_MS, GP_NUMBER_MS_ESTIMATED);
}

static gp_cell get_kernel_estimated(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(entry_of(row)->kernel_estimated);
}

static gp_cell get_rank_against(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    return against(entry_of(row)->kernel_ms, ctx_of(ctx)->median_ms);
}

/* How its program ended: "exit status 1", "killed by signal 9". */
static gp_cell get_ended(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_rank_entry *e = entry_of(row);
    if (e->signal)
        snprintf(buf, len, "killed by signal %d", e->signal);
    else
        snprintf(buf, len, "exit status %d", e->exit_status);
    return GP_CELL_TEXT(buf);
}

static const gp_part_column entry_columns[] = {
    {.key = "rank", .header = "rank", .format = GP_NUMBER_WHOLE,
     .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON, .get = get_rank, .set = set_rank,
     .legend = "the rank"},
    {.key = "size", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_size,
     .set = set_world, .legend = "the world size the rank recorded (exec.rank.size)"},
    {.key = "from", .in = GP_IN_JSON, .get = get_from, .set = set_from,
     .legend = "where the rank was read: \"--rank\" or the launcher's variable"},
    {.key = "file", .in = GP_IN_JSON, .get = get_rank_file, .set = set_file,
     .legend = "the rank's report, as named on the command line"},
    {.key = "pid", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_pid,
     .set = set_pid, .legend = "its program's process"},
    {.key = "exit_status", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_exit_status,
     .set = set_exit_status, .legend = "its program's exit status"},
    {.key = "signal", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_signal,
     .set = set_signal, .legend = "the signal that killed its program; null when none did"},
    {.key = "launches", .header = "launches", .format = GP_NUMBER_WHOLE, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON, .get = get_launches,
     .set = set_count_checked, .legend = "its kernels' calls"},
    {.key = "kernel_ms", .header = "kernel time", .html = "kernel time, ms",
     .format = GP_NUMBER_MS, .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON,
     .get = get_kernel_ms, .set = set_time_checked,
     .legend = "its kernels' times (total_ms) summed; null when none was timed"},
    {.key = "kernel_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
     .get = get_kernel_estimated, .set = set_checked,
     .legend = "some time in the sum is an estimate"},
    {.key = "vs_median", .header = "vs median", .html = "vs median, %",
     .format = GP_NUMBER_SIGNED_PERCENT1, .gap = 1, .in = GP_IN_TEXT | GP_IN_HTML,
     .get = get_rank_against},
    {.key = "ended", .header = "ended", .align = GP_ALIGN_LEFT, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_HTML, .get = get_ended},
    {.key = "from", .header = "rank from", .html = "rank from", .align = GP_ALIGN_LEFT,
     .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML, .get = get_from},
    {.key = "file", .header = "file", .align = GP_ALIGN_PROSE, .gap = 2,
     .in = GP_IN_TEXT | GP_IN_HTML, .get = get_rank_file},
};

const gp_part gp_rank_entry_part = GP_PART_DECLARE("ranks", entry_columns, 1, gp_rank_entry, -1);
