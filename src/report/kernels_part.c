/* An exec report's kernel summary as a part (gpuprof/report_parts.h): text's table (most time
 * first), the page's kernel table (before its metric columns and the kernel's own cell),
 * JSON's `kernels` (before each kernel's passes and metrics) and exec's CSV row per kernel of
 * a program (its metrics' stats between its columns), one row per kernel and variant of
 * gp_exec_summarize. */
#include "gpuprof/report_parts.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/status.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const gp_exec_kernel *kernel_of(const void *row)
{
    return row;
}

static const gp_kernels_context *context_of(const void *ctx)
{
    return ctx;
}

/* The kernel's number: its place in the summary, from 1. */
static size_t number_of(const void *row, const void *ctx)
{
    return (size_t)(kernel_of(row) - context_of(ctx)->kernels) + 1;
}

GP_PART_NUMBER_GETTER(get_average, gp_exec_kernel, void, r->average_ms)
/* A kernel of one code has no variant: JSON leaves those keys out. */
GP_PART_GETTER(get_variant, gp_exec_kernel, void,
               r->variants ? GP_CELL_NUMBER(r->variant) : GP_CELL_ABSENT)
GP_PART_GETTER(get_variants, gp_exec_kernel, void,
               r->variants ? GP_CELL_NUMBER(r->variants) : GP_CELL_ABSENT)
GP_PART_GETTER(get_total, gp_exec_kernel, void,
               ((gp_cell){.number = r->total_ms,
                          .approx = r->total_estimated ? GP_EXEC_ESTIMATE_NOTE : NULL}))
GP_PART_NUMBER_GETTER(get_number, gp_exec_kernel, gp_kernels_context, number_of(r, c))
GP_PART_TEXT_GETTER(get_graph_nodes, gp_exec_kernel, gp_kernels_context,
                    c->graph_nodes[number_of(r, c) - 1])
GP_PART_TEXT_GETTER(get_kernel, gp_exec_kernel, void, r->kernel)
GP_PART_TEXT_GETTER(get_kind, void, void, "kernel")
GP_PART_TEXT_GETTER(get_program, void, gp_kernels_context, c->program)
/* CSV's columns of copies, memsets and unified memory (their rows share the kernels'
 * header): empty on a kernel's row. */
GP_PART_TEXT_GETTER(get_empty, void, void, "")
GP_PART_TEXT_GETTER(get_row, void, void, GP_ACTIVITY_ROW_TOTAL)
/* Its #N by name and variant: CSV's rows are a program's own summary, not the context's. */
GP_PART_NUMBER_GETTER(get_kernel_id, gp_exec_kernel, gp_kernels_context,
                      gp_kernel_labels_number(c->labels, r->kernel, r->variant))

/* A code as a string of its decimal digits (a JSON number is exact only below 2^53). */
static gp_cell get_code(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_exec_kernel *k = kernel_of(row);
    if (!k->variants || !k->code)
        return GP_CELL_ABSENT;
    snprintf(buf, len, "%" PRIu64, k->code);
    return GP_CELL_TEXT(buf);
}

static gp_cell get_passes(const void *row, const void *ctx, char *buf, size_t len)
{
    gp_exec_describe_passes(&context_of(ctx)->r->profiler, kernel_of(row)->passes, buf, len);
    return GP_CELL_TEXT(buf);
}

