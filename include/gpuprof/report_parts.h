/* The report's parts declared as tables (gpuprof/part.h): each part's row type, its
 * declaration and how its rows are taken from the report. The renderers print them
 * (src/render/part.c), the loader reads them back (src/report/part.c). */
#ifndef GPUPROF_REPORT_PARTS_H
#define GPUPROF_REPORT_PARTS_H

#include "gpuprof/compare.h"
#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_ranges.h"
#include "gpuprof/exec_stalls.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/group.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/part.h"
#include "gpuprof/ranks.h"
#include "gpuprof/report.h"

/* Every declared part, for the tests that hold each declaration to its rules (each view's
 * order lists exactly the columns that view shows). */
extern const gp_part *const gp_report_parts[];
extern const size_t gp_n_report_parts;

/* ---- unified memory (src/report/unified_part.c) ------------------------------------------ */

/* A counter that counted: a row of the unified-memory part. */
typedef struct {
    gp_um_counter counter;
    gp_um_stats stats;
} gp_um_row;

/* Its columns: the counter (JSON's key), its records, their average, least, most and total
 * (bytes for the transfers; faults, fault groups or events for the others) and the time of
 * those with a duration. */
extern const gp_part gp_unified_part;
/* The counters that counted, in the counters' order, into rows[GP_UM_COUNTERS]; their number. */
size_t gp_unified_rows(const gp_exec_info *e, gp_um_row *rows);

/* ---- an exec report's kernels (src/report/kernels_part.c) -------------------------------- */

/* The summary's kernels (gp_exec_summarize) are the rows; what their columns read besides. */
typedef struct {
    const gp_report *r;
    const gp_exec_kernel *kernels;   /* the rows, so that a row knows its number */
    const gp_kernel_labels *labels;
    const char *const *graph_nodes;  /* per kernel, the graph nodes it ran as (people's
                                        views); NULL: no kernel ran in a graph */
    bool estimated;                  /* some kernel's total is estimated: a timed column */
    const char *program;             /* CSV's source: the program the rows' launches ran in */
} gp_kernels_context;

/* A row per kernel and variant: its share of the kernels' time, total, calls, timed and
 * profiled launches, passes (rotated), graph nodes, average, least and most time, and its
 * label; JSON adds its full name, number, variant and code. CSV (exec's row per kernel of a
 * program): kind, source, kernel, calls, profiled, time_percent, total_ms, avg_ms, min_ms,
 * max_ms, the copies' host_memory, bytes, gbps and count (empty), then after the metrics'
 * stats (at place GP_KERNELS_CSV_METRICS_AT of its order) timed, total_estimated, kernel_id,
 * row and variant. Derived whenever a report is written, never read back. */
extern const gp_part gp_kernels_part;
enum { GP_KERNELS_CSV_METRICS_AT = 14 };

/* The summary's context as the views need it: the graph nodes each kernel ran as, written for
 * people (gpuprof/exec_graph.h), and whether some total is estimated. */
typedef struct {
    gp_kernels_context ctx;
    char **graph;                /* per kernel; NULL: none ran in a graph */
} gp_kernel_rows;

/* The context of the summary's nk kernels k, labelled by kl (NULL where no view names them
 * through it); gp_kernel_rows_free frees it. */
int gp_kernel_rows_init(gp_kernel_rows *kr, const gp_report *r, const gp_exec_kernel *k,
                        size_t nk, const gp_kernel_labels *kl);
void gp_kernel_rows_free(gp_kernel_rows *kr);

/* ---- the rank view (src/report/ranks_part.c) --------------------------------------------- */

/* What the rank view's parts read besides a row. Their rows are the view's own: its kernels,
 * a kernel's cells, its ranks, a kernel's spreads. */
typedef struct {
    const gp_rank_view *view;
    const char *const *labels;       /* per kernel, its name in text (NULL: its name) */
    const gp_rank_kernel *kernel;    /* the kernel whose cells are gp_rank_cell_part's rows */
    double median_ms;                /* the ranks' median kernel time (gp_rank_view_time_spread),
                                        for gp_rank_entry_part's "vs median" */
    const gp_rank_entry *slowest;    /* the rank of the most kernel time, whose row the page
                                        marks (of several); NULL: none */
    const char *indent;              /* gp_rank_range_part's: a level's indentation before a
                                        range's label (as gp_ranges_context.indent) */
} gp_rank_part_ctx;

