/* A kernel command's report written while it runs (gp_stream_*, issue 37), on the recorded
 * fixtures as if their results became final one by one: text and CSV rows are written as
 * each comes, and what is written in the end holds what the whole rendering holds (the
 * text's live tables have their widths decided before their rows: the same cells, spaced
 * otherwise); JSON is written whole at the end, and not at all for a run cut short. */
#include "tap.h"

#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stream into memory; the text so far, read after a flush. */
typedef struct {
    FILE *f;
    char *buf;
    size_t len;
    gp_report_stream *s;
} capture;

static bool open_capture(capture *c, const gp_report *r, gp_output format)
{
    *c = (capture){0};
    c->f = open_memstream(&c->buf, &c->len);
    const gp_render_options o = {.format = format};
    if (c->f && gp_stream_open(c->f, r, o, &c->s) == GP_OK)
        return true;
    if (c->f)
        fclose(c->f);
    free(c->buf);
    return false;
}

static size_t written(capture *c)
{
    fflush(c->f);
    return c->len;
}

/* The stream closed; the whole text written (the caller frees it). */
static char *close_capture(capture *c, bool complete)
{
    const int rc = gp_stream_close(c->s, complete);
    fclose(c->f);
    if (rc == GP_OK)
        return c->buf;
    free(c->buf);
    return NULL;
}

/* The text with every run of spaces made one: the cells, whatever their columns' widths. */
static char *cells_of(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    size_t n = 0;
    for (const char *p = text; out && *p; p++)
        if (*p != ' ' || n == 0 || out[n - 1] != ' ')
            out[n++] = *p;
    if (out)
        out[n] = '\0';
    return out;
}

static size_t count_lines(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return n;
}

/* The rows of the first table, from the one under its title to the blank line or the end:
 * one width (its title line may be shorter: no line ends in a space). */
static bool rows_aligned(const char *text)
{
    const char *title = strstr(text, "\nvariant ");
    const char *line = title ? strchr(title + 1, '\n') : NULL;
    size_t width = 0, rows = 0;
    for (line = line ? line + 1 : NULL; line && *line && *line != '\n'; rows++) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        if (rows && len != width)
            return false;
        width = len;
        line = end ? end + 1 : NULL;
    }
    return rows > 0;
}

/* Text: each result's rows are written when it comes (tables that fit the page), the text
 * so far is always the start of the final text, and the final text has the whole
 * rendering's cells. */
static void text_stream(const gp_report *r, const char *name, bool fits)
{
    capture c;
    if (!tap_ok(open_capture(&c, r, GP_OUT_TEXT), "%s: a text stream opens", name))
        return;
    bool grew = true;
    size_t before = written(&c);
    for (size_t i = 0; i < r->n_results; i++) {
        gp_stream_result(c.s, i);
        const size_t now = written(&c);
        grew = grew && now > before;
        before = now;
    }
    char *streamed = close_capture(&c, true);
    char *whole = tap_render_report(r, (gp_render_options){.format = GP_OUT_TEXT});
    char *a = streamed ? cells_of(streamed) : NULL, *b = whole ? cells_of(whole) : NULL;
    if (fits) {
        tap_ok(grew, "%s: text rows are written as each result comes", name);
        if (!tap_ok(streamed && rows_aligned(streamed),
                    "%s: the live table's lines are one width (widths decided before the "
                    "rows)", name))
            tap_diag("streamed:\n%s", streamed ? streamed : "");
    }
    tap_ok(a && b && strcmp(a, b) == 0, "%s: the streamed text holds the whole rendering's "
           "lines and cells", name);
    if (!(a && b && strcmp(a, b) == 0))
        tap_diag("streamed:\n%s\nwhole:\n%s", streamed ? streamed : "", whole ? whole : "");
    free(a);
    free(b);
    free(streamed);
    free(whole);
}

/* CSV: the header and a row per result as it comes, byte for byte the whole rendering. */
static void csv_stream(const gp_report *r, const char *name)
{
    capture c;
    if (!tap_ok(open_capture(&c, r, GP_OUT_CSV), "%s: a CSV stream opens", name))
        return;
    bool rows = true;
    for (size_t i = 0; i < r->n_results; i++) {
        gp_stream_result(c.s, i);
        const size_t len = written(&c);
        rows = rows && count_lines(c.buf, len) == i + 2;
    }
    char *streamed = close_capture(&c, true);
    char *whole = tap_render_report(r, (gp_render_options){.format = GP_OUT_CSV});
    tap_ok(rows, "%s: the CSV header, then a row as each result comes", name);
    tap_ok(streamed && whole && strcmp(streamed, whole) == 0,
           "%s: the streamed CSV is the whole rendering", name);
    free(streamed);
    free(whole);
}

/* JSON: nothing until the end; the document whole then, none for a run cut short. */
static void json_stream(const gp_report *r, const char *name)
{
    capture c;
    if (!open_capture(&c, r, GP_OUT_JSON))
        return;
    for (size_t i = 0; i < r->n_results; i++)
        gp_stream_result(c.s, i);
    const size_t before_close = written(&c);
    char *streamed = close_capture(&c, true);
    char *whole = tap_render_report(r, (gp_render_options){.format = GP_OUT_JSON});
    tap_ok(before_close == 0 && streamed && whole && strcmp(streamed, whole) == 0,
           "%s: JSON is written whole at the end", name);
    free(streamed);
    free(whole);
    if (!open_capture(&c, r, GP_OUT_JSON))
        return;
    gp_stream_result(c.s, 0);
    streamed = close_capture(&c, false);
    tap_ok(streamed && streamed[0] == '\0', "%s: a run cut short writes no JSON", name);
    free(streamed);
}

/* A run cut short after its first result: that row is written, the text's end is not. */
static void cut_short(const gp_report *r, const char *name)
{
    capture c;
    if (!open_capture(&c, r, GP_OUT_TEXT))
        return;
    gp_stream_result(c.s, 0);
    char *text = close_capture(&c, false);
    char *first = text ? strstr(text, r->results[0].variant) : NULL;
    tap_ok(first && strstr(text, "\nvariant ") && !strstr(text, r->results[1].variant),
           "%s: cut short after one result, its row is kept and no later one is written", name);
    free(text);
}

void test_stream(void)
{
    static const struct {
        const char *file;
        bool fits; /* its table fits the page: written row by row */
    } cases[] = {{"reduce-blocks.json", true}, {"transpose-sweep.json", true},
                 {"reduce-default.json", true}, {"saxpy-2p26-nometrics.json", true},
                 {"reduce2d-4096-all.json", false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", tap_fixtures, cases[i].file);
        gp_report r;
        if (!tap_ok(gp_report_read_json(path, &r) == GP_OK, "%s reads back", cases[i].file))
            continue;
        text_stream(&r, cases[i].file, cases[i].fits);
        csv_stream(&r, cases[i].file);
        json_stream(&r, cases[i].file);
        if (cases[i].fits && r.n_results > 1 &&
            strcmp(r.results[0].variant, r.results[1].variant) != 0)
            cut_short(&r, cases[i].file);
        gp_report_free(&r);
    }
}