/* The label: "#3 " (with a merged report's files, "#3 [1,2] ") kept whole before the name
 * in the --kernel-name style. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_kernel *k = kernel_of(row);
    const gp_kernel_labels *kl = context_of(ctx)->labels;
    const char *from = gp_kernel_labels_from(kl, k->kernel, k->variant);
    snprintf(buf, len, "#%zu %s%s", number_of(row, ctx), from, from[0] ? " " : "");
    return (gp_cell){.text = gp_kernel_labels_name(kl, k->kernel, k->variant), .tag = buf};
}

static bool when_estimated(const void *ctx)
{
    return context_of(ctx)->estimated;
}

static bool when_rotated(const void *ctx)
{
    return gp_exec_rotated(&context_of(ctx)->r->profiler);
}

static bool when_graph(const void *ctx)
{
    return context_of(ctx)->graph_nodes != NULL;
}

enum {
    PERCENT, TOTAL, CALLS, TIMED, PROFILED, PASSES, GRAPH, AVERAGE, MIN, MAX, LABEL,
    KERNEL, NUMBER, VARIANT, VARIANTS, CODE, ESTIMATED,
    KIND, PROGRAM, AVERAGE_CSV, HOST_MEMORY, BYTES, GBPS, EVENTS, KERNEL_ID, ROW
};

#define PEOPLE (GP_IN_TEXT | GP_IN_HTML)
#define CSV_JSON (GP_IN_CSV | GP_IN_JSON)

/* In text's order; the page and JSON have theirs (below). */
static const gp_part_column columns[] = {
    [PERCENT] = {.key = "time_percent", .header = "%kernels", .html = "% of kernel time",
                 .format = GP_NUMBER_PERCENT1, .in = GP_IN_ALL,
                 GP_PART_FIELD(gp_exec_kernel, time_percent),
                 .legend = "each kernel's share of the time of all kernels"},
    [TOTAL] = {.key = "total_ms", .header = "time", .unit = "ms", .format = GP_NUMBER_MS,
               .gap = 1, .in = GP_IN_ALL, .get = get_total},
    [CALLS] = {.key = "calls", .header = "calls", .format = GP_NUMBER_COUNT, .gap = 1,
               .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_kernel, calls)},
    [TIMED] = {.key = "timed", .header = "timed", .format = GP_NUMBER_COUNT, .gap = 1,
               .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_kernel, timed), .when = when_estimated},
    [PROFILED] = {.key = "profiled", .header = "profiled", .format = GP_NUMBER_COUNT, .gap = 1,
                  .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_kernel, profiled)},
    [PASSES] = {.key = "passes", .header = "passes", .gap = 1, .in = PEOPLE,
                .get = get_passes, .when = when_rotated, .html_class = "num passes"},
    [GRAPH] = {.key = "graph_nodes", .header = "graph nodes", .html = "graph nodes",
               .align = GP_ALIGN_LEFT, .gap = 2, .in = PEOPLE, .get = get_graph_nodes,
               .when = when_graph},
    [AVERAGE] = {.key = "average_ms", .header = "avg", .html = "avg_ms", .unit = "ms",
                 .format = GP_NUMBER_MS, .gap = 1, .in = PEOPLE | GP_IN_JSON,
                 .get = get_average},
    [MIN] = {.key = "min_ms", .header = "min", .unit = "ms", .format = GP_NUMBER_MS, .gap = 1,
             .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_kernel, min_ms)},
    [MAX] = {.key = "max_ms", .header = "max", .unit = "ms", .format = GP_NUMBER_MS, .gap = 1,
             .in = GP_IN_ALL, GP_PART_FIELD(gp_exec_kernel, max_ms)},
    [LABEL] = {.key = "label", .header = "kernel", .align = GP_ALIGN_NAME, .gap = 2,
               .in = GP_IN_TEXT, .get = get_label},
    [KERNEL] = {.key = "kernel", .in = CSV_JSON, .get = get_kernel},
    [NUMBER] = {.key = "number", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
                .get = get_number},
    [VARIANT] = {.key = "variant", .format = GP_NUMBER_WHOLE, .in = CSV_JSON,
                 .get = get_variant},
    [VARIANTS] = {.key = "variants", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
                  .get = get_variants},
    [CODE] = {.key = "code", .in = GP_IN_JSON, .get = get_code},
    [ESTIMATED] = {.key = "total_estimated", .format = GP_NUMBER_FLAG, .in = CSV_JSON,
                   GP_PART_FIELD(gp_exec_kernel, total_estimated)},
    [KIND] = {.key = "kind", .in = GP_IN_CSV, .get = get_kind,
              .legend = "kernel; copies, memsets and unified memory join under its header"},
    [PROGRAM] = {.key = "source", .in = GP_IN_CSV, .get = get_program,
                 .legend = "the program's command line"},
    [AVERAGE_CSV] = {.key = "avg_ms", .format = GP_NUMBER_MS, .in = GP_IN_CSV,
                     .get = get_average},
    [HOST_MEMORY] = {.key = "host_memory", .in = GP_IN_CSV, .get = get_empty},
    [BYTES] = {.key = "bytes", .in = GP_IN_CSV, .get = get_empty},
    [GBPS] = {.key = "gbps", .in = GP_IN_CSV, .get = get_empty},
    [EVENTS] = {.key = "count", .in = GP_IN_CSV, .get = get_empty},
    [KERNEL_ID] = {.key = "kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV,
                   .get = get_kernel_id, .legend = "the kernel's #N of the other views"},
    [ROW] = {.key = "row", .in = GP_IN_CSV, .get = get_row,
             .legend = "total; by_host_memory: a copy row's share of its kind's row"},
};

const gp_part gp_kernels_part = {
    .key = "kernels", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .row_size = sizeof(gp_exec_kernel), .json_keyed_by = -1,
    .order = {[GP_VIEW_HTML] = GP_PART_ORDER(CALLS, TIMED, PROFILED, PASSES, PERCENT, TOTAL,
                                             AVERAGE, MIN, MAX, GRAPH),
              /* the metrics' stats after count, at GP_KERNELS_CSV_METRICS_AT; timed and the
                 later columns were added after them, so that no column moves */
              [GP_VIEW_CSV] = GP_PART_ORDER(KIND, PROGRAM, KERNEL, CALLS, PROFILED, PERCENT,
                                            TOTAL, AVERAGE_CSV, MIN, MAX, HOST_MEMORY, BYTES,
                                            GBPS, EVENTS, TIMED, ESTIMATED, KERNEL_ID, ROW,
                                            VARIANT),
              [GP_VIEW_JSON] = GP_PART_ORDER(KERNEL, NUMBER, VARIANT, VARIANTS, CODE, CALLS,
                                             PROFILED, TIMED, TOTAL, ESTIMATED, AVERAGE, MIN,
                                             MAX, PERCENT)},
};

/* ---- the context of the views ------------------------------------------------------- */

int gp_kernel_rows_init(gp_kernel_rows *kr, const gp_report *r, const gp_exec_kernel *k,
                        size_t nk, const gp_kernel_labels *kl)
{
    GP_TRY(gp_exec_graph_cells(&r->exec, k, nk, &kr->graph));
    kr->ctx = (gp_kernels_context){.r = r, .kernels = k, .labels = kl,
                                   .graph_nodes = (const char *const *)kr->graph,
                                   .estimated = gp_exec_any_estimated(k, nk)};
    return GP_OK;
}

void gp_kernel_rows_free(gp_kernel_rows *kr)
{
    free(kr->graph);
    kr->graph = NULL;
}