/* Each kernel over the ranks (gp_rank_kernel): text's and HTML's table of kernels (HTML's
 * kernel cell is its own), CSV's row per kernel, each kernel's head in
 * JSON (its spreads, gp_rank_spread_part, go before its slowest_rank). Read back: its
 * name, and what it derives, checked. */
extern const gp_part gp_rank_kernel_part;
/* A spread (gp_rank_spread): JSON's time_ms and dram_bytes of a kernel, checked when read. */
extern const gp_part gp_rank_spread_part;
/* A kernel on each rank it ran on (gp_rank_cell, of ctx->kernel): --by-rank's rows in each
 * format (the page's of its slowest rank of class "slowest"), JSON's by_rank; read back with
 * the rank's number in cell.rank (not its index). */
extern const gp_part gp_rank_cell_part;
/* The ranks (gp_rank_entry): text's and HTML's table of ranks (the page's row of
 * ctx->slowest of class "slowest"), JSON's ranks; read back with the file as the document
 * has it (the caller copies it). */
extern const gp_part gp_rank_entry_part;

/* ---- compare's rows (src/report/compare_part.c) -------------------------------------------- */

/* A compared row (gp_compare_row of c->rows): its verdict, change and bound, both sides'
 * time, noise and bandwidth, and its label (exec rows: the kernel's number and launch shape
 * kept whole before its name). Text's table, CSV's cells before both sides' metrics, the
 * page's verdict (an arrow before a significant change's) and numbers before its result
 * cell, its row's class the verdict's (html_row_class, also its bars'). JSON's row: the
 * exec kernel's kernel_id or new_kernel_id, verdict, change_pct, bound_pct, after the view's
 * key; then the view's base and new, each a side (gp_compare_side_part: median_ms,
 * noise_pct, bandwidth_gbps, launches, then the view's metrics). */
extern const gp_part gp_compare_part;
extern const gp_part gp_compare_side_part;

/* ---- the per-line view, --source (src/report/source_part.c) ------------------------------ */

/* What a kernel's lines and instructions are drawn with: the kernel and its excesses (a line's
 * share of them); for CSV's leading columns, whose lines they are: a kernel command's result,
 * or an exec view (gp_source_exec_line_part). */
typedef struct {
    const gp_source_kernel *kernel;
    uint64_t excess, shared_excess;     /* the kernel's global and shared, over its lines */
    const gp_result *result;            /* a result's: the result */
    const gp_exec_source_view *view;    /* an exec view's: the view, */
    const char *program;                /* its program, as exec's other rows give it, */
    size_t number;                      /* its kernel's #N (0: the summary lacks it) */
    const char *name;                   /* and the kernel's full name */
    const gp_stall_kernel *stalls;      /* its kernel code's warp-stall samples, joined to its
                                           lines (gpuprof/source_stalls.h); NULL: none */
} gp_source_context;

/* The context of k's lines: k and its excesses, whose left empty. */
gp_source_context gp_source_context_of(const gp_source_kernel *k);

/* A kernel's lines (rows: gp_source_line; JSON's "lines"). Text: where the line is (file:line,
 * or without line information its instruction by offset and access), warp instructions,
 * global requests, global sectors per request accessed and ideal, the line's share of the
 * kernel's global excess, shared wavefronts per shared request accessed and ideal, local
 * sectors; with its kernel's warp stalls joined (the context's stalls), the line's share of
 * the kernel's samples and its top group (for a kernel of too few samples "-"). HTML: the
 * line's number and text (code: the page writes that cell), then as text from sectors per
 * request on. CSV (a kernel command's): the result (family, variant, type, n, nx, ny, block,
 * params) and the kernel (mangled), file, line, the offset of a line-less entry's
 * instruction, each counter by its key, the excess. JSON: file and line (null and null
 * without line information: read back by report/load_source.c, the loader takes no null
 * word), the counters and the excess (read back as a check); joined, stall_samples,
 * stall_percent and stall_group (absent without samples), derived (checked against the
 * stalls by report/load_source.c). */
