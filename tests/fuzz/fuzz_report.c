/* libFuzzer harness: a report read from arbitrary bytes (gp_report_parse_json), and when it
 * reads, rendered as text (with and without --metrics-detail, and per launch), CSV (with
 * and without the header), JSON and HTML to /dev/null, then compared with itself and the
 * comparison rendered as text, CSV, JSON and HTML. The report is freed on every return;
 * nothing is printed. */
#include "gpuprof/compare.h"
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
    if (gp_compare_reports(r, "a", r, "b", GP_COMPARE_DEFAULT_THRESHOLD, &c) == GP_OK) {
        const gp_render_options o = {.no_header = false};
        gp_render_compare_text(sink, &c);
        gp_render_compare_csv(sink, &c, &o);
        gp_render_compare_json(sink, &c);
        gp_render_compare_html(sink, &c);
    }
    gp_comparison_free(&c);
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
        gp_render_options o = {.no_header = false, .metrics_detail = false};
        gp_render_text(sink, &r, &o);
        gp_render_csv(sink, &r, &o);
        o.metrics_detail = true;
        o.no_header = true;
        gp_render_text(sink, &r, &o);
        o.launches = true; /* exec reports: one row per launch */
        gp_render_text(sink, &r, &o);
        gp_render_csv(sink, &r, &o);
        gp_render_json(sink, &r);
        gp_render_html(sink, &r);
        compare_with_itself(&r);
    }
    gp_report_free(&r);
    gp_clear_error();
    return 0;
}
