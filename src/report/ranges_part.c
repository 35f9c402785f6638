/* exec --by-range's part (gpuprof/report_parts.h): a row per node of the range tree
 * (gpuprof/exec_ranges.h), in its reading order. People read a node's label indented by its
 * depth, last in text (cut in its middle to the room left, as kernel names are) and first on
 * the page; CSV and JSON its whole folded path and depth. The top kernel is named as every
 * view names kernels (gpuprof/kernel_labels.h): "#3 label", its full name in CSV and JSON. */
#include "gpuprof/report_parts.h"

#include "gpuprof/kernel_name.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

GP_PART_TEXT_GETTER(get_path, gp_exec_range, void, r->path)
GP_PART_GETTER(get_total, gp_exec_range, void,
               ((gp_cell){.number = r->total_ms,
                          .approx = r->total_estimated ? GP_EXEC_ESTIMATE_NOTE : NULL}))
/* JSON leaves it out when no launch's kernel has the counters. */
GP_PART_GETTER(get_dram, gp_exec_range, void,
               isnan(r->dram_bytes)
                   ? GP_CELL_ABSENT
                   : ((gp_cell){.number = r->dram_bytes, .format = GP_NUMBER_BYTES,
                                .approx = r->dram_estimated ? GP_RANGE_DRAM_ESTIMATE_NOTE : NULL}))
GP_PART_GETTER(get_top_id, gp_exec_range, void,
               r->top ? GP_CELL_NUMBER(r->top) : GP_CELL_ABSENT)
GP_PART_GETTER(get_top_kernel, gp_exec_range, gp_ranges_context,
               r->top && r->top <= c->n_kernels ? GP_CELL_TEXT(c->kernels[r->top - 1].kernel)
                                                : GP_CELL_ABSENT)

/* A memory metric of the node (gp_range_metric_keys[m]); JSON leaves it out where no launch
 * counted its inputs, people read "-". */
#define METRIC_GETTER(name, m)                                                                 \
    GP_PART_GETTER(name, gp_exec_range, void,                                                   \
                   isnan(r->metrics[m]) ? GP_CELL_ABSENT : GP_CELL_NUMBER(r->metrics[m]))
METRIC_GETTER(get_gld, 0)
METRIC_GETTER(get_gst, 1)
METRIC_GETTER(get_ld_eff, 2)
METRIC_GETTER(get_st_eff, 3)

/* People see the memory metrics' columns where some node has one. */
static bool with_metrics(const void *ctx)
{
    return ((const gp_ranges_context *)ctx)->metrics;
}

/* People's label: the depth's indentation kept whole before it (as a kernel's "#3 " is), the
 * path on the page's hover. */
static gp_cell get_range(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_range *node = row;
    const char *unit = ((const gp_ranges_context *)ctx)->indent;
    const size_t step = strlen(unit);
    size_t used = 0;
    for (size_t d = 0; d < node->depth && used + step < len; d++, used += step)
        memcpy(buf + used, unit, step);
    buf[used] = '\0';
    return (gp_cell){.text = node->label, .tag = buf, .title = node->path};
}

/* "#3 label" of the kernel of the most time, the label cut in its middle unless whole; "-"
 * when none was timed. */
static gp_cell get_top(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_range *node = row;
    const gp_ranges_context *c = ctx;
    if (!node->top)
        return GP_CELL_TEXT("-");
    const char *label = gp_kernel_labels_label(c->labels, node->top);
    const int tag = snprintf(buf, len, "#%zu ", node->top);
    if (tag > 0 && (size_t)tag < len && c->whole)
        snprintf(buf + tag, len - (size_t)tag, "%s", label);
    else if (tag > 0 && (size_t)tag < len)
        gp_kernel_name_shorten(label, GP_RANGES_TOP_WIDTH, buf + tag, len - (size_t)tag);
    return GP_CELL_TEXT(buf);
}

enum {
    PATH, DEPTH, RANGE, CALLS, KERNELS, PERCENT, TOTAL, TOTAL_ESTIMATED, DRAM, DRAM_ESTIMATED,
    GLD, GST, LD_EFF, ST_EFF, TOP_ID, TOP_KERNEL, TOP
};

#define WEIGHTED " over the range's launches that counted its inputs, from their sums " \
                 "(weighted by the counters, not a mean of launches); absent when none did"

#define PEOPLE (GP_IN_TEXT | GP_IN_HTML)
#define CSV_JSON (GP_IN_CSV | GP_IN_JSON)

