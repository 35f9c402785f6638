/* Any declared table in each format (render/part.h): one loop over the declaration's
 * columns per format, so that a column added to a declaration shows in every view. */
#include "render/part.h"

#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/csv_layout.h"
#include "render/html_page.h"
#include "render/json_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* text, HTML: printf's format of a number, or NULL where a function writes it. */
static const char *const text_formats[GP_NUMBER_FORMATS] = {
    [GP_NUMBER_WHOLE] = "%.0f", [GP_NUMBER_FIXED1] = "%.1f", [GP_NUMBER_FIXED2] = "%.2f",
    [GP_NUMBER_PERCENT2] = "%.2f%%", [GP_NUMBER_PERCENT1] = "%.1f%%",
    [GP_NUMBER_SIGNED_PERCENT1] = "%+.1f%%",
    [GP_NUMBER_RATIO2] = "%.2fx", [GP_NUMBER_FLAG] = "%.0f", [GP_NUMBER_SIGNED1] = "%+.1f",
    [GP_NUMBER_COUNT] = "%.0f",
};
static const char *const html_formats[GP_NUMBER_FORMATS] = {
    [GP_NUMBER_WHOLE] = "%.0f", [GP_NUMBER_MS] = "%.4f", [GP_NUMBER_BYTES] = "%.0f",
    [GP_NUMBER_FIXED1] = "%.1f", [GP_NUMBER_FIXED2] = "%.2f", [GP_NUMBER_PERCENT2] = "%.2f",
    [GP_NUMBER_PERCENT1] = "%.1f",
    [GP_NUMBER_SIGNED_PERCENT1] = "%+.1f",
    [GP_NUMBER_RATIO2] = "%.2f", [GP_NUMBER_FLAG] = "%.0f", [GP_NUMBER_SIGNED1] = "%+.1f",
    [GP_NUMBER_COUNT] = "%.0f",
};

void gp_part_format_text(char *buf, size_t len, gp_number_format f, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (f == GP_NUMBER_MS)
        gp_text_format_time(buf, len, v);
    else if (f == GP_NUMBER_BYTES)
        gp_text_format_bytes(buf, len, v);
    else
        snprintf(buf, len, text_formats[f] ? text_formats[f] : "%g", v);
}

/* ---- text ------------------------------------------------------------------------------ */

static const gp_column_kind kinds[] = {
    [GP_ALIGN_RIGHT] = GP_COLUMN_RIGHT, [GP_ALIGN_LEFT] = GP_COLUMN_LEFT,
    [GP_ALIGN_PROSE] = GP_COLUMN_PROSE, [GP_ALIGN_NAME] = GP_COLUMN_NAME,
};

void gp_part_text_columns(gp_text_table *tt, const gp_part *t, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_TEXT, ctx, cols);
    for (size_t i = 0; i < n; i++) {
        const gp_part_column *col = &t->columns[cols[i]];
        gp_table_column(tt, col->header, kinds[col->align], col->gap);
    }
}

void gp_part_text_row(gp_text_table *tt, const gp_part *t, const void *row, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_TEXT, ctx, cols);
    gp_table_row(tt);
    for (size_t i = 0; i < n; i++) {
        const size_t c = cols[i];
        char buf[GP_PART_CELL_LEN], number[64];
        const gp_cell cell = gp_part_cell(t, c, row, ctx, buf, sizeof buf);
        const char *text = cell.text;
        if (!text) {
            const bool approx = cell.approx && isfinite(cell.number);
            if (approx)
                number[0] = '~';
            gp_part_format_text(number + approx, sizeof number - approx, cell.format,
                                cell.number);
            text = number;
        }
        if (t->columns[c].align == GP_ALIGN_NAME && cell.tag)
            gp_table_name_cell(tt, cell.tag, text);
        else
            gp_table_cell(tt, text);
    }
}

int gp_part_text(FILE *out, const gp_part *t, const void *rows, size_t n, const void *ctx,
                  size_t width)
{
    gp_text_table tt;
    gp_table_init(&tt, t->n_key);
    gp_part_text_columns(&tt, t, ctx);
    for (size_t i = 0; i < n; i++)
        gp_part_text_row(&tt, t, gp_part_row_at(t, rows, i), ctx);
    const int rc = gp_table_print(out, &tt, width);
    gp_table_free(&tt);
    return rc;
}

/* ---- CSV ------------------------------------------------------------------------------- */

void gp_part_csv_keys(FILE *out, const gp_part *t, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_CSV, ctx, cols);
    for (size_t i = 0; i < n; i++)
        gp_csv_field(out, t->columns[cols[i]].key, i == 0);
}

