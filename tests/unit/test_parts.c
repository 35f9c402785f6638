/* A report part as a table (gpuprof/part.h): one column declared here, beside the unified-
 * memory part's own, shows in text, Markdown, CSV, HTML and JSON through the one renderer of
 * each format, and comes back from JSON through the one loader, with nothing else touched;
 * and the part's loader keeps what the JSON reader promised (ranges, newer keys passed over). */
#include "tap.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/part.h"
#include "report/part_load.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The unified part's row with one more value: its getters read the gp_um_row at its start. */
typedef struct {
    gp_um_row um;
    uint64_t per_event_ns;
} extended_row;

static gp_cell get_per_event(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER((double)((const extended_row *)row)->per_event_ns);
}

static const char *set_per_event(void *row, const gp_cell *v, char *why, size_t len)
{
    return gp_part_whole(v, 0, 1000000, &((extended_row *)row)->per_event_ns, why, len);
}

static const gp_part_column new_column = {
    .key = "per_event_ns", .header = "ns/event", .format = GP_NUMBER_WHOLE, .gap = 1,
    .in = GP_IN_ALL, .get = get_per_event, .set = set_per_event,
    .legend = "time per record, ns"};

typedef struct {
    const gp_part *part;
    const extended_row *rows;
    size_t n;
    size_t width;       /* text: the page; GP_TEXT_MARKDOWN: Markdown's */
} written;

static int write_text(FILE *f, const void *arg)
{
    const written *w = arg;
    return gp_part_text(f, w->part, w->rows, w->n, NULL, w->width);
}

static int write_csv(FILE *f, const void *arg)
{
    const written *w = arg;
    gp_part_csv_header(f, w->part, NULL);
    for (size_t i = 0; i < w->n; i++)
        gp_part_csv_row(f, w->part, &w->rows[i], NULL);
    return GP_OK;
}

static int write_html(FILE *f, const void *arg)
{
    const written *w = arg;
    gp_part_html(f, w->part, w->rows, w->n, NULL, "unified");
    return GP_OK;
}

static void test_new_column(void)
{
    gp_part_column columns[32];
    const size_t n_own = gp_unified_part.n_columns;
    memcpy(columns, gp_unified_part.columns, n_own * sizeof *columns);
    columns[n_own] = new_column;
    gp_part part = gp_unified_part;
    part.columns = columns;
    part.n_columns = n_own + 1;
    part.row_size = sizeof(extended_row);
    /* the views with an order of their own show the new column last */
    unsigned char orders[GP_PART_VIEWS][GP_PART_MAX_COLUMNS];
    for (int v = 0; v < GP_PART_VIEWS; v++) {
        const size_t n = part.order[v].n;
        if (!n)
            continue;
        memcpy(orders[v], part.order[v].columns, n);
        orders[v][n] = (unsigned char)n_own;
        part.order[v] = (gp_part_order){orders[v], n + 1};
    }
    const extended_row rows[] = {
        {{GP_UM_BYTES_HTOD, {.events = 4, .total = 4096, .min = 512, .max = 2048,
                             .time_ns = 8000}}, 2000},
        {{GP_UM_GPU_PAGE_FAULTS, {.events = 2, .total = 6, .min = 2, .max = 4}}, 17},
    };
    written w = {&part, rows, 2, GP_TEXT_WIDTH};
    char *text = tap_capture(write_text, &w);
    w.width = GP_TEXT_MARKDOWN;
    char *md = tap_capture(write_text, &w);
    char *csv = tap_capture(write_csv, &w);
    char *html = tap_capture(write_html, &w);
    tap_ok(text && strstr(text, "ns/event") && strstr(text, " 2000") && strstr(text, " 17"),
           "a declared column shows in text, its values in its rows: %s", text ? text : "");
    tap_ok(md && strstr(md, "| ns/event |") && strstr(md, "| 2000 |"),
           "and in Markdown: %s", md ? md : "");
    tap_ok(csv && strstr(csv, "per_event_ns\n") && strstr(csv, "2000\n"),
           "and in CSV: %s", csv ? csv : "");
    tap_ok(html && strstr(html, "<th class=\"num\">per_event_ns</th>") &&
               strstr(html, "<td class=\"num\">17</td>"),
           "and in HTML");

    cJSON *exec = cJSON_CreateObject();
    gp_part_json(exec, &part, rows, 2, NULL);
    const cJSON *htod = cJSON_GetObjectItem(cJSON_GetObjectItem(exec, "unified_memory"),
                                            "bytes_htod");
    tap_ok(htod && cJSON_GetObjectItem(htod, "per_event_ns") &&
               cJSON_GetObjectItem(htod, "per_event_ns")->valuedouble == 2000,
           "and in JSON, under its key");
    gp_json_reader rd = {.file = "parts"};
    void *back = NULL;
    size_t n_back = 0;
    const int rc = gp_part_load(&rd, exec, &part, &back, &n_back);
    const extended_row *b = back;
    tap_ok(rc == GP_OK && n_back == 2 && b[0].per_event_ns == 2000 && b[1].per_event_ns == 17 &&
               b[0].um.counter == GP_UM_BYTES_HTOD && b[0].um.stats.max == 2048 &&
               b[1].um.stats.events == 2,
           "JSON read back through the declaration: the new column and the part's own (%d, %zu)",
           rc, n_back);
    free(back);
    cJSON_Delete(exec);
    free(text);
    free(md);
    free(csv);
    free(html);
}

