/* The rank view's parts (gpuprof/report_parts.h): each kernel over the ranks, a kernel's
 * spread, a kernel on each rank, and the ranks. Their rows are the view's own arrays; what
 * else a cell needs (the view, the kernels' labels, the cells' kernel, the ranks' median) is
 * the context, gp_rank_part_ctx. Ranks are named by their rank, never by an index. Where the
 * views order or show a value differently (text's "3/4" and CSV's count; HTML's DRAM in MB),
 * the part has a column per place, each in its views. */
#include "gpuprof/report_parts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A rank's number by its index in the view; unknown (NAN) for none (SIZE_MAX). */
static gp_cell rank_number(const gp_rank_view *v, size_t index)
{
    return GP_CELL_NUMBER(index < v->n_ranks ? (double)v->ranks[index].rank : NAN);
}

/* Values that may be estimates ("~" before them where people read them): a time, bytes,
 * and bytes as MB (HTML's). */
static gp_cell time_cell(double ms, bool estimated)
{
    return (gp_cell){.number = ms, .format = GP_NUMBER_MS,
                     .approx = estimated ? GP_CELL_ESTIMATED : NULL};
}

static gp_cell bytes_cell(double bytes, bool estimated)
{
    return (gp_cell){.number = bytes, .format = GP_NUMBER_BYTES,
                     .approx = estimated ? GP_CELL_ESTIMATED : NULL};
}

static gp_cell mb_cell(double bytes, bool estimated)
{
    return (gp_cell){.number = bytes / 1e6, .format = GP_NUMBER_FIXED2,
                     .approx = estimated ? GP_CELL_ESTIMATED : NULL};
}

/* A value against the median of its kind, in per cent; unknown without both. */
static gp_cell against(double v, double median)
{
    const bool both = isfinite(v) && isfinite(median) && median > 0;
    return GP_CELL_NUMBER(both ? 100.0 * (v - median) / median : NAN);
}

/* ---- setters' checks ---------------------------------------------------------------------- */

/* null (0) or a whole number from min. */
static const char *int_or_null(int *out, const gp_cell *v, uint64_t min, char *why, size_t len)
{
    uint64_t whole = 0;
    const char *bad = isnan(v->number) && !v->text
                          ? NULL
                          : gp_part_whole(v, min, INT_MAX, &whole, why, len);
    *out = (int)whole;
    return bad;
}

/* What the writer derives, read back to be checked (gp_rank_view_derive computes it again):
 * a flag's, the reader's check of its type is the whole check. */
GP_PART_SETTER(set_checked, void, NULL)
GP_PART_SETTER(set_count_checked, void, gp_part_whole(v, 0, UINT64_MAX, &(uint64_t){0}, why, len))
GP_PART_SETTER(set_number_checked, void, gp_part_whole(v, 1, UINT64_MAX, &(uint64_t){0}, why, len))
GP_PART_SETTER(set_rank_checked, void, int_or_null(&(int){0}, v, 0, why, len))
GP_PART_SETTER(set_time_checked, void, gp_part_at_least(v, 0, &(double){0}, why, len))

/* ---- each kernel over the ranks ---------------------------------------------------------- */

/* Its #N in every view: its place in the view's kernels, from 1. */
GP_PART_NUMBER_GETTER(get_kernel_id, gp_rank_kernel, gp_rank_part_ctx, r - c->view->kernels + 1)
GP_PART_TEXT_GETTER(get_kernel, gp_rank_kernel, void, r->kernel)
/* Read back into a scratch row: the name lasts as long as the document. */
GP_PART_TEXT_SETTER(set_kernel, gp_rank_kernel, r->kernel)
/* Unknown: empty in CSV, null in JSON. */
GP_PART_GETTER(get_mangled, gp_rank_kernel, void,
               r->mangled ? GP_CELL_TEXT(r->mangled) : GP_CELL_NUMBER(NAN))
