/* Any report part declared as a table (gpuprof/part.h) in each format: text (and through it
 * Markdown), CSV, HTML and JSON. The part gives its declaration, its rows and its context;
 * headings, notes and legends around the table stay the part's. */
#ifndef GPUPROF_RENDER_PART_H
#define GPUPROF_RENDER_PART_H

#include "gpuprof/part.h"
#include "render/csv_layout.h"
#include "render/text_layout.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* A number as people read it in the format (text, Markdown): "-" when unknown. */
void gp_part_format_text(char *buf, size_t len, gp_number_format f, double v);

/* Text: the columns shown in text, then a row's cells, into a layout table (so that a part
 * can add its own lines between rows); or the whole table printed within `width`. */
void gp_part_text_columns(gp_text_table *tt, const gp_part *t, const void *ctx);
void gp_part_text_row(gp_text_table *tt, const gp_part *t, const void *row, const void *ctx);
int gp_part_text(FILE *out, const gp_part *t, const void *rows, size_t n, const void *ctx,
                  size_t width);

/* CSV: the header line (the keys of the columns shown in CSV) and a row. */
void gp_part_csv_header(FILE *out, const gp_part *t, const void *ctx);
/* The same without the line's end, for a line that goes on with cells of its own. */
void gp_part_csv_keys(FILE *out, const gp_part *t, const void *ctx);
void gp_part_csv_cells(FILE *out, const gp_part *t, const void *row, const void *ctx);
void gp_part_csv_row(FILE *out, const gp_part *t, const void *row, const void *ctx);
/* The same through a layout, for --csv-columns and --no-header: the part's CSV columns as
 * the layout's cells (then gp_csv_layout_choose, gp_csv_layout_header), and a row of them. */
int gp_part_csv_layout(gp_csv_layout *l, const gp_part *t, const void *ctx);
void gp_part_csv_layout_row(FILE *out, const gp_csv_layout *l, const gp_part *t,
                            const void *row, const void *ctx);
/* The part's CSV columns at places first to end - 1 of the view's order (an end past the
 * last: to the last) as the layout's cells after its columns so far, for a document whose own
 * columns stand among the part's (exec's launches: the metrics between). */
int gp_part_csv_layout_from(gp_csv_layout *l, const gp_part *t, const void *ctx,
                            size_t first, size_t end);
/* A row through such a layout: the part's cells, and the document's own from `rest` (a
 * launch's metrics; its fixed cells are the part's). */
void gp_part_csv_layout_row_with(FILE *out, const gp_csv_layout *l, const gp_part *t,
                                 const void *row, const void *ctx, const gp_csv_row *rest);
/* The cell of a row in t's CSV column keyed `key`, as CSV writes it (the getter's word, in
 * buf's GP_PART_CELL_LEN bytes, or its number in `number`); NULL when t has no such CSV
 * column. For rows that join another table's header by key (exec's copies and unified
 * memory under the kernels'). */
#define GP_PART_CELL_LEN 512
const char *gp_part_csv_cell(const gp_part *t, const char *key, const void *row,
                             const void *ctx, char *buf, char (*number)[64]);

/* HTML: <table class="html_class">, a heading row and a row per row; or the cells of one
 * row alone (for a part that groups its rows). */
void gp_part_html(FILE *out, const gp_part *t, const void *rows, size_t n, const void *ctx,
                   const char *html_class);
void gp_part_html_cells(FILE *out, const gp_part *t, const void *row, const void *ctx);
/* The heading cells alone (<th>: a number column's, or one whose page class starts "num",
 * of class "num", but html_word_heading's), for a part whose table has cells of its own
 * around the part's. */
void gp_part_html_headings(FILE *out, const gp_part *t, const void *ctx);
/* The cell of column c alone, for a part that writes a cell of its own among its cells. */
void gp_part_html_cell(FILE *out, const gp_part *t, size_t c, const void *row,
                       const void *ctx);
/* A row: its <tr> (of the part's row class), its cells and </tr>; or the row left open
 * after the part's cells, for a page that writes cells of its own after them. */
void gp_part_html_row(FILE *out, const gp_part *t, const void *row, const void *ctx);
void gp_part_html_tr(FILE *out, const gp_part *t, const void *row, const void *ctx);

/* JSON: a row as an object, and every row under t->key (an array, or an object keyed by
 * the key column's word) of `parent`. */
cJSON *gp_part_json_row(const gp_part *t, const void *row, const void *ctx);
/* A row's JSON columns at places first to end - 1 of the view's order (an end past the last:
 * to the last) added to o, for an object that has values of its own among the part's
 * (exec's launches: their grid and block arrays). */
void gp_part_json_add(cJSON *o, const gp_part *t, const void *row, const void *ctx,
                      size_t first, size_t end);
void gp_part_json(cJSON *parent, const gp_part *t, const void *rows, size_t n,
                   const void *ctx);

#endif
