/* A kernel command's results as a part (gpuprof/report_parts.h): a row per result (its
 * configuration) of reduce, transpose, reduce2d and saxpy, and in text a row per kernel of
 * a result that launched several. Declared in CSV's order; text, the page and JSON (whose
 * objects of a result begin at the places report_parts.h names) have theirs. The metric and
 * parameter columns, which depend on what was measured, stay the views'; report/load.c reads
 * JSON's back, each value checked its own way. */
#include "gpuprof/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const gp_result_row *row_of(const void *row)
{
    return row;
}

static const gp_results_context *context_of(const void *ctx)
{
    return ctx;
}

/* A launch's row has its kernel's shape and time; the result's measured columns stay empty. */
static const gp_cell empty = {.text = ""};

/* A value of the result, on its own row (a launch's: empty): `cell`, of the row r, whose
 * result is r->result. The shared getter (gpuprof/part.h) with the rule of this part's
 * rows alone, that a launch's row leaves the result's values out. */
#define RESULT_GETTER(name, cell)                                                              \
    GP_PART_GETTER(name, gp_result_row, void, r->launch ? empty : (cell))

RESULT_GETTER(get_n, GP_CELL_NUMBER(r->result->n))
RESULT_GETTER(get_nx, GP_CELL_NUMBER(r->result->nx))
RESULT_GETTER(get_ny, GP_CELL_NUMBER(r->result->ny))
RESULT_GETTER(get_shared, GP_CELL_NUMBER(r->result->shared_bytes))
RESULT_GETTER(get_min, GP_CELL_NUMBER(r->result->timing.min_ms))
RESULT_GETTER(get_max, GP_CELL_NUMBER(r->result->timing.max_ms))
RESULT_GETTER(get_repeats, GP_CELL_NUMBER(r->result->timing.repeats))
RESULT_GETTER(get_bytes, GP_CELL_NUMBER(r->result->bytes_moved))
RESULT_GETTER(get_gbps, GP_CELL_NUMBER(r->result->gbps))
RESULT_GETTER(get_peak, GP_CELL_NUMBER(r->result->percent_of_peak))
RESULT_GETTER(get_family, GP_CELL_TEXT(r->result->family))
RESULT_GETTER(get_type, GP_CELL_TEXT(r->result->type))
RESULT_GETTER(get_check, GP_CELL_TEXT(gp_check_status_name(r->result->check.status)))
RESULT_GETTER(get_kernels, GP_CELL_NUMBER(r->result->n_launches))
RESULT_GETTER(get_warmup, GP_CELL_NUMBER(r->result->timing.warmup))
RESULT_GETTER(get_exact, GP_CELL_NUMBER(r->result->check.exact ? 1.0 : 0.0))
RESULT_GETTER(get_expected, GP_CELL_NUMBER(r->result->check.expected))
RESULT_GETTER(get_got, GP_CELL_NUMBER(r->result->check.got))
RESULT_GETTER(get_tolerance, GP_CELL_NUMBER(r->result->check.tolerance))
RESULT_GETTER(get_mismatches, GP_CELL_NUMBER(r->result->check.mismatches))
RESULT_GETTER(get_detail, GP_CELL_TEXT(r->result->check.detail))
RESULT_GETTER(get_passes, GP_CELL_NUMBER(r->result->passes))
RESULT_GETTER(get_sm_clock,
              GP_CELL_NUMBER(r->result->sm_clock_ghz >= 0 ? r->result->sm_clock_ghz : NAN))
RESULT_GETTER(get_dram_clock,
              GP_CELL_NUMBER(r->result->dram_clock_ghz >= 0 ? r->result->dram_clock_ghz : NAN))

/* A key JSON leaves out (GP_CELL_ABSENT): a matrix's sides for a vector, the noise of an
 * older gpuprof's report (unknown). */
RESULT_GETTER(get_noise, isnan(r->result->timing.noise_pct)
                             ? GP_CELL_ABSENT
                             : GP_CELL_NUMBER(r->result->timing.noise_pct))