GP_PART_NUMBER_GETTER(get_collective, gp_rank_kernel, void, r->collective)
/* CSV's variant: empty for a kernel of one code. JSON's variant and variants: only a kernel
 * of several known codes has them. */
GP_PART_NUMBER_GETTER(get_variant, gp_rank_kernel, void, r->variants ? r->variant : NAN)
GP_PART_GETTER(get_variant_json, gp_rank_kernel, void,
               r->code && r->variants ? GP_CELL_NUMBER(r->variant) : GP_CELL_ABSENT)
GP_PART_GETTER(get_variants_json, gp_rank_kernel, void,
               r->code && r->variants ? GP_CELL_NUMBER(r->variants) : GP_CELL_ABSENT)

/* JSON's code: decimal digits (a JSON number is exact only below 2^53); left out when
 * unknown. */
static gp_cell get_code(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_kernel *k = row;
    (void)ctx;
    if (!k->code)
        return GP_CELL_ABSENT;
    snprintf(buf, len, "%llu", (unsigned long long)k->code);
    return GP_CELL_TEXT(buf);
}

/* People's "3/4": the ranks it ran on, of the view's. */
static gp_cell get_ranks_of(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_kernel *k = row;
    snprintf(buf, len, "%zu/%zu", k->n_cells, ((const gp_rank_part_ctx *)ctx)->view->n_ranks);
    return GP_CELL_TEXT(buf);
}

GP_PART_NUMBER_GETTER(get_ranks, gp_rank_kernel, void, r->n_cells)
GP_PART_NUMBER_GETTER(get_of_ranks, gp_rank_kernel, gp_rank_part_ctx, c->view->n_ranks)
GP_PART_NUMBER_GETTER(get_world_size, gp_rank_kernel, gp_rank_part_ctx,
                      c->view->world_size ? c->view->world_size : NAN)

/* A spread's least, median and most (getters prefix_min, prefix_median, prefix_max), each a
 * cell as `cell` (time_cell, bytes_cell, mb_cell) makes it of the value and the spread's
 * estimated. */
#define SPREAD_GETTERS(prefix, spread, cell)                                                   \
    GP_PART_GETTER(prefix##_min, gp_rank_kernel, void,                                         \
                   cell(r->spread.min, r->spread.estimated))                                   \
    GP_PART_GETTER(prefix##_median, gp_rank_kernel, void,                                      \
                   cell(r->spread.median, r->spread.estimated))                                \
    GP_PART_GETTER(prefix##_max, gp_rank_kernel, void,                                         \
                   cell(r->spread.max, r->spread.estimated))

SPREAD_GETTERS(get_time, time_ms, time_cell)
/* The most time over the median. */
GP_PART_NUMBER_GETTER(get_ratio, gp_rank_kernel, void,
                      r->time_ms.ranks && r->time_ms.median > 0
                          ? r->time_ms.max / r->time_ms.median
                          : NAN)
GP_PART_NUMBER_GETTER(get_time_estimated, gp_rank_kernel, void, r->time_ms.estimated)
GP_PART_GETTER(get_slowest_rank, gp_rank_kernel, gp_rank_part_ctx, rank_number(c->view, r->slowest))
GP_PART_GETTER(get_fastest_rank, gp_rank_kernel, gp_rank_part_ctx, rank_number(c->view, r->fastest))
SPREAD_GETTERS(get_dram, dram_bytes, bytes_cell)
SPREAD_GETTERS(get_dram_mb, dram_bytes, mb_cell)
GP_PART_NUMBER_GETTER(get_dram_estimated, gp_rank_kernel, void, r->dram_bytes.estimated)

/* Text's slowest rank, "*" after a collective's (its note says why). */
static gp_cell get_slowest_mark(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_kernel *k = row;
    const gp_rank_view *v = ((const gp_rank_part_ctx *)ctx)->view;
    if (k->slowest >= v->n_ranks)
        return GP_CELL_TEXT("-");
    snprintf(buf, len, "%d%s", v->ranks[k->slowest].rank, k->collective ? "*" : "");
    return GP_CELL_TEXT(buf);
}

