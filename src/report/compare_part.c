/* compare's rows as a part (gpuprof/report_parts.h), and each row's side as JSON writes it.
 * Its context is the comparison; the metrics that changed (text: rows under the row; the
 * page: a cell) and both sides' every metric (CSV, JSON) stay with the views, their columns
 * depending on what was measured. */
#include "gpuprof/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A side's value, unknown where the side has no such result. */
GP_PART_NUMBER_GETTER(get_base_ms, gp_compare_row, void, r->base.present ? r->base.time_ms : NAN)
GP_PART_NUMBER_GETTER(get_base_noise, gp_compare_row, void,
                      r->base.present ? r->base.noise_pct : NAN)
GP_PART_NUMBER_GETTER(get_base_gbps, gp_compare_row, void, r->base.present ? r->base.gbps : NAN)
GP_PART_NUMBER_GETTER(get_new_ms, gp_compare_row, void, r->next.present ? r->next.time_ms : NAN)
GP_PART_NUMBER_GETTER(get_new_noise, gp_compare_row, void,
                      r->next.present ? r->next.noise_pct : NAN)
GP_PART_NUMBER_GETTER(get_new_gbps, gp_compare_row, void, r->next.present ? r->next.gbps : NAN)
GP_PART_NUMBER_GETTER(get_change, gp_compare_row, void, r->change_pct)
GP_PART_NUMBER_GETTER(get_bound, gp_compare_row, void, r->bound_pct)
GP_PART_TEXT_GETTER(get_verdict, gp_compare_row, void, gp_change_name(r->verdict))
GP_PART_TEXT_GETTER(get_result, gp_compare_row, void, (gp_compare_label(r, buf, len), buf))
/* The page's verdict: an arrow before a significant change's. */
GP_PART_TEXT_GETTER(get_page_verdict, gp_compare_row, void,
                    (snprintf(buf, len, "%s%s",
                              r->verdict == GP_CHANGE_SLOWER   ? "\xe2\x96\xb2 "
                              : r->verdict == GP_CHANGE_FASTER ? "\xe2\x96\xbc "
                                                               : "",
                              gp_change_name(r->verdict)),
                     buf))

/* The page's class of a row (and of its bars): a significant change's, or the same. */
static const char *row_class(const void *row, const void *ctx)
{
    (void)ctx;
    const gp_change v = ((const gp_compare_row *)row)->verdict;
    return v == GP_CHANGE_SLOWER   ? "significant slower"
           : v == GP_CHANGE_FASTER ? "significant faster"
                                   : "same";
}

/* Text's label: an exec row's kernel number in the base report ("#2 "), or for a kernel only
 * the new report ran, in the new one ("new#3 "), and its launch shape, kept whole before the
 * kernel's label, which is cut in the middle where it is too long; other rows' keys joined. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_compare_row *r = row;
    const gp_comparison *c = ctx;
    if (!c->exec || r->n_keys == 0)
        return get_result(row, ctx, buf, len);
    size_t used = 0;
    buf[0] = '\0';
    if (r->number)
        used = (size_t)snprintf(buf, len, "%s#%zu ", r->number_is_new ? "new" : "", r->number);
    /* a variant's code is in its label ("[variant 2 of 3]") */
    for (size_t i = 1; i < r->n_keys && used < len; i++)
        if (!r->label[0] || strcmp(r->keys[i].name, "code") != 0)
            used += (size_t)snprintf(buf + used, len - used, "%s=%s ", r->keys[i].name,
                                     r->keys[i].value);
    return (gp_cell){.text = r->label[0] ? r->label : r->keys[0].value, .tag = buf};
}

/* JSON's exec row: the kernel's #N in the base report, or for a kernel only the new report
 * ran, in the new one. */
GP_PART_GETTER(get_kernel_id, gp_compare_row, void,
               r->number && !r->number_is_new ? GP_CELL_NUMBER(r->number) : GP_CELL_ABSENT)
GP_PART_GETTER(get_new_kernel_id, gp_compare_row, void,
               r->number && r->number_is_new ? GP_CELL_NUMBER(r->number) : GP_CELL_ABSENT)

enum {
    RESULT, VERDICT, CHANGE, BOUND, BASE_MS, BASE_NOISE, BASE_GBPS, NEW_MS, NEW_NOISE,
    NEW_GBPS, LABEL, PAGE_VERDICT, KERNEL_ID, NEW_KERNEL_ID
};

#define SHOWN (GP_IN_TEXT | GP_IN_CSV | GP_IN_HTML)

