/* A text table as a GitHub-flavoured Markdown table (render/markdown_table.h), for the text
 * layout to hand its tables over to where the page is Markdown's. */
#include "render/markdown_table.h"

#include <string.h>

/* Inline characters that would be read as markup, or end a cell ('|'), escaped. */
void gp_markdown_escaped(FILE *out, const char *s, bool cell)
{
    for (; *s; s++) {
        if (strchr("\\`*_<>[]~", *s) || (cell && *s == '|'))
            fputc('\\', out);
        fputc(*s == '\n' ? ' ' : *s, out);
    }
}

static void put_row(FILE *out, const gp_text_table *t, const gp_text_row *row)
{
    fputc(GP_MARKDOWN_TABLE_LINE, out);
    fputc('|', out);
    for (size_t c = 0; c < t->n_columns; c++) {
        const char *text = !row ? t->columns[c].title
                           : row->cells ? row->cells[c]
                           : c == 0 ? row->line : NULL;
        fputc(' ', out);
        gp_markdown_escaped(out, text ? text : "", true);
        fputs(" |", out);
    }
    fputc('\n', out);
}

void gp_markdown_table(FILE *out, const gp_text_table *t)
{
    put_row(out, t, NULL);
    fputc(GP_MARKDOWN_TABLE_LINE, out);
    fputc('|', out);
    for (size_t c = 0; c < t->n_columns; c++)
        fputs(t->columns[c].kind == GP_COLUMN_RIGHT ? " ---: |" : " --- |", out);
    fputc('\n', out);
    for (size_t r = 0; r < t->n_rows; r++)
        put_row(out, t, &t->rows[r]);
}
