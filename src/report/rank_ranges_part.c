/* The rank view per NVTX range (gpuprof/report_parts.h): a row per range path over the ranks
 * (gpuprof/ranks.h, gp_rank_range) in the tree's reading order, as `report r*.json
 * --by-range` shows it in every format, and a row per path and rank, JSON's by_rank. Ranks
 * are named by their rank, never by an index; a path's numbers are those of its node in each
 * rank's own range tree (`report FILE --by-range`). */
#include "gpuprof/report_parts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- setters' checks ------------------------------------------------------------------------ */

/* What the writer derives, read back to be checked (gp_rank_view_derive computes it again). */
GP_PART_SETTER(set_count_checked, void, gp_part_whole(v, 0, UINT64_MAX, &(uint64_t){0}, why, len))
GP_PART_SETTER(set_rank_or_null, void,
               isnan(v->number) && !v->text
                   ? NULL
                   : gp_part_whole(v, 0, INT_MAX, &(uint64_t){0}, why, len))

/* ---- a range path over the ranks --------------------------------------------------------- */

GP_PART_TEXT_GETTER(get_path, gp_rank_range, void, r->path)
/* Read back into a scratch row: the path lasts as long as the document. */
GP_PART_TEXT_SETTER(set_path, gp_rank_range, r->path)
GP_PART_NUMBER_GETTER(get_ranks, gp_rank_range, void, r->n_cells)
GP_PART_NUMBER_GETTER(get_of_ranks, gp_rank_range, gp_rank_part_ctx, c->view->n_ranks)
GP_PART_GETTER(get_time_min, gp_rank_range, void,
               ((gp_cell){.number = r->time_ms.min, .format = GP_NUMBER_MS,
                          .approx = r->time_ms.estimated ? GP_CELL_ESTIMATED : NULL}))
GP_PART_GETTER(get_time_median, gp_rank_range, void,
               ((gp_cell){.number = r->time_ms.median, .format = GP_NUMBER_MS,
                          .approx = r->time_ms.estimated ? GP_CELL_ESTIMATED : NULL}))
GP_PART_GETTER(get_time_max, gp_rank_range, void,
               ((gp_cell){.number = r->time_ms.max, .format = GP_NUMBER_MS,
                          .approx = r->time_ms.estimated ? GP_CELL_ESTIMATED : NULL}))
/* The most time over the least: how uneven the ranks are in the range. */
GP_PART_NUMBER_GETTER(get_max_over_min, gp_rank_range, void,
                      r->time_ms.ranks && r->time_ms.min > 0 ? r->time_ms.max / r->time_ms.min
                                                             : NAN)
GP_PART_NUMBER_GETTER(get_time_estimated, gp_rank_range, void, r->time_ms.estimated)
GP_PART_NUMBER_GETTER(get_slowest, gp_rank_range, gp_rank_part_ctx,
                      r->slowest < c->view->n_ranks ? c->view->ranks[r->slowest].rank : NAN)
GP_PART_NUMBER_GETTER(get_fastest, gp_rank_range, gp_rank_part_ctx,
                      r->fastest < c->view->n_ranks ? c->view->ranks[r->fastest].rank : NAN)

/* People's "2/3": the ranks it occurred on, of the view's. */
static gp_cell get_ranks_of(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_range *r = row;
    snprintf(buf, len, "%zu/%zu", r->n_cells, ((const gp_rank_part_ctx *)ctx)->view->n_ranks);
    return GP_CELL_TEXT(buf);
}

/* People's label: the depth's indentation kept whole before it, the path on the page's
 * hover. */
static gp_cell get_range(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_rank_range *r = row;
    const char *unit = ((const gp_rank_part_ctx *)ctx)->indent;
    const size_t step = unit ? strlen(unit) : 0;
    size_t used = 0;
    for (size_t d = 0; step && d < r->depth && used + step < len; d++, used += step)
        memcpy(buf + used, unit, step);
    buf[used] = '\0';
    return (gp_cell){.text = r->label, .tag = buf, .title = r->path};
}

enum {
    PATH, DEPTH, RANGE, RANKS_OF, RANKS, OF_RANKS, CALLS, TIME_MIN, TIME_MEDIAN, TIME_MAX,
    MAX_OVER_MIN, TIME_ESTIMATED, SLOWEST, FASTEST
};

#define PEOPLE (GP_IN_TEXT | GP_IN_HTML)
#define CSV_JSON (GP_IN_CSV | GP_IN_JSON)
#define NOT_JSON (GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML)