static int load_unified(const char *json, void **rows, size_t *n)
{
    cJSON *exec = cJSON_Parse(json);
    gp_json_reader rd = {.file = "parts"};
    const int rc = gp_part_load(&rd, exec, &gp_unified_part, rows, n);
    cJSON_Delete(exec);
    return rc;
}

static void test_loader_rules(void)
{
    void *rows = NULL;
    size_t n = 0;
    int rc = load_unified("{\"unified_memory\": {\"swaps\": {\"events\": 1}, \"thrashing\": "
                          "{\"events\": 1, \"total\": 1, \"min\": 1, \"max\": 1, "
                          "\"time_ns\": 0}}}", &rows, &n);
    tap_ok(rc == GP_OK && n == 1, "a counter a newer gpuprof knows is passed over (%d, %zu)",
           rc, n);
    free(rows);
    gp_clear_error();
    rc = load_unified("{\"unified_memory\": {\"thrashing\": {\"events\": 1, \"total\": 1, "
                      "\"min\": 2, \"max\": 1, \"time_ns\": 0}}}", &rows, &n);
    tap_ok(rc != GP_OK && strstr(gp_error(), "unified_memory.thrashing.max: must be from 2"),
           "a maximum under the minimum is refused at its path: %s", gp_error());
    gp_clear_error();
    rc = load_unified("{\"unified_memory\": {\"thrashing\": {\"events\": 1.5}}}", &rows, &n);
    tap_ok(rc != GP_OK && strstr(gp_error(), "events: expected a whole number"),
           "a fraction of a record is refused: %s", gp_error());
    gp_clear_error();
    rc = load_unified("{\"unified_memory\": []}", &rows, &n);
    tap_ok(rc != GP_OK && strstr(gp_error(), "unified_memory: expected an object"),
           "a keyed part that is no object is refused: %s", gp_error());
    gp_clear_error();
}

/* Each view's own order: the columns that view shows (every `when` aside), each once. */
static bool order_complete(const gp_part *t, gp_part_view view)
{
    const gp_part_order *o = &t->order[view];
    if (!o->n)
        return true;
    size_t listed = 0;
    for (size_t c = 0; c < t->n_columns; c++) {
        size_t times = 0;
        for (size_t i = 0; i < o->n; i++)
            times += o->columns[i] == c;
        const bool shown = t->columns[c].in & (1u << view);
        if (times != (shown ? 1u : 0u))
            return false;
        listed += times;
    }
    return listed == o->n;
}

static void test_declarations(void)
{
    for (size_t p = 0; p < gp_n_report_parts; p++) {
        const gp_part *t = gp_report_parts[p];
        bool orders = true, getters = true;
        for (int v = 0; v < GP_PART_VIEWS; v++)
            orders = orders && order_complete(t, (gp_part_view)v);
        for (size_t c = 0; c < t->n_columns; c++)
            getters = getters && (!t->columns[c].get + !t->columns[c].get_at +
                                  !t->columns[c].field_kind) == 2 && t->columns[c].key;
        tap_ok(orders, "part %s: each view's order lists exactly the columns it shows", t->key);
        tap_ok(getters && t->n_columns <= GP_PART_MAX_COLUMNS && t->row_size,
               "part %s: every column has a key and one getter (or a field), at most %d columns", t->key,
               GP_PART_MAX_COLUMNS);
    }
}

/* The launches' views put values of their own among the part's columns at the places the
 * part names: CSV's metrics after graph_node, JSON's grid and block after stream. */
static void test_launch_places(void)
{
    size_t csv[GP_PART_MAX_COLUMNS], json[GP_PART_MAX_COLUMNS];
    const gp_part *t = &gp_launch_part;
    const size_t n_csv = gp_part_columns(t, GP_VIEW_CSV, NULL, csv);
    const size_t n_json = gp_part_columns(t, GP_VIEW_JSON, NULL, json);
    const size_t m = GP_LAUNCH_CSV_METRICS_AT, s = GP_LAUNCH_JSON_SHAPE_AT;
    tap_ok(m < n_csv && strcmp(t->columns[csv[m - 1]].key, "graph_node") == 0 &&
               strcmp(t->columns[csv[m]].key, "how") == 0,
           "launches: CSV's metrics go between graph_node and how");
    tap_ok(s < n_json && strcmp(t->columns[json[s - 1]].key, "stream") == 0 &&
               strcmp(t->columns[json[s]].key, "shared_bytes") == 0,
           "launches: JSON's grid and block go between stream and shared_bytes");
}