extern const gp_part gp_source_line_part;
/* An exec report's lines in CSV: where the view comes from (source: its program; kernel_id:
 * the kernel's #N; kernel: its name; mangled; pid; launch: the patched launch's id), then
 * the line as a kernel command's CSV has it. */
extern const gp_part gp_source_exec_line_part;
/* The same, of a report with warp stalls (--stalls): then stall_samples, stall_percent (of
 * its kernel code's samples) and stall_group (the key of its group of the most samples; empty
 * without samples), empty for a kernel without samples. */
extern const gp_part gp_source_exec_stall_line_part;
/* A kernel's instructions (rows: gp_source_pc; JSON's "instructions"): text (--sass) shows
 * each under its line, in the line part's columns (the offset and access where the line's
 * place is); JSON their offset, the index of their line (checked against the lines by
 * report/load_source.c), the counters and the excess. */
extern const gp_part gp_source_pc_part;

/* ---- an exec report's launches, --launches (src/report/launches_part.c) ------------------- */

/* What a launch's columns read besides the launch (gp_exec_launch, of r->exec.launches). */
typedef struct {
    const gp_report *r;
    const gp_kernel_labels *labels;  /* CSV: the kernel's #N (NULL: no CSV rows) */
    const char *const *programs;     /* CSV: the programs' command lines, by
                                        gp_launch_program (NULL: no CSV rows) */
    bool graphs;                     /* text: some launch ran as a graph node, a column says
                                        which */
} gp_launches_context;

/* A row per launch. Text: its process, id, device, stream, graph node (where some launch ran
 * as one), grid, block, shared memory and time, before the view's own how, metrics and
 * kernel. CSV: kind (kernel), program, pid, id, kernel, mangled, device, context, stream,
 * grid, block, shared_bytes, duration_ms, profiled, graph, graph_node, then after the
 * metrics how, note, kernel_id, variant, label (the kernel's, from the context's labels),
 * bytes and host_memory (a copy's: its rows are gp_activities_part's, by key). JSON's launches: a merged report's source, pid,
 * id, kernel, mangled, code, device, context, stream, then after the view's grid and block
 * shared_bytes, duration_ms, profiled, graph and graph_node (how, note, passes and metrics
 * the view's); read back but for source, mangled and code (the loader's). */
extern const gp_part gp_launch_part;
/* Where the views' own values go among the part's columns, by the place in the view's
 * order: CSV's metrics before its column GP_LAUNCH_CSV_METRICS_AT (the columns after them
 * came later, and no earlier column moved), JSON's grid and block before its column
 * GP_LAUNCH_JSON_SHAPE_AT. */
enum { GP_LAUNCH_CSV_METRICS_AT = 16, GP_LAUNCH_JSON_SHAPE_AT = 9 };
/* The program a launch ran in: 0 for a report's own; in a merged report its source's index,
 * or n_sources for a launch a merge of an older gpuprof did not tie to its source. */
size_t gp_launch_program(const gp_report *r, const gp_exec_launch *l);

/* ---- a kernel command's results (src/report/results_part.c) ------------------------------ */

/* A row: a result (a configuration of reduce, transpose, reduce2d or saxpy), or in text one
 * of the kernels of a result that launched several, under the result's row. */
typedef struct {
    const gp_result *result;
    const gp_launch_record *launch;   /* NULL: the result's own row */
    const char *summary;              /* the page's: what the variant does, on hover (the
                                         registry's, which the report knows not); NULL: none */
} gp_result_row;

/* What the results' columns read besides a row. */
typedef struct {
    const gp_report *r;
    const gp_problem_span *problem;   /* text: the rows' problem, whose parameters that vary
                                         label them (NULL: none) */
} gp_results_context;

