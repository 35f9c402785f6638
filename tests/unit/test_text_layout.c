/* The text format's cells and layout: times in the unit that suits them, counts as whole
 * numbers, tables wrapped into parts that repeat their key column, a last column of prose
 * wrapped or of names cut, and no line longer than the page or ending in a space. */
#include "tap.h"

#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/report_parts.h"
#include "render/cells.h"
#include "render/text_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_time(double ms, const char *want)
{
    char buf[32];
    gp_text_format_time(buf, sizeof buf, ms);
    tap_str_eq(buf, want, "a time in its unit");
}

static void test_times(void)
{
    check_time(0.00085, "850ns");
    check_time(0.0038, "3.80us");
    check_time(0.2206, "220.60us");
    check_time(0.9999999, "1.00ms");
    check_time(12.345, "12.35ms");
    check_time(2500.0, "2.50s");
    check_time(-1.0, "-");
}

static void check_value(const char *key, const char *unit, double v, const char *want)
{
    gp_metric_value m = {.valid = true, .value = v};
    snprintf(m.key, sizeof m.key, "%s", key);
    snprintf(m.unit, sizeof m.unit, "%s", unit);
    char buf[48];
    gp_metric_value_text(buf, sizeof buf, &m);
    tap_str_eq(buf, want, "a metric value as its unit deserves");
}

static void test_values(void)
{
    check_value("dram_read_bytes", "bytes", 43580.25, "43580");
    check_value("shared_load_bank_conflicts", "conflicts", 12.5, "12");
    check_value("dram__bytes_read.sum", "byte", 1234567.25, "1234567");
    check_value("sm__warps_active.avg", "warp", 3.25, "3.25");
    check_value("whatever.ratio", "", 43580.25, "43580.2");
    check_value("gld_efficiency", "%", 99.44, "99.4");
    check_value("gld_transactions_per_request", "sectors/request", 4, "4.00");
}

/* A table at a width, written by tap_capture. */
typedef struct {
    const gp_text_table *t;
    size_t width;
} table_at;

static int print_table(FILE *f, const void *arg)
{
    const table_at *x = arg;
    gp_table_print(f, x->t, x->width);
    return 0;
}

/* The rendered text of a table at a width, its lines checked. */
static char *render(const gp_text_table *t, size_t width)
{
    const table_at x = {t, width};
    return tap_capture(print_table, &x);
}

static bool lines_fit(const char *text, size_t width)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        if (n > width || (n && line[n - 1] == ' '))
            return false;
        line = end ? end + 1 : NULL;
    }
    return true;
}

static void test_wrapped_table(void)
{
    gp_text_table t;
    gp_table_init(&t, 1);
    gp_table_column(&t, "name", GP_COLUMN_LEFT, 0);
    char title[16];
    for (int c = 0; c < 12; c++) {
        snprintf(title, sizeof title, "column_%02d", c);
        gp_table_column(&t, title, GP_COLUMN_RIGHT, 1);
    }
    for (int r = 0; r < 3; r++) {
        gp_table_row(&t);
        gp_table_cellf(&t, "row%d", r);
        for (int c = 0; c < 12; c++)
            gp_table_cellf(&t, "%d", r * 100 + c);
    }
    char *text = render(&t, 40);
    tap_ok(text && lines_fit(text, 40), "a wide table: every line within 40 columns");
    size_t parts = 0;
    for (const char *p = text; p && (p = strstr(p, "name ")); p++)
        parts++;
    tap_ok(parts == 4, "12 columns of 10 in 40: 4 parts, each with the key column (%zu)", parts);
    tap_ok(text && strstr(text, "row2") && strstr(text, "211"), "every cell is printed");
    free(text);
    text = render(&t, SIZE_MAX);
    tap_ok(text && !strstr(text, "\n\n") && strstr(text, "column_11\nrow0"),
           "no limit: one table");
    free(text);
    gp_table_free(&t);
}

/* A table whose last column names each row (tail_every_part, --launches'): wrapped, every
 * part's rows end in their names, each part within the page. */