/* A result's JSON objects begin at the places the part names. */
static void test_result_places(void)
{
    static const struct {
        size_t at;
        const char *key, *before;
    } places[] = {
        {GP_RESULT_JSON_SIZE, "n", "type"},
        {GP_RESULT_JSON_LAUNCH, "shared_bytes", "ny"},
        {GP_RESULT_JSON_TIMING, "min_ms", "kernels"},
        {GP_RESULT_JSON_MOVED, "bytes_moved", "warmup"},
        {GP_RESULT_JSON_CHECK, "status", "percent_of_peak"},
        {GP_RESULT_JSON_PROFILE, "passes", "after_profile"},
    };
    size_t json[GP_PART_MAX_COLUMNS];
    const gp_part *t = &gp_results_part;
    const size_t n = gp_part_columns(t, GP_VIEW_JSON, NULL, json);
    bool ok = true;
    for (size_t i = 0; i < sizeof places / sizeof *places; i++)
        ok = ok && places[i].at < n &&
             strcmp(t->columns[json[places[i].at]].key, places[i].key) == 0 &&
             strcmp(t->columns[json[places[i].at - 1]].key, places[i].before) == 0;
    tap_ok(ok, "results: JSON's size, launch, timing, bytes, check and profile begin at "
               "their places");
    static const gp_report one_file;
    size_t html[GP_PART_MAX_COLUMNS];
    const size_t n_html = gp_part_columns(t, GP_VIEW_HTML,
                                          &(gp_results_context){.r = &one_file}, html);
    const size_t l = GP_RESULT_HTML_LAUNCH_CELLS;
    tap_ok(l < n_html && strcmp(t->columns[html[l - 1]].key, "median_ms") == 0 &&
               strcmp(t->columns[html[l]].key, "noise_pct") == 0,
           "results: the page's row of a launch has the cells to its time");
}

/* A worded number (a kernel's metric: gp_metric_stats_part) shows its word in text ("n/a",
 * the combined average's "*") and its number in JSON (null where unknown). */
static int write_metric(FILE *f, const void *arg)
{
    return gp_part_text(f, &gp_metric_stats_part, arg, 1, NULL, GP_TEXT_WIDTH);
}

static void test_worded_numbers(void)
{
    gp_metric_stats s = {.launches = 1, .combined = true};
    snprintf(s.average.key, sizeof s.average.key, "gld_throughput");
    snprintf(s.average.unit, sizeof s.average.unit, "GB/s");
    s.average.valid = true;
    s.average.value = 219.0008;
    s.min = s.max = s.average;
    s.min.valid = s.max.valid = false;
    char *text = tap_capture(write_metric, &s);
    tap_ok(text && strstr(text, "gld_throughput") && strstr(text, " n/a n/a 219.0*  GB/s"),
           "a worded number shows its word in text: %s", text ? text : "");
    cJSON *o = cJSON_CreateObject();
    gp_part_json(o, &gp_metric_stats_part, &s, 1, NULL);
    const cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "metrics"), "gld_throughput");
    tap_ok(m && cJSON_IsNull(cJSON_GetObjectItem(m, "min")) &&
               cJSON_GetObjectItem(m, "average")->valuedouble == 219.0008 &&
               cJSON_IsTrue(cJSON_GetObjectItem(m, "combined")) &&
               !cJSON_GetObjectItem(m, "note"),
           "and its number in JSON, null where unknown");
    cJSON_Delete(o);
    free(text);
}

/* The catalogue's JSON puts arrays of its own among the parts' columns at the places the
 * parts name: a variant's blocks between origin and in_place, a metric's inputs between
 * formula and set. */
static void test_catalogue_places(void)
{
    const struct {
        const gp_part *part;
        size_t at;
        const char *key, *before;
    } places[] = {
        {&gp_variant_part, GP_VARIANT_JSON_BLOCKS_AT, "in_place", "origin"},
        {&gp_metric_def_part, GP_METRIC_JSON_INPUTS_AT, "set", "formula"},
    };
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        size_t json[GP_PART_MAX_COLUMNS];
        const gp_part *t = places[i].part;
        const size_t n = gp_part_columns(t, GP_VIEW_JSON, NULL, json);
        tap_ok(places[i].at < n &&
                   strcmp(t->columns[json[places[i].at]].key, places[i].key) == 0 &&
                   strcmp(t->columns[json[places[i].at - 1]].key, places[i].before) == 0,
               "%s: JSON's own arrays go between %s and %s", t->key, places[i].before,
               places[i].key);
    }
}