/* Text: the label (variant, the parameters that vary, a merged report's [file]; a launch's
 * #N), grid, block, time, noise, GB/s, %peak, check. CSV: family, variant, type, n, nx, ny,
 * grid, block (x by y by z), shared bytes, median, least and most time, noise, repeats, bytes
 * moved, GB/s, %peak, check, device, source (a merged report's file), before the parameters'
 * and the metrics' columns. The page: the variant (what it does on hover), the parameters,
 * grid, block, time, noise, GB/s, %peak (of a result with a GPU), the check (its detail on
 * hover) and, where a merged report's files differ, the result's [file], before the metrics'
 * cells; a failed result's row of class "failed". JSON: family,
 * variant, type; size: n, nx and ny (a matrix's); launch: shared_bytes, kernels; timing: min,
 * median and max time, noise (where known), repeats, warmup; bytes_moved, bandwidth_gbps,
 * percent_of_peak; check: status, exact, expected, got, tolerance, mismatches, detail,
 * after_profile (null where not checked again); profile: passes, the SM and DRAM clocks (null
 * where unknown). Read back by report/load.c, which checks each value its own way. */
extern const gp_part gp_results_part;
/* Where each of JSON's objects of a result begins, by the place in the view's order: its size,
 * its launch (after the view's grid and block), timing, the bytes and bandwidth (in the
 * result's own object), check, and its profile (the view's: null where not profiled), to
 * the end. The view's own values go between them: a merged report's source first, the
 * parameters after the size, the metrics, launches, passes and lines after the profile. */
enum {
    GP_RESULT_JSON_SIZE = 3, GP_RESULT_JSON_LAUNCH = 6, GP_RESULT_JSON_TIMING = 8,
    GP_RESULT_JSON_MOVED = 14, GP_RESULT_JSON_CHECK = 17, GP_RESULT_JSON_PROFILE = 25
};
/* The page's row of a launch of a result that launched several: the first cells of the
 * view's order (the variant's: the launch's #N and shape; the parameters': its kernel; grid,
 * block, time), the others one empty cell. */
enum { GP_RESULT_HTML_LAUNCH_CELLS = 5 };

/* ---- copies and memsets (src/report/activities_part.c) ----------------------------------- */

/* The copies part's rows are gp_activity_row (gpuprof/exec_activities.h): the copies or
 * memsets of a kind (host GP_MEMORY_UNKNOWN), or of a kind and host memory. */

/* CSV's row column: a row to sum, or a share of its kind's total row by host memory (so
 * that summing the total rows counts each copy once). */
#define GP_ACTIVITY_ROW_TOTAL "total"
#define GP_ACTIVITY_ROW_BY_HOST_MEMORY "by_host_memory"

/* The context of the rows by host memory under their kind's row (JSON's host_memory
 * object): their kind is their parent's, left out. Elsewhere NULL. */
typedef struct {
    bool under_kind;
} gp_copies_context;

/* Its columns: the kind (JSON and CSV its key, HTML its title on the kind's row), the host
 * memory, calls, their total, average, least and most time (ms), bytes and GB/s; text's
 * table of the copies by host memory: calls, bytes, time, GB/s, the copy and its memory.
 * JSON's "copies" is an array of the rows by kind, derived whenever a report is written. */
extern const gp_part gp_copies_part;
/* The same columns as JSON's "host_memory" of a kind's row: an object keyed by the memory. */
extern const gp_part gp_host_memory_part;

/* The rows by kind, each followed by its rows by host memory (HTML's order), into *out
 * (free() it); *out NULL when there are none. */
int gp_copies_rows(const gp_activity_tables *t, gp_activity_row **out, size_t *n);
/* The rows by host memory of the kind of t->rows[i]: their count, the first at *first. */
size_t gp_copies_by_host(const gp_activity_tables *t, size_t i, size_t *first);

/* ---- GPU activities: kernels, copies and memsets by time (src/report/activities_part.c) -- */

/* A row of text's GPU activities, nvprof's: a kernel or a kind of copy or memset. */
typedef struct {
    const char *name;              /* a kernel's label, or the copy's title */
    size_t number;                 /* a kernel's #N; 0: a copy or memset */
    size_t calls, timed;
    double total_ms, avg_ms, min_ms, max_ms;
    bool estimated;                /* a kernel's total from the mean of some of its launches */
    bool moves_bytes;
    uint64_t bytes;
    double gbps;
} gp_gpu_activity;

