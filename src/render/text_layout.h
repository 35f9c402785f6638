/* The text format's layout within a width (120 columns unless --wide): tables whose columns
 * are as wide as their widest cell, wrapped into several tables that repeat their key
 * columns when they are wider than the page, with an optional last column of prose (word
 * wrapped) or of names (cut at a readable boundary); paragraphs wrapped at spaces. No line
 * ends in a space. */
#ifndef GPUPROF_RENDER_TEXT_LAYOUT_H
#define GPUPROF_RENDER_TEXT_LAYOUT_H

#include "gpuprof/render.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The page's width by default; --wide: no limit. */
#define GP_TEXT_WIDTH 120
/* Markdown's page (render/markdown.c): no width, each table written as a GFM table. */
#define GP_TEXT_MARKDOWN (SIZE_MAX - 1)
size_t gp_text_width(const gp_render_options *o);

typedef enum {
    GP_COLUMN_RIGHT,   /* numbers: right-aligned */
    GP_COLUMN_LEFT,    /* words: left-aligned */
    GP_COLUMN_PROSE,   /* the last column: words wrapped within the room left */
    GP_COLUMN_NAME     /* the last column: a kernel name cut to the room left */
} gp_column_kind;

typedef struct {
    char *title;
    gp_column_kind kind;
    int gap;                   /* spaces before it */
} gp_text_column;

/* A row: cells (one per column), or one line across the table (cells NULL): cut, or a
 * note wrapped with its lines indented by `indent`. */
typedef struct {
    char **cells;
    char *line;
    bool note;
    int indent;
    size_t keep;               /* a name row (gp_table_name_cell, gp_table_name_line): the
                                  bytes of its tag kept whole before the name */
    bool name;
} gp_text_row;

typedef struct {
    gp_text_column *columns;
    size_t n_columns;
    size_t n_key;              /* the leading columns every part of a wrapped table repeats */
    bool tail_every_part;      /* a wrapped table repeats its last column of names too, so
                                  that each row of every part carries its name (--launches) */
    gp_text_row *rows;
    size_t n_rows;
    int failed;                /* the status of the first allocation that failed */
} gp_text_table;

void gp_table_init(gp_text_table *t, size_t n_key);
void gp_table_free(gp_text_table *t);
/* Columns come before rows. */
void gp_table_column(gp_text_table *t, const char *title, gp_column_kind kind, int gap);
/* A new row; then one cell per column, in order (cells not given print empty). */
void gp_table_row(gp_text_table *t);
void gp_table_cell(gp_text_table *t, const char *text);
void gp_table_cellf(gp_text_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A line across the table ("Kernel: ..."), cut at a readable boundary to the width. */
void gp_table_line(gp_text_table *t, const char *text);
/* The last column's cell of a kernel, on a table whose last column is of names: its tag
 * ("#3 ") kept whole, the name after it shortened in the middle to the room left
 * (gp_kernel_names_shorten), so that no two names of the column print alike. */
void gp_table_name_cell(gp_text_table *t, const char *tag, const char *name);
/* A line across the table for a kernel ("Kernel #3: ..."): `head` kept whole, the name after
 * it shortened to the width as the name cells are, told apart from the other name lines. */
void gp_table_name_line(gp_text_table *t, const char *head, const char *name);
/* Prose across the table, its lines indented by `indent` and wrapped to the width. */
void gp_table_note(gp_text_table *t, const char *text, int indent);
/* The table within `width` columns (SIZE_MAX: one part, nothing cut); a last column of names
 * too narrow for its widest takes the gaps between the other columns down to one space. The
 * status of the first failed allocation of its building, if any. */
int gp_table_print(FILE *out, const gp_text_table *t, size_t width);

/* A table written row by row, as a live sweep's results come (render/text.c): its columns'
 * widths decided before its rows, none less than its title's (gp_table_title_widths), the
 * width of its lines at those widths (to fit the page), and its title line and rows
 * [from, to) written at them, as gp_table_print writes a table that fits in one part. A
 * cell wider than its column pushes the rest of its line. Tables without a last column of
 * prose or names. */
void gp_table_title_widths(const gp_text_table *t, size_t *widths);
size_t gp_table_line_width(const gp_text_table *t, const size_t *widths);
int gp_table_print_rows(FILE *out, const gp_text_table *t, const size_t *widths, bool title,
                        size_t from, size_t to);

/* A paragraph wrapped at spaces within `width`, its later lines indented by `indent`. */
void gp_text_paragraph(FILE *out, const char *text, size_t width, int indent);
/* The same on a line the caller has begun `column` columns in (its bytes serve: never fewer
 * than its columns), with a lead never broken ("  [2] FILE:", whose path is the user's): the
 * text goes on after a space where its first word fits there, else on the next line. */
void gp_text_paragraph_from(FILE *out, size_t column, const char *text, size_t width,
                            int indent);

#endif