/* Text's name: "#3 " kept whole before the label the kernel has in text. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_kernel *k = row;
    const gp_rank_part_ctx *c = ctx;
    const size_t i = (size_t)(k - c->view->kernels);
    snprintf(buf, len, "#%zu ", i + 1);
    return (gp_cell){.text = c->labels ? c->labels[i] : k->kernel, .tag = buf};
}

/* Text's spreads are groups, "time min med max" and "DRAM min med max", a space apart within
 * a group: the table keeps every column, the name's least room among them, in 120 columns
 * with every value an estimate ("~296.93us"). */
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
    {.key = "ranks", .header = "ranks", .in = GP_IN_TEXT | GP_IN_HTML, .get = get_ranks_of,
     .html_class = "num"},
    {.key = "ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_ranks},
    {.key = "of_ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_of_ranks},
    {.key = "world_size", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_world_size},
    {.key = "time_min_ms", .header = "time min", .html = "time min, ms",
     .format = GP_NUMBER_MS, .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML,
     .get = get_time_min},
    {.key = "time_median_ms", .header = "med", .html = "median", .format = GP_NUMBER_MS,
     .gap = 1, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML, .get = get_time_median},
    {.key = "time_max_ms", .header = "max", .html = "max", .format = GP_NUMBER_MS,
     .gap = 1, .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML, .get = get_time_max},
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
    {.key = "dram_median_bytes", .header = "med", .format = GP_NUMBER_BYTES, .gap = 1,
     .in = GP_IN_TEXT | GP_IN_CSV, .get = get_dram_median},
    {.key = "dram_max_bytes", .header = "max", .format = GP_NUMBER_BYTES, .gap = 1,
     .in = GP_IN_TEXT | GP_IN_CSV, .get = get_dram_max},
    {.key = "dram_min_mb", .html = "DRAM min, MB", .format = GP_NUMBER_FIXED2,
     .in = GP_IN_HTML, .get = get_dram_mb_min},
    {.key = "dram_median_mb", .html = "median", .format = GP_NUMBER_FIXED2, .in = GP_IN_HTML,
     .get = get_dram_mb_median},
    {.key = "dram_max_mb", .html = "max", .format = GP_NUMBER_FIXED2, .in = GP_IN_HTML,
     .get = get_dram_mb_max},
    {.key = "dram_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV,
     .get = get_dram_estimated},
    {.key = "variant", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_variant},
    {.key = "kernel", .header = "kernel", .align = GP_ALIGN_NAME, .gap = 2, .in = GP_IN_TEXT,
     .get = get_label},
};

const gp_part gp_rank_kernel_part =
    GP_PART_DECLARE("kernels", kernel_columns, 0, gp_rank_kernel, -1);

/* ---- a kernel's spread ------------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_min, gp_rank_spread, void, r->min)
GP_PART_NUMBER_GETTER(get_median, gp_rank_spread, void, r->median)
GP_PART_NUMBER_GETTER(get_max, gp_rank_spread, void, r->max)
GP_PART_NUMBER_GETTER(get_spread_ranks, gp_rank_spread, void, r->ranks)
GP_PART_NUMBER_GETTER(get_spread_estimated, gp_rank_spread, void, r->estimated)

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

/* The cells' kernel's own columns, in CSV's rows of its cells. */
GP_PART_GETTER(get_kernel_id_of_kernel, void, gp_rank_part_ctx,
               get_kernel_id(c->kernel, c, buf, len))
GP_PART_GETTER(get_kernel_of_kernel, void, gp_rank_part_ctx, get_kernel(c->kernel, c, buf, len))
GP_PART_GETTER(get_mangled_of_kernel, void, gp_rank_part_ctx, get_mangled(c->kernel, c, buf, len))
GP_PART_GETTER(get_collective_of_kernel, void, gp_rank_part_ctx,
               get_collective(c->kernel, c, buf, len))
GP_PART_GETTER(get_variant_of_kernel, void, gp_rank_part_ctx, get_variant(c->kernel, c, buf, len))

/* Its rank's number; read back as the number, which the loader makes an index. */
GP_PART_GETTER(get_cell_rank, gp_rank_cell, gp_rank_part_ctx, rank_number(c->view, r->rank))
GP_PART_WHOLE_SETTER(set_cell_rank, gp_rank_cell, r->rank, 0, INT_MAX)
GP_PART_TEXT_GETTER(get_file, gp_rank_cell, gp_rank_part_ctx, c->view->ranks[r->rank].file)
GP_PART_NUMBER_GETTER(get_calls, gp_rank_cell, void, r->calls)
GP_PART_WHOLE_SETTER(set_calls, gp_rank_cell, r->calls, 1, UINT64_MAX)
/* After calls (the columns are read in order): timed and profiled, at most the calls. */
GP_PART_NUMBER_GETTER(get_timed, gp_rank_cell, void, r->timed)
GP_PART_WHOLE_SETTER(set_timed, gp_rank_cell, r->timed, 0, r->calls)
GP_PART_NUMBER_GETTER(get_profiled, gp_rank_cell, void, r->profiled)
GP_PART_WHOLE_SETTER(set_profiled, gp_rank_cell, r->profiled, 0, r->calls)
GP_PART_GETTER(get_total, gp_rank_cell, void, time_cell(r->total_ms, r->total_estimated))
GP_PART_GETTER(get_total_against, gp_rank_cell, gp_rank_part_ctx,
               against(r->total_ms, c->kernel->time_ms.median))
GP_PART_NUMBER_GETTER(get_total_estimated, gp_rank_cell, void, r->total_estimated)
GP_PART_FLAG_SETTER(set_total_estimated, gp_rank_cell, r->total_estimated)
GP_PART_GETTER(get_dram, gp_rank_cell, void, bytes_cell(r->dram_bytes, r->dram_estimated))
GP_PART_SETTER(set_dram, gp_rank_cell, gp_part_at_least(v, 0, &r->dram_bytes, why, len))
GP_PART_GETTER(get_dram_mb, gp_rank_cell, void, mb_cell(r->dram_bytes, r->dram_estimated))
GP_PART_GETTER(get_dram_against, gp_rank_cell, gp_rank_part_ctx,
               against(r->dram_bytes, c->kernel->dram_bytes.median))
GP_PART_NUMBER_GETTER(get_cell_dram_estimated, gp_rank_cell, void, r->dram_estimated)
GP_PART_FLAG_SETTER(set_dram_estimated, gp_rank_cell, r->dram_estimated)
GP_PART_NUMBER_GETTER(get_is_slowest, gp_rank_cell, gp_rank_part_ctx, r->rank == c->kernel->slowest)
GP_PART_NUMBER_GETTER(get_is_fastest, gp_rank_cell, gp_rank_part_ctx, r->rank == c->kernel->fastest)

/* After timed: a time exactly when a launch was timed. */
static const char *set_total(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_cell *r = row;
    if (gp_part_at_least(v, 0, &r->total_ms, why, len))
        return why;
    if (isnan(r->total_ms) == !r->timed)
        return NULL;
    snprintf(why, len, "expected a number when a launch was timed, else null");
    return why;
}

/* Text's: the slowest and fastest of a kernel that ran on several ranks. */
static gp_cell get_marks(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_rank_kernel *k = ((const gp_rank_part_ctx *)ctx)->kernel;
    const size_t rank = ((const gp_rank_cell *)row)->rank;
    const bool several = k->n_cells > 1;
    const bool slowest = several && rank == k->slowest, fastest = several && rank == k->fastest;
    return GP_CELL_TEXT(slowest && fastest ? "slowest, fastest"
                        : slowest          ? "slowest"
                        : fastest          ? "fastest"
                                           : "");
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

/* The page's row of the slowest rank of a kernel that ran on several. */
static const char *slowest_cell(const void *row, const void *ctx)
{
    const gp_rank_kernel *k = ((const gp_rank_part_ctx *)ctx)->kernel;
    return ((const gp_rank_cell *)row)->rank == k->slowest && k->n_cells > 1 ? "slowest" : NULL;
}

const gp_part gp_rank_cell_part = {
    .key = "by_rank", .columns = cell_columns,
    .n_columns = sizeof cell_columns / sizeof *cell_columns, .n_key = 1,
    .row_size = sizeof(gp_rank_cell), .json_keyed_by = -1, .html_row_class = slowest_cell};

/* ---- the ranks ----------------------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_rank, gp_rank_entry, void, r->rank)
GP_PART_WHOLE_SETTER(set_rank, gp_rank_entry, r->rank, 0, INT_MAX)
GP_PART_NUMBER_GETTER(get_size, gp_rank_entry, void, r->size ? r->size : NAN)
GP_PART_TEXT_GETTER(get_from, gp_rank_entry, void, r->from)
GP_PART_TEXT_GETTER(get_rank_file, gp_rank_entry, void, r->file)
/* Read back into a scratch row: the name lasts as long as the document. */
GP_PART_TEXT_SETTER(set_file, gp_rank_entry, r->file)
GP_PART_NUMBER_GETTER(get_pid, gp_rank_entry, void, r->pid)
GP_PART_WHOLE_SETTER(set_pid, gp_rank_entry, r->pid, 0, INT_MAX)
GP_PART_NUMBER_GETTER(get_exit_status, gp_rank_entry, void, r->exit_status)
GP_PART_WHOLE_SETTER(set_exit_status, gp_rank_entry, r->exit_status, 0, 255)
GP_PART_NUMBER_GETTER(get_signal, gp_rank_entry, void, r->signal ? r->signal : NAN)
GP_PART_SETTER(set_signal, gp_rank_entry, int_or_null(&r->signal, v, 1, why, len))
GP_PART_NUMBER_GETTER(get_launches, gp_rank_entry, void, r->launches)
GP_PART_GETTER(get_kernel_ms, gp_rank_entry, void, time_cell(r->kernel_ms, r->kernel_estimated))
GP_PART_NUMBER_GETTER(get_kernel_estimated, gp_rank_entry, void, r->kernel_estimated)
GP_PART_GETTER(get_rank_against, gp_rank_entry, gp_rank_part_ctx,
               against(r->kernel_ms, c->median_ms))

/* After rank: more than the rank, or null. */
static const char *set_world(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_entry *e = row;
    if (int_or_null(&e->size, v, 1, why, len))
        return why;
    if (!e->size || e->rank < e->size)
        return NULL;
    snprintf(why, len, "expected more than the rank");
    return why;
}

static const char *set_from(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_rank_entry *e = row;
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

/* How its program ended: "exit status 1", "killed by signal 9". */
static gp_cell get_ended(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_entry *e = row;
    (void)ctx;
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
     .in = GP_IN_TEXT | GP_IN_HTML, .get = get_rank_file, .html_class = "wrap"},
};

/* The page's row of the rank of the most kernel time, of several. */
static const char *slowest_entry(const void *row, const void *ctx)
{
    const gp_rank_part_ctx *c = ctx;
    return row == c->slowest && c->view->n_ranks > 1 ? "slowest" : NULL;
}

const gp_part gp_rank_entry_part = {
    .key = "ranks", .columns = entry_columns,
    .n_columns = sizeof entry_columns / sizeof *entry_columns, .n_key = 1,
    .row_size = sizeof(gp_rank_entry), .json_keyed_by = -1, .html_row_class = slowest_entry};
