/* libFuzzer harness: a report read from arbitrary bytes (gp_report_parse_json), and when it
 * reads, rendered as text (with and without --metrics-detail, and per launch), CSV (with
 * and without the header), JSON and HTML to /dev/null, then compared with itself and the
 * comparison rendered as text, CSV, JSON and HTML; a report with a rank (or a rank view) is
 * also folded into a rank view of its own, rendered in every format with and without
 * --by-rank. The reports are freed on every return; nothing is printed. */
#include "gpuprof/compare.h"
#include "gpuprof/ranks.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

/* compare A A: every row matched, so the page's chart, table and caption all run. */
static void compare_with_itself(const gp_report *r)
{
    gp_comparison c;
    if (gp_compare_reports(r, "a", r, "b", GP_COMPARE_DEFAULT_THRESHOLD, &c) == GP_OK)
        for (gp_output f = GP_OUT_TEXT; f <= GP_OUT_HTML; f++)
            gp_render_compare(sink, &c, (gp_render_options){.format = f});
    gp_comparison_free(&c);
}

/* The report made a rank view (gpuprof report FILE --by-rank), rendered every way. */
static void as_rank_view(gp_report *r)
{
    gp_report view;
    gp_rank_merge *m;
    gp_report_init(&view);
    if (gp_report_has_rank(r) && gp_rank_merge_open(&view, &m) == GP_OK) {
        const int rc = gp_rank_merge_add(m, r, "fuzz");
        if (gp_rank_merge_close(m, rc == GP_OK) == GP_OK && rc == GP_OK)
            for (gp_output f = GP_OUT_TEXT; f <= GP_OUT_HTML; f++)
                for (int by_rank = 0; by_rank < 2; by_rank++)
                    gp_render_report(sink, &view, (gp_render_options){.format = f,
                                                                     .by_rank = by_rank});
    }
    gp_report_free(&view);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sink = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_report r;
    if (gp_report_parse_json((const char *)data, size, "fuzz", &r) == GP_OK && sink) {
        gp_render_options o = {.format = GP_OUT_TEXT};
        gp_render_report(sink, &r, o);
        o.format = GP_OUT_CSV;
        gp_render_report(sink, &r, o);
        o.metrics_detail = true;
        o.no_header = true;
        o.format = GP_OUT_TEXT;
        gp_render_report(sink, &r, o);
        o.launches = true; /* exec reports: one row per launch */
        for (gp_output f = GP_OUT_TEXT; f <= GP_OUT_HTML; f++) {
            o.format = f;
            gp_render_report(sink, &r, o);
        }
        o = (gp_render_options){.format = GP_OUT_TEXT, .source_rows = true, .sass = true};
        gp_render_report(sink, &r, o); /* --source: the per-line views */
        o.format = GP_OUT_CSV;
        gp_render_report(sink, &r, o);
        o = (gp_render_options){.format = GP_OUT_TEXT, .by_rank = true};
        for (gp_output f = GP_OUT_TEXT; f <= GP_OUT_HTML; f++) {
            o.format = f;
            gp_render_report(sink, &r, o);  /* a rank view: a row per kernel and rank */
        }
        compare_with_itself(&r);
        as_rank_view(&r);  /* last: it takes the report's command line */
    }
    gp_report_free(&r);
    gp_clear_error();
    return 0;
}