void gp_part_csv_header(FILE *out, const gp_part *t, const void *ctx)
{
    gp_part_csv_keys(out, t, ctx);
    fputc('\n', out);
}

/* A cell's CSV text: its word, or its number in `number` ("%.10g", a count whole however
 * many digits: exact below 2^53; a worded number's number, its word being for people). */
static const char *csv_text(const gp_part *t, size_t c, const void *row, const void *ctx,
                            char *buf, char (*number)[64])
{
    const gp_cell cell = gp_part_cell(t, c, row, ctx, buf, GP_PART_CELL_LEN);
    if (cell.text && cell.format != GP_NUMBER_WORDED)
        return cell.text;
    if (cell.format == GP_NUMBER_COUNT && isfinite(cell.number))
        snprintf(*number, sizeof *number, "%.0f", cell.number);
    else
        gp_csv_number(*number, sizeof *number, cell.number);
    return *number;
}

void gp_part_csv_cells(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_CSV, ctx, cols);
    for (size_t i = 0; i < n; i++) {
        char buf[GP_PART_CELL_LEN], number[64];
        gp_csv_field(out, csv_text(t, cols[i], row, ctx, buf, &number), i == 0);
    }
}

void gp_part_csv_row(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    gp_part_csv_cells(out, t, row, ctx);
    fputc('\n', out);
}

const char *gp_part_csv_cell(const gp_part *t, const char *key, const void *row,
                             const void *ctx, char *buf, char (*number)[64])
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_CSV, ctx, cols);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t->columns[cols[i]].key, key) == 0)
            return csv_text(t, cols[i], row, ctx, buf, number);
    return NULL;
}

/* The most CSV columns a part has through a layout (its cells are all made before the row
 * is written). */
#define LAYOUT_COLUMNS 48

int gp_part_csv_layout(gp_csv_layout *l, const gp_part *t, const void *ctx)
{
    return gp_part_csv_layout_from(l, t, ctx, 0, SIZE_MAX);
}

void gp_part_csv_layout_row(FILE *out, const gp_csv_layout *l, const gp_part *t,
                            const void *row, const void *ctx)
{
    gp_part_csv_layout_row_with(out, l, t, row, ctx, &(gp_csv_row){0});
}

int gp_part_csv_layout_from(gp_csv_layout *l, const gp_part *t, const void *ctx,
                            size_t first, size_t end)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_CSV, ctx, cols);
    if (n > LAYOUT_COLUMNS)
        return gp_fail(GP_ERR_RUNTIME, "%s: more than %d CSV columns", t->key, LAYOUT_COLUMNS);
    const char *names[LAYOUT_COLUMNS];
    for (size_t i = 0; i < n; i++)
        names[i] = t->columns[cols[i]].key;
    return gp_csv_layout_fixed_from(l, names, first < n ? first : n, end < n ? end : n);
}

void gp_part_csv_layout_row_with(FILE *out, const gp_csv_layout *l, const gp_part *t,
                                 const void *row, const void *ctx, const gp_csv_row *rest)
{
    const char *text[LAYOUT_COLUMNS];
    char buf[LAYOUT_COLUMNS][GP_PART_CELL_LEN], number[LAYOUT_COLUMNS][64];
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t all = gp_part_columns(t, GP_VIEW_CSV, ctx, cols);
    const size_t n = all < LAYOUT_COLUMNS ? all : LAYOUT_COLUMNS;
    for (size_t i = 0; i < n; i++)
        text[i] = csv_text(t, cols[i], row, ctx, buf[i], &number[i]);
    gp_csv_row cells = *rest;
    cells.fixed = text;
    gp_csv_layout_row(out, l, &cells);
}

/* ---- HTML ------------------------------------------------------------------------------ */

/* A cell's <td>: its class (NULL: none) and its words on hover (NULL: none). */
static void html_td(FILE *out, const char *html_class, const char *title)
{
    fputs("<td", out);
    if (html_class)
        fprintf(out, " class=\"%s\"", html_class);
    if (title) {
        fputs(" title=\"", out);
        gp_html_escape(out, title);
        fputc('"', out);
    }
    fputc('>', out);
}

/* A number's cell: "num" or the column's class, the reason of an estimate on hover. */
static void html_number(FILE *out, const gp_part_column *col, const gp_cell *cell)
{
    char text[64] = "";
    const bool approx = cell->approx && isfinite(cell->number);
    if (approx)
        text[0] = '~';
    gp_html_fmt_num(text + approx, sizeof text - approx,
                        html_formats[cell->format] ? html_formats[cell->format] : "%g",
                        cell->number);
    html_td(out, col->html_class ? col->html_class : "num",
            approx && cell->approx[0] ? cell->approx : cell->title);
    fprintf(out, "%s</td>", text);
}