/* What the rows share: all their time (each row's %GPU of it) and whether a kernel's total
 * is an estimate (then each row's timed calls show). */
typedef struct {
    double all_ms;
    bool estimated;
    char all_kernels[64];          /* the name of the row of every kernel, where there is one */
} gp_gpu_activities_context;

/* Its columns: %GPU, Time, Calls, Timed (with estimated totals), Avg, Min, Max, Bytes, GB/s,
 * Name (text only). */
extern const gp_part gp_gpu_activities_part;
/* The kernels' rows, labelled by kl (or, kernels_as_one, one row of them all: each kernel is
 * in the summary already), and the copies' and memsets', the most time first (ties by number,
 * then name), into *out (free() it; NULL when there are none), *n of them, and their
 * context. */
int gp_gpu_activities(const gp_exec_kernel *k, size_t nk, const gp_kernel_labels *kl,
                      bool kernels_as_one, const gp_activity_row *rows, size_t nr,
                      gp_gpu_activity **out, size_t *n, gp_gpu_activities_context *ctx);

/* ---- each copy and memset (src/report/activities_part.c) --------------------------------- */

/* Its rows are gp_exec_activity (gpuprof/report.h); its columns JSON's "activities", read
 * back: pid, id, kind, device, context, stream, src, dst, bytes, start_ns, end_ns. CSV's: a
 * copy's or memset's row among --launches', under their header by key (pid, id, kind,
 * device, context, stream, bytes, duration_ms, label, host_memory). */
extern const gp_part gp_activities_part;

/* ---- CUDA graph kernel nodes (src/report/graph_part.c) ----------------------------------- */

/* The launches of one graph node that obtained their metrics one way, with one note: a row
 * of the graph-nodes part (a graph launched a million times is a row per node and way). */
typedef struct {
    uint64_t graph, node;
    const char *kernel;         /* its full name; points into the report */
    unsigned variant;
    size_t launches, timed;     /* timed: those whose duration is known */
    double total_ms;            /* of the timed ones */
    char how[64];               /* gp_launch_how's word (gpuprof/exec_graph.h) */
    const char *note;           /* NULL: none; points into the report */
    size_t footnote;            /* the page's: its note's number among those it lists under
                                   the table (0: none) */
} gp_graph_node;

/* Its columns (HTML's): graph, node, launches, their average time, how their metrics were
 * obtained ("metrics": with a footnote, its note on hover), the kernel ("kernel": its #N
 * before it, of the context, a gp_kernel_labels). */
extern const gp_part gp_graph_nodes_part;
/* The rows of the launches that ran as graph nodes, by graph, node, way and note, into *out
 * (free() it; NULL when there are none). */
int gp_graph_nodes(const gp_exec_info *e, gp_graph_node **out, size_t *n);

/* ---- a kernel's metrics: one row per metric (src/report/metric_stats_part.c) -------------- */

/* Its rows are a kernel's gp_metric_stats (gpuprof/exec_summary.h), its context none (NULL).
 * Text (nvprof's --metrics layout, under each kernel's heading line): the launches that had a
 * value, the metric, its least, most and average value (each in its unit's precision, "n/a"
 * where no launch had one; the average "*" where it was combined over launches of different
 * passes) and its unit. JSON's kernels[].metrics: an object keyed by the metric, each its
 * unit, min, average, max (null where none), launches, combined (only where true) and note
 * (only where there is one). Derived whenever a report is written, never read back. */
extern const gp_part gp_metric_stats_part;

/* A metric's value as people read it, with the precision its unit deserves: "4.00", "12.5",
 * "43580"; "n/a" when m is NULL or not valid. Every view's metric cells and this part's. */
void gp_metric_value_text(char *buf, size_t len, const gp_metric_value *m);
/* Whether a metric's values are counts (bytes, conflicts, sectors, ...; a raw PerfWorks
 * .sum counter): written as whole numbers. */
bool gp_metric_is_count(const gp_metric_value *m);

/* ---- the catalogue commands: list, device, metrics (src/report/catalogue_parts.c) -------- */

