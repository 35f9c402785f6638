/* Renderers on reports recorded on a real GPU (the JSON files in tests/fixtures) and on a synthetic
 * report with an undefined metric: text, CSV and the JSON round trip. The table of formats:
 * the options a request asks for, each format's views of kernel and exec reports, and the
 * text view where a format has none of a document. */
#include "tap.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a test renders: a report, or one of the catalogue commands' documents. */
typedef enum { REPORT, LIST, DEVICES, CHIP_METRICS } document;

/* A document to render, with its options. */
typedef struct {
    document doc;
    const gp_report *r;
    gp_render_options o;
} rendering;

static int render_document(FILE *f, const void *arg)
{
    const rendering *x = arg;
    const gp_device_info device = {.index = 0, .name = "Synthetic GPU", .peak_gbps = 1000};
    const gp_chip_metrics no_chip = {0};
    switch (x->doc) {
    case LIST: return gp_render_list(f, x->o);
    case DEVICES: return gp_render_devices(f, &device, 1, x->o);
    case CHIP_METRICS: return gp_render_chip_metrics(f, &no_chip, x->o);
    case REPORT: break;
    }
    return gp_render_report(f, x->r, x->o);
}

/* Render into a heap string (caller frees), in `format` with the other options of `o`. */
static char *render_as(document doc, gp_output format, const gp_report *r, gp_render_options o)
{
    o.format = format;
    const rendering x = {doc, r, o};
    return tap_capture(render_document, &x);
}

static char *render(gp_output format, const gp_report *r, gp_render_options o)
{
    return render_as(REPORT, format, r, o);
}

/* An exec report's kernels: its summary's rows. */
static size_t exec_kernels(const gp_report *r)
{
    gp_exec_kernel *k = NULL;
    size_t n = 0;
    gp_exec_summarize(&r->exec, &k, &n);
    gp_exec_summary_free(k, n);
    return n;
}

/* Fields in one CSV line, honouring quotes. */
static size_t csv_fields(const char *line)
{
    size_t n = 1;
    bool quoted = false;
    for (; *line && *line != '\n'; line++) {
        if (*line == '"')
            quoted = !quoted;
        else if (*line == ',' && !quoted)
            n++;
    }
    return n;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* An exec report's rows besides the kernels': copies and memsets by kind and by kind and
 * host memory, unified-memory counters. */
static size_t exec_activity_rows(const gp_report *r)
{
    gp_activity_tables t;
    gp_um_row um[GP_UM_COUNTERS];
    const size_t n = gp_exec_activity_tables(&r->exec, &t) == GP_OK ? t.n + t.n_host : 0;
    gp_activity_tables_free(&t);
    return n + gp_unified_rows(&r->exec, um);
}

static void check_csv(const gp_report *r, const char *name)
{
    gp_render_options o = {0};
    char *csv = render(GP_OUT_CSV, r, o);
    tap_ok(csv != NULL, "%s: CSV renders", name);
    if (!csv)
        return;
    /* a row per result, or per kernel and kind of activity of exec reports */
    const size_t rows = r->is_exec ? exec_kernels(r) + exec_activity_rows(r) : r->n_results;
    const char *identity = r->is_exec ? "kind,source,kernel," : "family,variant,";
    tap_ok(count_lines(csv) == rows + 1, "%s: CSV has a header and %zu rows", name, rows);
    size_t header = csv_fields(csv);
    bool same = true;
    for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n'))
        same &= csv_fields(line + 1) == header;
    tap_ok(same, "%s: every CSV row has the header's %zu fields", name, header);
    tap_ok(strncmp(csv, identity, strlen(identity)) == 0,
           "%s: CSV header starts with the identity", name);
    free(csv);
    o.no_header = true;
    csv = render(GP_OUT_CSV, r, o);
    tap_ok(csv && count_lines(csv) == rows && strncmp(csv, identity, strlen(identity)) != 0,
           "%s: --no-header drops only the header", name);
    free(csv);
}

static void check_text(const gp_report *r, const char *name)
{
    gp_render_options o = {0};
    char *text = render(GP_OUT_TEXT, r, o);
    tap_ok(text != NULL, "%s: text renders", name);
    if (!text)
        return;
    bool all = strstr(text, r->device.name) != NULL;
    for (size_t i = 0; i < r->n_results; i++)
        all &= strstr(text, r->results[i].variant) != NULL;
    tap_ok(all, "%s: text names the GPU and every variant", name);
    free(text);
    o.metrics_detail = true;
    text = render(GP_OUT_TEXT, r, o);
    bool detail = text && (r->profiler.state != GP_PROF_OK || strstr(text, "Kernel: ") ||
                           strstr(text, "Kernel #"));
    tap_ok(detail, "%s: --metrics-detail lists kernels when metrics exist", name);
    free(text);
}

/* JSON → report → JSON: the second rendering is identical to the first. */
static void check_round_trip(const gp_report *r, const char *name)
{
    const gp_render_options none = {0};
    char *first = render(GP_OUT_JSON, r, none);
    char path[] = "/tmp/gpuprof-unit-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f && first)
        fputs(first, f);
    if (f)
        fclose(f);
    gp_report back;
    int rc = gp_report_read_json(path, &back);
    char *second = rc == GP_OK ? render(GP_OUT_JSON, &back, none) : NULL;
    tap_ok(first && second && strcmp(first, second) == 0, "%s: JSON round trip is stable", name);
    if (rc == GP_OK)
        gp_report_free(&back);
    remove(path);
    free(first);
    free(second);
}

static void fixtures(void)
{
    DIR *d = opendir(tap_fixtures);
    tap_ok(d != NULL, "fixture folder %s exists", tap_fixtures);
    if (!d)
        return;
    size_t seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", tap_fixtures, e->d_name);
        gp_report r;
        int rc = gp_report_read_json(path, &r);
        if (!tap_ok(rc == GP_OK && (r.n_results > 0 || r.exec.n_launches > 0),
                    "%s: reads back (%s)", e->d_name,
                    rc ? gp_error() : "ok"))
            continue;
        seen++;
        check_text(&r, e->d_name);
        check_csv(&r, e->d_name);
        check_round_trip(&r, e->d_name);
        gp_report_free(&r);
    }
    closedir(d);
    tap_ok(seen >= 1, "at least one recorded fixture was rendered (%zu)", seen);
}