RESULT_GETTER(get_json_nx, r->result->nx ? GP_CELL_NUMBER(r->result->nx) : GP_CELL_ABSENT)
RESULT_GETTER(get_json_ny, r->result->nx ? GP_CELL_NUMBER(r->result->ny) : GP_CELL_ABSENT)
/* The check after profiling: null where it was not checked again. */
RESULT_GETTER(get_after_profile,
              r->result->check.rechecked
                  ? GP_CELL_TEXT(gp_check_status_name(r->result->check.after_profile))
                  : GP_CELL_NUMBER(NAN))

/* The median time: a launch's own (unknown: NAN) on its row. */
GP_PART_NUMBER_GETTER(get_median, gp_result_row, void,
                      !r->launch                  ? r->result->timing.median_ms
                      : r->launch->median_ms >= 0 ? r->launch->median_ms
                                                  : NAN)

/* The share of the peak of the GPU the result ran on, as the page has it: unknown where the
 * report (or the result's file of a merged one) recorded no GPU. */
static gp_cell get_peak_of_device(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_report *r = context_of(ctx)->r;
    const gp_result *res = row_of(row)->result;
    const bool device = r->n_sources && res->input < r->n_sources
                            ? r->sources[res->input].has_device
                            : r->has_device;
    const gp_cell cell = get_peak(row, ctx, buf, len);
    return device || cell.text ? cell : GP_CELL_NUMBER(NAN);
}

/* The page's check: its status, and that it failed again after profiling where it did; its
 * detail on hover. */
static gp_cell get_page_check(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_check *c = &row_of(row)->result->check;
    snprintf(buf, len, "%s%s", gp_check_status_name(c->status),
             c->rechecked && c->after_profile == GP_CHECK_FAILED ? " (failed after profiling)"
                                                                 : "");
    return (gp_cell){.text = buf, .title = c->detail};
}

/* The page's file of a merged report's result: "[2]", where the results' files differ. */
GP_PART_GETTER(get_page_source, gp_result_row, void,
               (snprintf(buf, len, "[%zu]", r->result->input + 1), GP_CELL_TEXT(buf)))

static bool when_sources_differ(const void *ctx)
{
    return gp_report_sources_differ(context_of(ctx)->r);
}

/* The page's class of a failed result's row. */
static const char *page_row_class(const void *row, const void *ctx)
{
    (void)ctx;
    return row_of(row)->result->check.status == GP_CHECK_FAILED ? "failed" : NULL;
}

/* A merged report's result: its file, and the GPU it ran on; empty otherwise. */
static const gp_report_source *source_of(const gp_result *res, const void *ctx)
{
    const gp_report *r = context_of(ctx)->r;
    return r->n_sources ? &r->sources[res->input] : NULL;
}

static gp_cell get_device(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_report *r = context_of(ctx)->r;
    const gp_report_source *src = source_of(row_of(row)->result, ctx);
    const bool has_device = src ? src->has_device : r->has_device;
    return GP_CELL_TEXT(has_device ? (src ? src->device.name : r->device.name) : "");
}

static gp_cell get_source(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_report_source *src = source_of(row_of(row)->result, ctx);
    return GP_CELL_TEXT(src ? src->file : "");
}

/* ---- shapes --------------------------------------------------------------------------- */

/* The row's grid or block: the launch's on a launch's row. */
static gp_dim3 shape_of(const gp_result_row *r, bool grid)
{
    if (r->launch)
        return grid ? r->launch->grid : r->launch->block;
    return grid ? r->result->grid : r->result->block;
}

/* As people read it: "256", "32x8" (a matrix's, or any of two dimensions); "-" for a library
 * call's shape (CUB's own, not captured). */
static gp_cell shown_shape(const void *row, bool grid, char *buf, size_t len)
{
    const gp_result_row *r = row_of(row);
    gp_dim_text(buf, len, shape_of(r, grid), r->result->nx != 0);
    return GP_CELL_TEXT(buf);
}

/* As CSV has it: "256x1x1"; empty for a library call's shape, as CSV leaves what is not
 * measured. */
