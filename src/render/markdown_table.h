/* Markdown's tables (markdown_table.c): the text layout writes each table here whole where the
 * page is Markdown's (GP_TEXT_MARKDOWN), each line marked, so that the Markdown view
 * (markdown.c) tells them from the prose between them. */
#ifndef GPUPROF_RENDER_MARKDOWN_TABLE_H
#define GPUPROF_RENDER_MARKDOWN_TABLE_H

#include "render/text_layout.h"

#include <stdbool.h>
#include <stdio.h>

/* Before each table line in the text written first. */
#define GP_MARKDOWN_TABLE_LINE '\x01'

/* A text table as a GFM table: its title row, the delimiter row, then each row with the
 * title row's count of cells (a line across the table is its first cell). */
void gp_markdown_table(FILE *out, const gp_text_table *t);
/* Text with the characters Markdown would read as inline markup escaped (and in a cell '|',
 * which would end it; a line break there a space). */
void gp_markdown_escaped(FILE *out, const char *s, bool cell);

#endif