/* In CSV's order; text, the page and JSON have theirs. */
static const gp_part_column columns[] = {
    [RESULT] = {.key = "result", .in = GP_IN_CSV, .get = get_result},
    [VERDICT] = {.key = "verdict", .header = "verdict", .align = GP_ALIGN_LEFT,
                 .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_JSON, .get = get_verdict,
                 .legend = "slower or faster beyond the bound, same within it; only-base or "
                           "only-new where one report lacks the result"},
    [CHANGE] = {.key = "change_pct", .header = "change%", .html = "change %",
                .format = GP_NUMBER_SIGNED1, .gap = 1, .in = GP_IN_ALL, .get = get_change},
    [BOUND] = {.key = "bound_pct", .header = "bound%", .html = "bound %",
               .format = GP_NUMBER_FIXED1, .gap = 1, .in = GP_IN_ALL, .get = get_bound,
               .legend = "the threshold, or both runs' noise where larger"},
    [BASE_MS] = {.key = "base_ms", .header = "base", .html = "base ms", .unit = "ms",
                 .format = GP_NUMBER_MS, .gap = 1, .in = SHOWN, .get = get_base_ms},
    [BASE_NOISE] = {.key = "base_noise_pct", .html = "base noise %", .format = GP_NUMBER_FIXED1,
                    .in = GP_IN_CSV | GP_IN_HTML, .get = get_base_noise},
    [BASE_GBPS] = {.key = "base_gbps", .header = "base_GB/s", .html = "base GB/s",
                   .format = GP_NUMBER_FIXED1, .gap = 1, .in = SHOWN, .get = get_base_gbps},
    [NEW_MS] = {.key = "new_ms", .header = "new", .html = "new ms", .unit = "ms",
                .format = GP_NUMBER_MS, .gap = 1, .in = SHOWN, .get = get_new_ms},
    [NEW_NOISE] = {.key = "new_noise_pct", .html = "new noise %", .format = GP_NUMBER_FIXED1,
                   .in = GP_IN_CSV | GP_IN_HTML, .get = get_new_noise},
    [NEW_GBPS] = {.key = "new_gbps", .header = "new_GB/s", .html = "new GB/s",
                  .format = GP_NUMBER_FIXED1, .gap = 1, .in = SHOWN, .get = get_new_gbps},
    [LABEL] = {.key = "label", .header = "result", .align = GP_ALIGN_NAME, .gap = 2,
               .in = GP_IN_TEXT, .get = get_label},
    [PAGE_VERDICT] = {.key = "verdict", .in = GP_IN_HTML, .get = get_page_verdict,
                      .html_class = "verdict"},
    [KERNEL_ID] = {.key = "kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
                   .get = get_kernel_id, .legend = "an exec row's kernel: its #N in the base "
                                                   "report"},
    [NEW_KERNEL_ID] = {.key = "new_kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
                       .get = get_new_kernel_id,
                       .legend = "an exec row's kernel that only the new report ran: its #N "
                                 "there"},
};

const gp_part gp_compare_part = {
    .key = "rows", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .row_size = sizeof(gp_compare_row), .json_keyed_by = -1,
    .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(VERDICT, CHANGE, BOUND, BASE_MS, NEW_MS,
                                             BASE_GBPS, NEW_GBPS, LABEL),
              [GP_VIEW_HTML] = GP_PART_ORDER(PAGE_VERDICT, CHANGE, BOUND, BASE_MS, NEW_MS,
                                             BASE_NOISE, NEW_NOISE, BASE_GBPS, NEW_GBPS),
              [GP_VIEW_JSON] = GP_PART_ORDER(KERNEL_ID, NEW_KERNEL_ID, VERDICT, CHANGE, BOUND)},
    .html_row_class = row_class,
};

/* ---- a side of a row ---------------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_side_ms, gp_compare_side, void, r->time_ms)
GP_PART_NUMBER_GETTER(get_side_noise, gp_compare_side, void, r->noise_pct)
GP_PART_NUMBER_GETTER(get_side_gbps, gp_compare_side, void, r->gbps)
GP_PART_NUMBER_GETTER(get_side_launches, gp_compare_side, void, r->launches)

static const gp_part_column side_columns[] = {
    {.key = "median_ms", .unit = "ms", .format = GP_NUMBER_MS, .in = GP_IN_JSON,
     .get = get_side_ms},
    {.key = "noise_pct", .format = GP_NUMBER_FIXED1, .in = GP_IN_JSON, .get = get_side_noise},
    {.key = "bandwidth_gbps", .unit = "GB/s", .format = GP_NUMBER_FIXED1, .in = GP_IN_JSON,
     .get = get_side_gbps},
    {.key = "launches", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON, .get = get_side_launches,
     .legend = "the launches the result's time is of (an exec kernel's)"},
};

const gp_part gp_compare_side_part = GP_PART_DECLARE("side", side_columns, 0, gp_compare_side,
                                                     -1);