/* A kernel variant as `gpuprof list` shows it, in plain words and numbers: the family table
 * is catalogue/'s, which report/ may not read, so catalogue/ makes these rows from it
 * (gp_variant_rows, gpuprof/registry.h) and the part reads them. */
typedef struct gp_variant_row {
    const char *family, *family_summary;
    const char *name, *summary, *origin;
    char default_block[32];      /* "512", "32x16"; "-" for a library call */
    char blocks[96];             /* the blocks it takes: "32..1024, powers of two" */
    char blocks_brief[96];       /* text's: "X 8..1024, Y 1..1024, X*Y <= 1024", "-" */
    bool library;                /* a library call: its default and blocks "-", its own */
    unsigned block_x_mask, block_y_mask;   /* bit k set: 2^k allowed (JSON's arrays) */
    gp_dim3 default_shape;       /* the default block (JSON's array) */
    bool in_place;
} gp_variant_row;

/* Text (a table per family, under the view's heading): the variant, its default block, the
 * blocks it takes (brief, within 120 columns: a note under the table says a library call's
 * "-"), its summary. CSV: family, variant, default_block, blocks, origin, summary.
 * JSON (a family's "variants"): name, summary, origin, then the view's block_x, block_y and
 * default_block arrays before its column GP_VARIANT_JSON_BLOCKS_AT, in_place. Not read back. */
extern const gp_part gp_variant_part;
enum { GP_VARIANT_JSON_BLOCKS_AT = 3 };
/* The end of the family of rows[first]: the index of the first row after it of another
 * family, or n (a family's rows are consecutive). */
size_t gp_variant_family_end(const gp_variant_row *rows, size_t n, size_t first);

/* A GPU (gp_device_info) as JSON writes it, the rows of `gpuprof device`'s "devices", and a
 * report's "device", its sources' and an exec report's devices: index, name,
 * compute_capability, multiprocessors, memory_bytes, l2_bytes, the SM and memory clocks,
 * memory_bus_bits, peak_bandwidth_gbps, copy_bandwidth_gbps (null where not measured), the
 * driver's and runtime's versions. Read back by report/load_parts.c (gp_report_read_device),
 * which checks each value its own way. Text's listing of a device is the view's. */
extern const gp_part gp_device_part;

/* What the metric catalogue's rows (gp_metric_catalogue's own array) read besides a row. */
typedef struct {
    const gp_metric_def *catalogue;              /* the rows, so that a row knows its index */
    const gp_metric_availability *availability;  /* per row, on the chip; NULL: no chip */
} gp_metric_catalogue_context;

/* A metric of the catalogue as `gpuprof metrics --json` writes it: key, unit, description,
 * formula, then the view's inputs array before its column GP_METRIC_JSON_INPUTS_AT, set,
 * ncu_metric (null: no single one), ncu_scale, available (null without a chip), missing (an
 * unavailable one's first missing counter; absent otherwise). Text's listing of the
 * catalogue is the view's. */
extern const gp_part gp_metric_def_part;
enum { GP_METRIC_JSON_INPUTS_AT = 4 };

/* ---- a merged report's inputs (src/report/sources_part.c) --------------------------------- */

/* A merged report's file (gp_report_source, of the report's sources; the context: the
 * report): the page's table of inputs (#, file, gpuprof, command, device) and JSON's
 * "sources" (file, tool_version, command, then the view's device and program). Text lists
 * them as prose lines, its own. Read back by hand (report/load.c), whose messages the tests
 * hold. */
extern const gp_part gp_sources_part;
/* A GPU in words, as the pages describe it: "NVIDIA H100 (sm_90, 132 SMs, peak 3352.3 GB/s,
 * measured copy 2900.0 GB/s)". */
void gp_device_describe(char *buf, size_t len, const gp_device_info *d);

/* ---- the parameter sweeps (src/report/sweep_part.c) --------------------------------------- */

/* A line of a sweep chart: one sweep (gpuprof/group.h: a variant's results over one
 * parameter), named by its variant ("smem", with its type where the report's types differ
 * and its file where a merged report's GPUs or versions do), its results' values of the
 * parameter and their GB/s, in the sweep's order. */