/* A report built here: one metric defined, one undefined. */
static void synthetic(void)
{
    gp_report r;
    gp_report_init(&r);
    r.has_device = true;
    snprintf(r.device.name, sizeof r.device.name, "Synthetic GPU");
    r.device.peak_gbps = 1000;
    r.repeat = 3;
    r.profiler.state = GP_PROF_OK;
    snprintf(r.profiler.metric_set, sizeof r.profiler.metric_set, "default");
    snprintf(r.command, sizeof r.command, "reduce");
    char *argv[] = {"gpuprof", "reduce"};
    gp_report_set_command_line(&r, 2, argv);
    gp_result *res;
    gp_report_add_result(&r, &res);
    snprintf(res->family, sizeof res->family, "reduce");
    snprintf(res->variant, sizeof res->variant, "shfl");
    snprintf(res->type, sizeof res->type, "int32");
    res->n = 1000;
    res->timing = (gp_timing){.min_ms = 0.001, .median_ms = 0.002, .max_ms = 0.003,
                              .repeats = 3, .warmup = 1, .noise_pct = NAN};
    res->gbps = 2.0;
    res->metrics.n_metrics = 2;
    res->metrics.metrics = calloc(2, sizeof *res->metrics.metrics);
    gp_metric_value *m = res->metrics.metrics;
    snprintf(m[0].key, sizeof m[0].key, "gld_transactions_per_request");
    snprintf(m[0].unit, sizeof m[0].unit, "sectors/request");
    m[0].valid = true;
    m[0].value = 4.0;
    snprintf(m[1].key, sizeof m[1].key, "gst_transactions_per_request");
    snprintf(m[1].unit, sizeof m[1].unit, "sectors/request");
    snprintf(m[1].why, sizeof m[1].why, "no requests");
    m[1].value = NAN;
    gp_launch_record *l;
    gp_result_add_launch(res, &l);
    snprintf(l->kernel, sizeof l->kernel, "reduceShfl");

    gp_render_options o = {0};
    char *text = render(GP_OUT_TEXT, &r, o);
    tap_ok(text && strstr(text, "4.00") && strstr(text, "n/a"),
           "text: a defined metric has a value, an undefined one n/a");
    char *csv = render(GP_OUT_CSV, &r, o);
    tap_ok(csv && strstr(csv, ",4,") != NULL && csv[strlen(csv) - 2] == ',',
           "CSV: the undefined metric is an empty field");
    char *json = render(GP_OUT_JSON, &r, o);
    tap_ok(json && strstr(json, "\"value\":\tnull") && strstr(json, "\"reason\":\t\"no requests\""),
           "JSON: an undefined metric is null with its reason");
    free(text);
    free(csv);
    free(json);
    gp_report_free(&r);
}