static void test_names_in_every_part(void)
{
    gp_text_table t;
    gp_table_init(&t, 1);
    t.tail_every_part = true;
    gp_table_column(&t, "id", GP_COLUMN_RIGHT, 0);
    char title[16];
    for (int c = 0; c < 8; c++) {
        snprintf(title, sizeof title, "column_%02d", c);
        gp_table_column(&t, title, GP_COLUMN_RIGHT, 1);
    }
    gp_table_column(&t, "kernel", GP_COLUMN_NAME, 2);
    for (int r = 0; r < 2; r++) {
        gp_table_row(&t);
        gp_table_cellf(&t, "%d", r);
        for (int c = 0; c < 8; c++)
            gp_table_cellf(&t, "%d", r * 100 + c);
        gp_table_cellf(&t, "kernel_number_%d(int *, float)", r);
    }
    char *text = render(&t, 60);
    size_t parts = 0, named = 0;
    for (const char *p = text; p && (p = strstr(p, "id ")); p++)
        parts++;
    for (const char *p = text; p && (p = strstr(p, "kernel_number_1")); p++)
        named++;
    tap_ok(text && lines_fit(text, 60) && parts >= 2 && named == parts,
           "names in every part: %zu parts within 60 columns, each row named in each (%zu)",
           parts, named);
    free(text);
    gp_table_free(&t);
}

static void test_tails(void)
{
    gp_text_table t;
    gp_table_init(&t, 0);
    gp_table_column(&t, "n", GP_COLUMN_RIGHT, 0);
    gp_table_column(&t, "description", GP_COLUMN_PROSE, 2);
    gp_table_row(&t);
    gp_table_cell(&t, "1");
    gp_table_cell(&t, "words that go on and on well beyond the width of the page we have");
    gp_table_line(&t, "Kernel: void ns::kernel<int, 4>(float *, int, unsigned long)");
    char *text = render(&t, 40);
    tap_ok(text && lines_fit(text, 40), "prose wrapped within the page, no trailing space");
    tap_ok(text && strstr(text, "on and on well beyond\n   the width") != NULL,
           "prose continues in its column");
    tap_ok(text && strstr(text, "Kernel: void ns::kernel<int, 4>\xe2\x80\xa6\n") != NULL,
           "a line across the table cut at a readable boundary");
    free(text);
    gp_table_free(&t);
}

/* exec's --launches table (only exec itself asks for it): within the page, or whole. */
static void test_launches(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/exec-rotate.json", tap_fixtures);
    gp_report r;
    gp_report_init(&r);
    if (!tap_ok(gp_report_read_json(path, &r) == 0, "exec-rotate.json read")) {
        gp_report_free(&r);
        return;
    }
    for (int wide = 0; wide < 2; wide++) {
        const gp_render_options o = {.format = GP_OUT_TEXT, .launches = true, .wide = wide};
        char *text = tap_render_report(&r, o);  /* NULL when rendering fails */
        tap_ok(text && strstr(text, "pid") && lines_fit(text, wide ? 4096 : 120),
               "--launches%s: a row per launch, %s", wide ? " --wide" : "",
               wide ? "no trailing space" : "within 120 columns");
        tap_ok(text && (wide ? strstr(text, "gld_transactions_per_request") != NULL
                             : strstr(text, " gld/req ") && strstr(text, "legend: pid") &&
                                   strstr(text, "gld_transactions_per_request")),
               "--launches%s: metric headers %s", wide ? " --wide" : "",
               wide ? "in full" : "short, named in the legend");
        free(text);
    }
    gp_report_free(&r);
}

/* A paragraph after a lead the width never breaks (a merged report's "[2] FILE:"). */
typedef struct {
    const char *lead, *text;
    size_t width;
} paragraph_after;

static int print_after(FILE *f, const void *arg)
{
    const paragraph_after *p = arg;
    fputs(p->lead, f);
    gp_text_paragraph_from(f, strlen(p->lead), p->text, p->width, 6);
    return 0;
}

static void check_after(const char *lead, const char *text, size_t width, const char *want,
                        const char *what)
{
    const paragraph_after p = {lead, text, width};
    char *got = tap_capture(print_after, &p);
    tap_str_eq(got ? got : "", want, what);
    free(got);
}

static void test_paragraph_after(void)
{
    check_after("  [1] a.json:", "./app --n=4", 40, "  [1] a.json: ./app --n=4\n",
                "after a lead: on its line where it fits");
    check_after("  [1] a.json:", "./app --n=4 --size=big", 30,
                "  [1] a.json: ./app --n=4\n      --size=big\n",
                "after a lead: its words wrapped within the width");
    check_after("  [1] /a/long/path/report.json:", "./application", 36,
                "  [1] /a/long/path/report.json:\n      ./application\n",
                "after a lead: the first word that does not fit starts the next line");
    check_after("  [1] /a/path/longer/than/the/width.json:", "./app", 20,
                "  [1] /a/path/longer/than/the/width.json:\n      ./app\n",
                "after a lead: a lead wider than the width is never broken");
}

void test_text_layout(void)
{
    test_paragraph_after();
    test_launches();
    test_times();
    test_values();
    test_wrapped_table();
    test_tails();
    test_names_in_every_part();
}