#define GP_SWEEP_NAME_LEN 64
typedef struct {
    char name[GP_SWEEP_NAME_LEN];
    double *x, *y;
    size_t n;
} gp_sweep_line;

/* A chart: the sweeps of one family over one parameter, a line each; its first result; the
 * rows of its table, each value its lines take, once, in order. */
typedef struct {
    gp_sweep_param param;
    const gp_result *first;
    const gp_sweep_line *lines;
    size_t n_lines;
    const double *values;
    size_t n_values;
} gp_sweep_chart;

/* Every chart of a report, in order of its first sweep. */
typedef struct {
    gp_sweep_chart *charts;
    size_t n;
    gp_sweep_line *lines;        /* what the charts point into */
    double *numbers;
} gp_sweep_charts;

int gp_sweep_charts_find(const gp_report *r, gp_sweep_charts *out);
void gp_sweep_charts_free(gp_sweep_charts *c);

/* A chart's table (the page's, under the chart): a row per value of the parameter (a row is
 * a double of the chart's values; the context, the chart), its column headed by the
 * parameter's name, then a column per line, its GB/s at that value ("smem, GB/s"; unknown
 * where the line has none). The line's columns are made for each chart from gp_sweep_part's
 * (its value column and a line's) by gp_sweep_table_of, GP_SWEEP_TABLE_LINES lines' at most
 * from line `first` on: a chart of more lines has a table per so many. */
extern const gp_part gp_sweep_part;
#define GP_SWEEP_TABLE_LINES (GP_PART_MAX_COLUMNS - 1)
typedef struct {
    gp_part part;
    gp_part_column columns[GP_SWEEP_TABLE_LINES + 1];
    char headings[GP_SWEEP_TABLE_LINES][GP_SWEEP_NAME_LEN + 8];
} gp_sweep_table;
void gp_sweep_table_of(gp_sweep_table *t, const gp_sweep_chart *c, size_t first);

/* ---- a launch's or result's metrics: one row per metric (src/report/metric_stats_part.c) -- */

/* Its rows are a metric set's values (gp_metric_value), its context the set. Text's
 * --metrics-detail (per launch): the metric, its value (in its unit's precision, "n/a"
 * where it has none), its unit and what it means. JSON's "metrics" of a result or launch:
 * an object keyed by the metric, each its value (null: none), unit, the view's inputs (at
 * place GP_METRIC_VALUE_JSON_INPUTS_AT of its order), reason (only where the value is null)
 * and note (only where there is one). Read back by hand (report/load.c). */
extern const gp_part gp_metric_value_part;
enum { GP_METRIC_VALUE_JSON_INPUTS_AT = 3 };

/* ---- exec's metric table: a row per kernel (src/report/kernel_metrics_part.c) ----------- */

/* Text's table of the kernels' metrics. Its rows are pointers to the kernels it shows
 * (const gp_exec_kernel *); its columns are made for the report by
 * gp_kernel_metrics_table_of: a metric each, the kernel's average over its profiled launches
 * ("*" after one with a note, or derived from its inputs' means: gp_kernel_metric_marked),
 * then the kernel's #N and label. */
#define GP_KERNEL_METRICS_COLUMNS (GP_PART_MAX_COLUMNS - 1)
typedef struct {
    const gp_kernel_labels *labels;
    const char *const *keys;       /* the metric columns' keys, in order */
} gp_kernel_metrics_context;
typedef struct {
    gp_part part;
    gp_part_column columns[GP_KERNEL_METRICS_COLUMNS + 1];
} gp_kernel_metrics_table;
extern const gp_part gp_kernel_metrics_part;
/* The table of n metric columns (at most GP_KERNEL_METRICS_COLUMNS), headed `headers`. */
void gp_kernel_metrics_table_of(gp_kernel_metrics_table *t, const char *const *headers,
                                size_t n);
/* The kernel's statistics of a metric; NULL where it has none. */
const gp_metric_stats *gp_kernel_metric(const gp_exec_kernel *k, const char *key);
/* Whether its cell is marked "*": the average has a note, or was derived from its inputs'
 * means (no launch collected every input). */
bool gp_kernel_metric_marked(const gp_metric_stats *s);