static gp_cell csv_shape(const void *row, bool grid, char *buf, size_t len)
{
    gp_dim_csv(buf, len, shape_of(row_of(row), grid));
    return GP_CELL_TEXT(buf);
}

GP_PART_GETTER(get_grid, void, void, shown_shape(r, true, buf, len))
GP_PART_GETTER(get_block, void, void, shown_shape(r, false, buf, len))
GP_PART_GETTER(get_csv_grid, void, void, csv_shape(r, true, buf, len))
GP_PART_GETTER(get_csv_block, void, void, csv_shape(r, false, buf, len))

/* ---- labels --------------------------------------------------------------------------- */

/* " pad=1 grid=4": the parameters that vary within the problem, where they apply. */
static void varying_params(const gp_problem_span *pr, const gp_result *res, char *buf,
                           size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; pr && i < res->n_params; i++) {
        const gp_param *p = &res->params[i];
        if (isnan(p->value) || !gp_problem_param_varies(pr, p->name))
            continue;
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, " %s=%.10g", p->name, p->value);
    }
}

/* A launch's number and, for a workload of passes, the shape it reduced: text's "  #2
 * 64x64->8x8" under its result's label, the page's "#2 64x64→8x8". */
static gp_cell launch_name(const gp_result_row *r, bool page, char *buf, size_t len)
{
    const gp_launch_record *l = r->launch;
    char shape[48] = "";
    if (l->in_nx)
        snprintf(shape, sizeof shape, " %ux%u%s%ux%u", l->in_nx, l->in_ny,
                 page ? "\xe2\x86\x92" : "->", l->out_nx, l->out_ny);
    snprintf(buf, len, "%s#%zu%s", page ? "" : "  ", (size_t)(l - r->result->launches) + 1,
             shape);
    return GP_CELL_TEXT(buf);
}

/* The variant, on the page with what it does on hover (its row's summary); a launch's
 * name on the page's row of the launch. */
GP_PART_GETTER(get_variant, gp_result_row, void,
               r->launch ? launch_name(r, true, buf, len)
                         : ((gp_cell){.text = r->result->variant, .title = r->summary}))

/* Text's first cell: the variant, the parameters that vary, the file of a merged report's
 * result (known before the result is measured); a launch's name. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_result_row *r = row_of(row);
    const gp_results_context *c = context_of(ctx);
    if (r->launch)
        return launch_name(r, false, buf, len);
    char params[96], source[24] = "";
    varying_params(c->problem, r->result, params, sizeof params);
    if (c->r->n_sources > 1)    /* every row of a merged report says its file */
        snprintf(source, sizeof source, " [%zu]", r->result->input + 1);
    snprintf(buf, len, "%.60s%s%s", r->result->variant, params, source);
    return GP_CELL_TEXT(buf);
}

/* The page's "pad=1 group=16": every parameter that applies; a launch's kernel on its row. */
static gp_cell get_params(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_result *res = row_of(row)->result;
    if (row_of(row)->launch)
        return GP_CELL_TEXT(row_of(row)->launch->kernel);
    char text[GP_RESULT_MAX_PARAMS * 48] = "";
    for (size_t p = 0; p < res->n_params; p++) {
        const size_t used = strlen(text);
        if (!isnan(res->params[p].value) && used + 1 < sizeof text)
            snprintf(text + used, sizeof text - used, "%s%s=%.10g", used ? " " : "",
                     res->params[p].name, res->params[p].value);
    }
    snprintf(buf, len, "%s", text);
    return GP_CELL_TEXT(buf);
}

enum {
    FAMILY, VARIANT, TYPE, N, NX, NY, CSV_GRID, CSV_BLOCK, SHARED, MEDIAN, MIN, MAX, NOISE,
    REPEATS, BYTES, GBPS, PEAK, CHECK, DEVICE, SOURCE, LABEL, PARAMS, GRID, BLOCK, PAGE_PEAK,
    JSON_NX, JSON_NY, KERNELS, WARMUP, STATUS, EXACT, EXPECTED, GOT, TOLERANCE, MISMATCHES,
    DETAIL, AFTER_PROFILE, PASSES, SM_CLOCK, DRAM_CLOCK, PAGE_CHECK, PAGE_SOURCE
};