/* ---- what the page's cells may say besides a value ---------------------------------------- */

typedef struct {
    const char *name, *summary, *way, *note;
    size_t note_number;
    bool failed;
} page_row;

GP_PART_GETTER(get_page_name, page_row, void,
               ((gp_cell){.text = r->name, .tag = "#2 ", .title = r->summary}))
GP_PART_TEXT_GETTER(get_page_count, page_row, void, "3/4")
GP_PART_TEXT_GETTER(get_page_shape, page_row, void, "32x8")
GP_PART_GETTER(get_page_way, page_row, void,
               ((gp_cell){.text = r->way, .title = r->note, .footnote = r->note_number}))

static const char *page_row_class(const void *row, const void *ctx)
{
    (void)ctx;
    return ((const page_row *)row)->failed ? "failed" : NULL;
}

static const gp_part_column page_columns[] = {
    {.key = "name", .in = GP_IN_HTML, .get = get_page_name, .html_class = "kernel"},
    {.key = "ranks", .in = GP_IN_HTML, .get = get_page_count, .html_class = "num"},
    {.key = "grid", .in = GP_IN_HTML, .get = get_page_shape, .html_class = "num",
     .html_word_heading = true},
    {.key = "way", .in = GP_IN_HTML, .get = get_page_way},
};

static int write_page(FILE *f, const void *arg)
{
    static const page_row rows[] = {
        {"reduce", "sums <pairs>", "shadow", "ran alone", 1, true},
        {"scan", NULL, "timed", NULL, 0, false},
    };
    gp_part part = GP_PART_DECLARE("page", page_columns, 1, page_row, -1);
    part.html_row_class = page_row_class;
    gp_part_html(f, &part, rows, 2, arg, "page");
    return GP_OK;
}

static void test_html_cells(void)
{
    char *html = tap_capture(write_page, NULL);
    tap_ok(html && strstr(html, "<tr class=\"failed\"><td class=\"kernel\" title=\"sums "
                                "&lt;pairs&gt;\">#2 reduce</td>") &&
               strstr(html, "<tr><td class=\"kernel\">#2 scan</td>"),
           "HTML: a row's class (none where its getter says NULL), a word's title on hover "
           "(none where NULL), a name's tag before it");
    tap_ok(html && strstr(html, "<th class=\"num\">ranks</th><th>grid</th>") &&
               strstr(html, "<td class=\"num\">3/4</td><td class=\"num\">32x8</td>"),
           "HTML: words of a number's class, under a number's heading or a word's");
    tap_ok(html && strstr(html, "<td title=\"ran alone\">shadow <sup>[1]</sup></td>") &&
               strstr(html, "<td>timed</td>"),
           "HTML: a word's note on hover and its number after it");
    free(html);
}

/* A column that names its field (GP_PART_FIELD) reads it as its type says, as a getter of
 * GP_CELL_NUMBER would. */
typedef struct {
    double d;
    int i;
    unsigned u;
    size_t z;
    unsigned long long ull;
    bool b;
} field_row;

static void test_field_columns(void)
{
    static const gp_part_column cols[] = {
        {.key = "d", .in = GP_IN_JSON, GP_PART_FIELD(field_row, d)},
        {.key = "i", .in = GP_IN_JSON, GP_PART_FIELD(field_row, i)},
        {.key = "u", .in = GP_IN_JSON, GP_PART_FIELD(field_row, u)},
        {.key = "z", .in = GP_IN_JSON, GP_PART_FIELD(field_row, z)},
        {.key = "ull", .in = GP_IN_JSON, GP_PART_FIELD(field_row, ull)},
        {.key = "b", .in = GP_IN_JSON, GP_PART_FIELD(field_row, b)},
    };
    static const gp_part part = GP_PART_DECLARE("fields", cols, 0, field_row, -1);
    const field_row row = {-2.5, -7, 4000000000u, 123456789012u, 1ull << 52, true};
    const double want[] = {-2.5, -7, 4000000000.0, 123456789012.0, 4503599627370496.0, 1};
    bool all = true;
    char buf[GP_PART_CELL_LEN];
    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
        const gp_cell cell = gp_part_cell(&part, c, &row, NULL, buf, sizeof buf);
        all = all && !cell.text && cell.number == want[c];
        if (cell.text || cell.number != want[c])
            tap_diag("%s: %g, want %g", cols[c].key, cell.number, want[c]);
    }
    tap_ok(all, "field columns: double, int, unsigned, size_t, unsigned long long and bool "
                "read as their type says");
}

void test_parts(void)
{
    test_field_columns();
    test_html_cells();
    test_declarations();
    test_launch_places();
    test_result_places();
    test_catalogue_places();
    test_new_column();
    test_loader_rules();
    test_worded_numbers();
}