/* ---- exec --by-range: the range tree (src/report/ranges_part.c) ------------------------- */

/* The tree's nodes (gp_exec_ranges, gpuprof/exec_ranges.h) are the rows, in its reading
 * order; what their cells read besides. */
typedef struct {
    const gp_exec_kernel *kernels;   /* the report's summary, numbered as the labels */
    size_t n_kernels;
    const gp_kernel_labels *labels;
    const char *indent;              /* a level's indentation before a range's label: text's
                                        two spaces, two no-break spaces where a table's cells
                                        are trimmed (the page, Markdown) */
    bool whole;                      /* text: the top kernel's label whole (--wide, Markdown) */
    bool metrics;                    /* people's views: some node has a memory metric
                                        (gp_exec_ranges_have_metrics) */
} gp_ranges_context;

/* A row per node: people's indented label (its path on the page's hover), share of the
 * kernels' time, time, launches, distinct kernels, DRAM bytes and the kernel of the most
 * time (its #N and label); CSV and JSON the folded path and depth, the estimates' flags and
 * the top kernel's #N and full name. Derived whenever a report is written, never read back. */
extern const gp_part gp_ranges_part;
/* The width text cuts the top kernel's label to, unless whole. */
#define GP_RANGES_TOP_WIDTH 32

/* ---- exec --stalls: why warps wait (src/report/stalls_part.c) --------------------------- */

/* What the stall parts' cells read besides a row (gpuprof/exec_stalls.h). */
typedef struct {
    const gp_stall_summary *summary;
    const gp_kernel_labels *labels;  /* the kernels' labels in the view's style; NULL: their
                                        full names, unnumbered */
    const gp_stall_kernel *kernel;   /* gp_stall_line_part's: the kernel of its rows */
    bool wide;                       /* people's: the second and third reasons, whole paths */
} gp_stall_context;

/* A row per kernel code (gp_stall_kernel), for people (text, the page): its share of every
 * user sample, its samples, each group's share of them, its top reason (--wide: three) and
 * its label ("#1 copy(...)"); shares "-" for a kernel of too few samples. */
extern const gp_part gp_stall_kernel_part;
/* A row per line of a kernel (gp_stall_line: a line, an instruction under it, or the other
 * lines summed), its context's kernel: for people its share of the kernel's samples, samples,
 * groups' shares, top reasons and the line ("copy.cu:12"); CSV's row per kernel and line:
 * kernel_id, kernel (the mangled name), code, file, line, samples, share and the groups'
 * shares (the reasons' samples, a column each, are the view's, after them). */
extern const gp_part gp_stall_line_part;
/* What a --stalls run sampled (the report's gp_exec_stalls as one row): JSON's stalls object
 * before its reasons and instructions, read back through the part. */
extern const gp_part gp_stall_run_part;
/* A sampled instruction (gp_exec_stall_pc; the context, the gp_report, whose merged inputs
 * its "source" numbers): JSON's exec.stalls.pcs, its sparse "samples" object at place
 * GP_STALL_PC_JSON_SAMPLES_AT of its order. Read back by hand (src/report/load_stalls.c: its
 * source, code, file and line may be absent). */
extern const gp_part gp_stall_pc_part;
enum { GP_STALL_PC_JSON_SAMPLES_AT = 7 };

/* ---- the rank view per NVTX range (src/report/rank_ranges_part.c) ------------------------ */

/* A range path over the ranks (gp_rank_range, the view's ranges in their reading order): for
 * people its label indented by its depth (its path on the page's hover), on how many ranks it
 * occurred ("2/3"), its time's least, median and most over them, the most over the least, its
 * slowest and fastest rank and its most calls on one rank; CSV its path and depth too, and
 * JSON's `ranks.ranges` its path, depth, calls_max, time_ms (gp_rank_spread_part, before
 * slowest_rank) and by_rank (gp_rank_range_cell_part). Read back: the path; what the writer
 * derived, checked. */
extern const gp_part gp_rank_range_part;
/* A range path on each rank it occurred on (gp_rank_range_cell): JSON's by_rank, read back
 * with the rank's number in cell.rank (not its index). */
extern const gp_part gp_rank_range_cell_part;

#endif