/* ---- the table of formats (render/formats.c) -------------------------------------------- */

static bool same_output(document doc, gp_output a, gp_output b)
{
    const gp_render_options none = {0};
    char *x = render_as(doc, a, NULL, none), *y = render_as(doc, b, NULL, none);
    const bool same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

static bool starts_with(document doc, const gp_report *r, gp_output format, const char *start)
{
    char *s = render_as(doc, format, r, (gp_render_options){0});
    const bool ok = s && strncmp(s, start, strlen(start)) == 0;
    free(s);
    return ok;
}

static bool contains(const gp_report *r, gp_output format, const char *needle)
{
    char *s = render_as(REPORT, format, r, (gp_render_options){0});
    const bool ok = s && strstr(s, needle);
    free(s);
    return ok;
}

static void options_from_request(void)
{
    gp_request req = {.output = GP_OUT_CSV, .no_header = true, .metrics_detail = true,
                      .launches = true};
    gp_render_options o = gp_render_options_for(&req);
    tap_ok(o.format == GP_OUT_CSV && o.no_header && o.metrics_detail && o.launches,
           "options: format, --no-header, --metrics-detail and --launches from the request");
    req = (gp_request){.output = GP_OUT_HTML};
    o = gp_render_options_for(&req);
    tap_ok(o.format == GP_OUT_HTML && !o.no_header && !o.metrics_detail && !o.launches,
           "options: nothing asked for, nothing set");
}

/* The cells the command line never reaches render as text, as before the table. */
static void missing_views(void)
{
    tap_ok(same_output(LIST, GP_OUT_HTML, GP_OUT_TEXT), "list in HTML: the text view");
    tap_ok(same_output(DEVICES, GP_OUT_CSV, GP_OUT_TEXT), "devices in CSV: the text view");
    tap_ok(same_output(DEVICES, GP_OUT_HTML, GP_OUT_TEXT), "devices in HTML: the text view");
    tap_ok(same_output(CHIP_METRICS, GP_OUT_CSV, GP_OUT_TEXT), "metrics in CSV: the text view");
    tap_ok(same_output(CHIP_METRICS, GP_OUT_HTML, GP_OUT_TEXT),
           "metrics in HTML: the text view");
    tap_ok(same_output(LIST, (gp_output)99, GP_OUT_TEXT), "a format out of the table: text");
    tap_ok(starts_with(LIST, NULL, GP_OUT_JSON, "{") &&
               starts_with(DEVICES, NULL, GP_OUT_JSON, "{") &&
               starts_with(CHIP_METRICS, NULL, GP_OUT_JSON, "{"),
           "list, devices and metrics in JSON: their own views");
    tap_ok(starts_with(LIST, NULL, GP_OUT_CSV, "family,variant,"), "list in CSV: its own view");
}

/* A kernel and an exec report, each in every format: the row's view of its kind. */
static void reports(void)
{
    gp_report kernel, exec;
    gp_report_init(&kernel);
    gp_report_init(&exec);
    snprintf(kernel.command, sizeof kernel.command, "reduce");
    snprintf(exec.command, sizeof exec.command, "exec");
    exec.is_exec = true;
    tap_ok(contains(&kernel, GP_OUT_TEXT, "  reduce, no GPU recorded") &&
               contains(&exec, GP_OUT_TEXT, "  exec: exit status"),
           "text: the kernel and the exec views");
    tap_ok(starts_with(REPORT, &kernel, GP_OUT_CSV, "family,variant,") &&
               starts_with(REPORT, &exec, GP_OUT_CSV, "kind,source,kernel,calls,"),
           "CSV: the kernel and the exec views");
    tap_ok(contains(&kernel, GP_OUT_HTML, "<title>gpuprof reduce") &&
               contains(&exec, GP_OUT_HTML, "<title>gpuprof exec"),
           "HTML: the kernel and the exec pages");
    tap_ok(!contains(&kernel, GP_OUT_JSON, "\"exec\":") &&
               contains(&exec, GP_OUT_JSON, "\"exec\":"),
           "JSON: one document, with its exec part for exec reports");
    gp_report_free(&kernel);
    gp_report_free(&exec);
}

void test_render(void)
{
    synthetic();
    fixtures();
    options_from_request();
    missing_views();
    reports();
}