#define CSV GP_IN_CSV
#define JSON GP_IN_JSON
#define PEOPLE (GP_IN_TEXT | GP_IN_HTML)

/* In CSV's order; text, the page and JSON have theirs (below). */
static const gp_part_column columns[] = {
    [FAMILY] = {.key = "family", .in = CSV | JSON, .get = get_family},
    [VARIANT] = {.key = "variant", .in = CSV | GP_IN_HTML | JSON, .get = get_variant},
    [TYPE] = {.key = "type", .in = CSV | JSON, .get = get_type},
    [N] = {.key = "n", .format = GP_NUMBER_COUNT, .in = CSV | JSON, .get = get_n,
           .legend = "elements (a matrix's: nx x ny)"},
    [NX] = {.key = "nx", .format = GP_NUMBER_COUNT, .in = CSV, .get = get_nx},
    [NY] = {.key = "ny", .format = GP_NUMBER_COUNT, .in = CSV, .get = get_ny},
    [CSV_GRID] = {.key = "grid", .in = CSV, .get = get_csv_grid},
    [CSV_BLOCK] = {.key = "block", .in = CSV, .get = get_csv_block},
    [SHARED] = {.key = "shared_bytes", .format = GP_NUMBER_COUNT, .in = CSV | JSON,
                .get = get_shared},
    [MEDIAN] = {.key = "median_ms", .header = "time", .html = "time_ms", .unit = "ms",
                .format = GP_NUMBER_MS, .gap = 1, .in = GP_IN_ALL, .get = get_median,
                .legend = "the median of the timed runs"},
    [MIN] = {.key = "min_ms", .unit = "ms", .format = GP_NUMBER_MS, .in = CSV | JSON,
             .get = get_min},
    [MAX] = {.key = "max_ms", .unit = "ms", .format = GP_NUMBER_MS, .in = CSV | JSON,
             .get = get_max},
    [NOISE] = {.key = "noise_pct", .header = "noise%", .html = "noise %",
               .format = GP_NUMBER_FIXED1, .gap = 1, .in = GP_IN_ALL, .get = get_noise,
               .legend = "the runs' spread, 1.4826 x median absolute deviation / median"},
    [REPEATS] = {.key = "repeats", .format = GP_NUMBER_COUNT, .in = CSV | JSON,
                 .get = get_repeats},
    [BYTES] = {.key = "bytes_moved", .unit = "bytes", .format = GP_NUMBER_COUNT,
               .in = CSV | JSON, .get = get_bytes,
               .legend = "the least the algorithm must read and write"},
    [GBPS] = {.key = "bandwidth_gbps", .header = "GB/s", .html = "GB/s", .unit = "GB/s",
              .format = GP_NUMBER_FIXED1, .gap = 1, .in = GP_IN_ALL, .get = get_gbps,
              .legend = "minimum bytes moved / median time"},
    [PEAK] = {.key = "percent_of_peak", .header = "%peak", .format = GP_NUMBER_FIXED1,
              .gap = 1, .in = GP_IN_TEXT | CSV | JSON, .get = get_peak,
              .legend = "GB/s against the GPU's peak DRAM bandwidth"},
    [CHECK] = {.key = "check", .header = "check", .align = GP_ALIGN_LEFT, .gap = 1,
               .in = GP_IN_TEXT | CSV, .get = get_check,
               .legend = "the result against the CPU's: passed, FAILED or skipped"},
    [DEVICE] = {.key = "device", .in = CSV, .get = get_device},
    [SOURCE] = {.key = "source", .in = CSV, .get = get_source,
                .legend = "a merged report's result: the file it is from"},
    [LABEL] = {.key = "label", .header = "variant", .align = GP_ALIGN_LEFT,
               .in = GP_IN_TEXT, .get = get_label},
    [PARAMS] = {.key = "params", .in = GP_IN_HTML, .get = get_params},
    [GRID] = {.key = "grid", .header = "grid", .gap = 1, .in = PEOPLE, .get = get_grid,
              .html_class = "num", .html_word_heading = true},
    [BLOCK] = {.key = "block", .header = "block", .gap = 1, .in = PEOPLE, .get = get_block,
               .html_class = "num", .html_word_heading = true},
    [PAGE_PEAK] = {.key = "percent_of_peak", .html = "% peak", .format = GP_NUMBER_FIXED1,
                   .in = GP_IN_HTML, .get = get_peak_of_device},
    [JSON_NX] = {.key = "nx", .format = GP_NUMBER_COUNT, .in = JSON, .get = get_json_nx,
                 .legend = "a matrix's columns (absent for a vector)"},
    [JSON_NY] = {.key = "ny", .format = GP_NUMBER_COUNT, .in = JSON, .get = get_json_ny},
    [KERNELS] = {.key = "kernels", .format = GP_NUMBER_COUNT, .in = JSON, .get = get_kernels,
                 .legend = "the kernels the workload launches"},
    [WARMUP] = {.key = "warmup", .format = GP_NUMBER_COUNT, .in = JSON, .get = get_warmup},
    [STATUS] = {.key = "status", .in = JSON, .get = get_check},
    [EXACT] = {.key = "exact", .format = GP_NUMBER_FLAG, .in = JSON, .get = get_exact},
    [EXPECTED] = {.key = "expected", .format = GP_NUMBER_FIXED2, .in = JSON,
                  .get = get_expected},
    [GOT] = {.key = "got", .format = GP_NUMBER_FIXED2, .in = JSON, .get = get_got},
    [TOLERANCE] = {.key = "tolerance", .format = GP_NUMBER_FIXED2, .in = JSON,
                   .get = get_tolerance},
    [MISMATCHES] = {.key = "mismatches", .format = GP_NUMBER_COUNT, .in = JSON,
                    .get = get_mismatches},
    [DETAIL] = {.key = "detail", .in = JSON, .get = get_detail},
    [AFTER_PROFILE] = {.key = "after_profile", .in = JSON, .get = get_after_profile,
                       .legend = "the check again after profiling; null where not done"},
    [PASSES] = {.key = "passes", .format = GP_NUMBER_COUNT, .in = JSON, .get = get_passes},
    [SM_CLOCK] = {.key = "sm_clock_ghz", .unit = "GHz", .format = GP_NUMBER_FIXED2,
                  .in = JSON, .get = get_sm_clock},
    [DRAM_CLOCK] = {.key = "dram_clock_ghz", .unit = "GHz", .format = GP_NUMBER_FIXED2,
                    .in = JSON, .get = get_dram_clock},
    [PAGE_CHECK] = {.key = "check", .in = GP_IN_HTML, .get = get_page_check},
    [PAGE_SOURCE] = {.key = "source", .html = "file", .in = GP_IN_HTML, .get = get_page_source,
                     .when = when_sources_differ},
};

const gp_part gp_results_part = {
    .key = "results", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .n_key = 1, .row_size = sizeof(gp_result_row), .json_keyed_by = -1,
    .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(LABEL, GRID, BLOCK, MEDIAN, NOISE, GBPS, PEAK,
                                             CHECK),
              [GP_VIEW_HTML] = GP_PART_ORDER(VARIANT, PARAMS, GRID, BLOCK, MEDIAN, NOISE,
                                             GBPS, PAGE_PEAK, PAGE_CHECK, PAGE_SOURCE),
              [GP_VIEW_JSON] = GP_PART_ORDER(FAMILY, VARIANT, TYPE,            /* the result */
                                             N, JSON_NX, JSON_NY,              /* size */
                                             SHARED, KERNELS,                  /* launch */
                                             MIN, MEDIAN, MAX, NOISE, REPEATS, /* timing */
                                             WARMUP,
                                             BYTES, GBPS, PEAK,                /* the result */
                                             STATUS, EXACT, EXPECTED, GOT,     /* check */
                                             TOLERANCE, MISMATCHES, DETAIL, AFTER_PROFILE,
                                             PASSES, SM_CLOCK, DRAM_CLOCK)},   /* profile */
    .html_row_class = page_row_class,
};