void gp_part_html_cells(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_HTML, ctx, cols);
    for (size_t i = 0; i < n; i++)
        gp_part_html_cell(out, t, cols[i], row, ctx);
}

void gp_part_html_cell(FILE *out, const gp_part *t, size_t c, const void *row,
                       const void *ctx)
{
    const gp_part_column *col = &t->columns[c];
    char buf[GP_PART_CELL_LEN];
    const gp_cell cell = gp_part_cell(t, c, row, ctx, buf, sizeof buf);
    if (!cell.text) {
        html_number(out, col, &cell);
        return;
    }
    const char *worded = cell.format == GP_NUMBER_WORDED ? "num" : NULL;
    html_td(out, col->html_class ? col->html_class : worded, cell.title);
    if (cell.tag)
        gp_html_escape(out, cell.tag);
    gp_html_escape(out, cell.text);
    if (cell.footnote)
        fprintf(out, " <sup>[%zu]</sup>", cell.footnote);
    fputs("</td>", out);
}

void gp_part_html_headings(FILE *out, const gp_part *t, const void *ctx)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_HTML, ctx, cols);
    for (size_t i = 0; i < n; i++) {
        const gp_part_column *col = &t->columns[cols[i]];
        const bool number = !col->html_word_heading &&
                            (col->format != GP_NUMBER_COLUMN ||
                             (col->html_class && strncmp(col->html_class, "num", 3) == 0));
        const char *title = col->html ? col->html : col->key;
        gp_html_th_list(out, &title, 1, number ? 0 : 1);
    }
}

void gp_part_html(FILE *out, const gp_part *t, const void *rows, size_t n, const void *ctx,
                  const char *html_class)
{
    fprintf(out, "<table class=\"%s\"><tr>", html_class);
    gp_part_html_headings(out, t, ctx);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < n; i++)
        gp_part_html_row(out, t, gp_part_row_at(t, rows, i), ctx);
    fputs("</table>\n", out);
}

void gp_part_html_tr(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    const char *row_class = t->html_row_class ? t->html_row_class(row, ctx) : NULL;
    if (row_class)
        fprintf(out, "<tr class=\"%s\">", row_class);
    else
        fputs("<tr>", out);
    gp_part_html_cells(out, t, row, ctx);
}

void gp_part_html_row(FILE *out, const gp_part *t, const void *row, const void *ctx)
{
    gp_part_html_tr(out, t, row, ctx);
    fputs("</tr>\n", out);
}

/* ---- JSON ------------------------------------------------------------------------------ */

cJSON *gp_part_json_row(const gp_part *t, const void *row, const void *ctx)
{
    cJSON *o = cJSON_CreateObject();
    gp_part_json_add(o, t, row, ctx, 0, SIZE_MAX);
    return o;
}

void gp_part_json_add(cJSON *o, const gp_part *t, const void *row, const void *ctx,
                      size_t first, size_t end)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(t, GP_VIEW_JSON, ctx, cols);
    for (size_t i = first; i < n && i < end; i++) {
        const size_t c = cols[i];
        if ((int)c == t->json_keyed_by)
            continue;
        char buf[GP_PART_CELL_LEN];
        const gp_cell cell = gp_part_cell(t, c, row, ctx, buf, sizeof buf);
        if (cell.format == GP_NUMBER_ABSENT)
            continue;
        if (cell.text && cell.format != GP_NUMBER_WORDED)
            cJSON_AddStringToObject(o, t->columns[c].key, cell.text);
        else if (cell.format == GP_NUMBER_FLAG)
            cJSON_AddBoolToObject(o, t->columns[c].key, cell.number != 0);
        else
            gp_json_add_number(o, t->columns[c].key, cell.number);
    }
}

void gp_part_json(cJSON *parent, const gp_part *t, const void *rows, size_t n,
                   const void *ctx)
{
    const bool keyed = t->json_keyed_by >= 0;
    cJSON *part = keyed ? cJSON_AddObjectToObject(parent, t->key)
                        : cJSON_AddArrayToObject(parent, t->key);
    for (size_t i = 0; i < n; i++) {
        const void *row = gp_part_row_at(t, rows, i);
        cJSON *o = gp_part_json_row(t, row, ctx);
        if (!keyed) {
            cJSON_AddItemToArray(part, o);
            continue;
        }
        char buf[GP_PART_CELL_LEN];
        const gp_cell key = gp_part_cell(t, (size_t)t->json_keyed_by, row, ctx, buf,
                                             sizeof buf);
        cJSON_AddItemToObject(part, key.text ? key.text : "", o);
    }
}