/* In CSV's and JSON's order; text and the page have their own (below). */
static const gp_part_column range_columns[] = {
    [PATH] = {.key = "path", .in = CSV_JSON, .get = get_path, .set = set_path,
              .legend = "the folded range path, outermost first, as report FILE --by-range "
                        "gives it for each rank's file; \"(no range)\": the launches in none"},
    [DEPTH] = {.key = "depth", .format = GP_NUMBER_WHOLE, .in = CSV_JSON,
               GP_PART_FIELD(gp_rank_range, depth), .set = set_count_checked,
               .legend = "its depth in the tree of the ranks' paths: 0 for an outermost one"},
    [RANGE] = {.key = "range", .header = "range", .html = "range", .align = GP_ALIGN_NAME,
               .gap = 2, .in = PEOPLE, .get = get_range},
    [RANKS_OF] = {.key = "ranks", .header = "ranks", .in = PEOPLE, .get = get_ranks_of,
                  .html_class = "num"},
    [RANKS] = {.key = "ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV, .get = get_ranks},
    [OF_RANKS] = {.key = "of_ranks", .format = GP_NUMBER_WHOLE, .in = GP_IN_CSV,
                  .get = get_of_ranks},
    [CALLS] = {.key = "calls_max", .header = "calls", .html = "calls, most",
               .format = GP_NUMBER_COUNT, .gap = 2, .in = GP_IN_ALL,
               GP_PART_FIELD(gp_rank_range, calls_max), .set = set_count_checked,
               .legend = "the most kernel launches in the range on one rank (each rank's are "
                         "in by_rank)"},
    [TIME_MIN] = {.key = "time_min_ms", .header = "time min", .html = "time min, ms",
                  .format = GP_NUMBER_MS, .gap = 2, .in = NOT_JSON, .get = get_time_min},
    [TIME_MEDIAN] = {.key = "time_median_ms", .header = "med", .html = "median",
                     .format = GP_NUMBER_MS, .gap = 1, .in = NOT_JSON, .get = get_time_median},
    [TIME_MAX] = {.key = "time_max_ms", .header = "max", .html = "max", .format = GP_NUMBER_MS,
                  .gap = 1, .in = NOT_JSON, .get = get_time_max},
    [MAX_OVER_MIN] = {.key = "max_over_min", .header = "max/min", .html = "max/min",
                      .format = GP_NUMBER_RATIO2, .gap = 2, .in = NOT_JSON,
                      .get = get_max_over_min},
    [TIME_ESTIMATED] = {.key = "time_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_CSV,
                        .get = get_time_estimated},
    [SLOWEST] = {.key = "slowest_rank", .header = "slowest", .html = "slowest rank",
                 .format = GP_NUMBER_WHOLE, .gap = 2, .in = GP_IN_ALL, .get = get_slowest,
                 .set = set_rank_or_null,
                 .legend = "the rank of the most time in the range (the lowest of equals); "
                           "null when no rank timed it"},
    [FASTEST] = {.key = "fastest_rank", .header = "fastest", .html = "fastest rank",
                 .format = GP_NUMBER_WHOLE, .gap = 1, .in = GP_IN_ALL, .get = get_fastest,
                 .set = set_rank_or_null, .legend = "the rank of the least time"},
};

const gp_part gp_rank_range_part = {
    .key = "ranges", .columns = range_columns,
    .n_columns = sizeof range_columns / sizeof *range_columns, .row_size = sizeof(gp_rank_range),
    .json_keyed_by = -1,
    .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(RANKS_OF, TIME_MIN, TIME_MEDIAN, TIME_MAX,
                                             MAX_OVER_MIN, SLOWEST, FASTEST, CALLS, RANGE),
              [GP_VIEW_HTML] = GP_PART_ORDER(RANGE, RANKS_OF, TIME_MIN, TIME_MEDIAN, TIME_MAX,
                                             MAX_OVER_MIN, SLOWEST, FASTEST, CALLS)}};

/* ---- a range path on each rank ---------------------------------------------------------- */

/* Its rank's number; read back as the number, which the loader makes an index. */
GP_PART_NUMBER_GETTER(get_cell_rank, gp_rank_range_cell, gp_rank_part_ctx,
                      r->rank < c->view->n_ranks ? c->view->ranks[r->rank].rank : NAN)
GP_PART_WHOLE_SETTER(set_cell_rank, gp_rank_range_cell, r->rank, 0, INT_MAX)
GP_PART_WHOLE_SETTER(set_calls, gp_rank_range_cell, r->calls, 1, UINT64_MAX)
GP_PART_GETTER(get_total, gp_rank_range_cell, void,
               ((gp_cell){.number = r->total_ms, .format = GP_NUMBER_MS,
                          .approx = r->total_estimated ? GP_CELL_ESTIMATED : NULL}))
GP_PART_SETTER(set_total, gp_rank_range_cell, gp_part_at_least(v, 0, &r->total_ms, why, len))
GP_PART_FLAG_SETTER(set_total_estimated, gp_rank_range_cell, r->total_estimated)

static const gp_part_column range_cell_columns[] = {
    {.key = "rank", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_cell_rank,
     .set = set_cell_rank, .legend = "the rank"},
    {.key = "calls", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_rank_range_cell, calls), .set = set_calls,
     .legend = "kernel launches in the range on the rank"},
    {.key = "total_ms", .format = GP_NUMBER_MS, .in = GP_IN_JSON, .get = get_total,
     .set = set_total,
     .legend = "their time, an untimed launch at its kernel's mean (the rank's own "
               "--by-range total_ms); null when none had either"},
    {.key = "total_estimated", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_rank_range_cell, total_estimated), .set = set_total_estimated,
     .legend = "some launch was untimed: total_ms is an estimate"},
};

const gp_part gp_rank_range_cell_part =
    GP_PART_DECLARE("by_rank", range_cell_columns, 0, gp_rank_range_cell, -1);