/* In CSV's and JSON's order (and the page's); text has its own (below). */
static const gp_part_column columns[] = {
    [PATH] = {.key = "path", .in = CSV_JSON, .get = get_path,
              .legend = "the range path, outermost first, its labels joined by '/', PyTorch "
                        "emit_nvtx's per-call parts (seq, op_id, sizes) removed; \"(no "
                        "range)\": the launches in none"},
    [DEPTH] = {.key = "depth", .format = GP_NUMBER_WHOLE, .in = CSV_JSON,
               GP_PART_FIELD(gp_exec_range, depth),
               .legend = "its labels less one: 0 for an outermost range"},
    [RANGE] = {.key = "range", .header = "range", .html = "range", .align = GP_ALIGN_NAME,
               .gap = 2, .in = PEOPLE, .get = get_range},
    [CALLS] = {.key = "calls", .header = "calls", .format = GP_NUMBER_COUNT, .gap = 1,
               .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_range, calls),
               .legend = "kernel launches in the range and the ranges within it"},
    [KERNELS] = {.key = "kernels", .header = "kernels", .format = GP_NUMBER_COUNT, .gap = 1,
                 .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_range, kernels),
                 .legend = "distinct kernels among them (a kernel's variants apart)"},
    [PERCENT] = {.key = "time_percent", .header = "%kernels", .html = "% of kernel time",
                 .format = GP_NUMBER_PERCENT1, .in = GP_IN_ALL,
                 GP_PART_FIELD(gp_exec_range, time_percent),
                 .legend = "its share of the time of all kernels; null without a time"},
    [TOTAL] = {.key = "total_ms", .header = "time", .html = "time, ms", .unit = "ms",
               .format = GP_NUMBER_MS, .gap = 1, .in = GP_IN_ALL, .get = get_total,
               .legend = "its launches' times, an untimed launch at its kernel's mean; null "
                         "when none has either"},
    [TOTAL_ESTIMATED] = {.key = "total_estimated", .format = GP_NUMBER_FLAG, .in = CSV_JSON,
                         GP_PART_FIELD(gp_exec_range, total_estimated),
                         .legend = "some launch was not timed: total_ms is an estimate"},
    [DRAM] = {.key = "dram_bytes", .header = "DRAM", .html = "DRAM, bytes", .unit = "bytes",
              .format = GP_NUMBER_BYTES, .gap = 1, .in = GP_IN_ALL, .get = get_dram,
              .legend = "bytes read and written in DRAM (dram_read_bytes + dram_write_bytes) "
                        "by its launches, one without them at its kernel's means; absent "
                        "when no launch's kernel has them"},
    [DRAM_ESTIMATED] = {.key = "dram_estimated", .format = GP_NUMBER_FLAG, .in = CSV_JSON,
                        GP_PART_FIELD(gp_exec_range, dram_estimated),
                        .legend = "some launch lacked the DRAM counters: dram_bytes is an "
                                  "estimate"},
    [GLD] = {.key = "gld_transactions_per_request", .header = "gld/req",
             .html = "gld sectors/request", .format = GP_NUMBER_FIXED2, .gap = 1,
             .in = GP_IN_ALL, .when = with_metrics, .get = get_gld,
             .legend = "global load sectors per request" WEIGHTED},
    [GST] = {.key = "gst_transactions_per_request", .header = "gst/req",
             .html = "gst sectors/request", .format = GP_NUMBER_FIXED2, .gap = 1,
             .in = GP_IN_ALL, .when = with_metrics, .get = get_gst,
             .legend = "global store sectors per request" WEIGHTED},
    [LD_EFF] = {.key = "gld_efficiency", .header = "ld_eff%", .html = "load efficiency, %",
                .format = GP_NUMBER_FIXED1, .gap = 1, .in = GP_IN_ALL, .when = with_metrics,
                .get = get_ld_eff,
                .legend = "global load efficiency, % (bytes asked for / bytes of the sectors "
                          "moved)" WEIGHTED},
    [ST_EFF] = {.key = "gst_efficiency", .header = "st_eff%", .html = "store efficiency, %",
                .format = GP_NUMBER_FIXED1, .gap = 1, .in = GP_IN_ALL, .when = with_metrics,
                .get = get_st_eff,
                .legend = "global store efficiency, %" WEIGHTED},
    [TOP_ID] = {.key = "top_kernel_id", .format = GP_NUMBER_COUNT, .in = CSV_JSON,
                .get = get_top_id,
                .legend = "the #N of the kernel of the most time in the range (the kernel "
                          "summary's); absent when none was timed"},
    [TOP_KERNEL] = {.key = "top_kernel", .in = CSV_JSON, .get = get_top_kernel,
                    .legend = "that kernel's demangled name"},
    [TOP] = {.key = "top_kernel", .header = "top kernel", .html = "top kernel",
             .align = GP_ALIGN_LEFT, .gap = 2, .in = PEOPLE, .get = get_top},
};

const gp_part gp_ranges_part = {
    .key = "ranges", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .row_size = sizeof(gp_exec_range), .json_keyed_by = -1,
    .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(PERCENT, TOTAL, CALLS, KERNELS, DRAM, GLD, GST,
                                             LD_EFF, ST_EFF, TOP, RANGE),
              [GP_VIEW_HTML] = GP_PART_ORDER(RANGE, PERCENT, TOTAL, CALLS, KERNELS, DRAM, GLD,
                                             GST, LD_EFF, ST_EFF, TOP)}};
