/* Markdown (--markdown): each document as the text view writes it, with the same parts and
 * legends, made GitHub-flavoured. The text layout writes its tables as GFM tables here (the
 * page's width is GP_TEXT_MARKDOWN), each line marked; the prose between them is then made
 * safe: indentation dropped (four spaces would be code), a leading character that Markdown
 * reads as a heading, quote, list or rule escaped, inline markup characters escaped, and
 * consecutive lines kept apart by hard line breaks. A blank line parts tables from prose. */
#include "render/markdown.h"
#include "render/markdown_table.h"

#include "gpuprof/status.h"
#include "render/text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- prose ----------------------------------------------------------------------------- */

/* A prose line, its start escaped where Markdown would read block structure there ("#",
 * ">", "-", "+", "*", "=", "|"; "1." and "1)", escaped after the digits). */
static void put_prose(FILE *out, const char *s, size_t n)
{
    while (n && *s == ' ')
        s++, n--;
    char *line = strndup(s, n);
    if (!line)
        return;   /* out of memory: the line left out; the stream's error tells */
    size_t digits = strspn(line, "0123456789");
    if (digits && (line[digits] == '.' || line[digits] == ')')) {
        fwrite(line, 1, digits, out);
        fputc('\\', out);
    } else {
        digits = 0;
        if (*line && strchr("#>-+*=|", *line))
            fputc('\\', out);
    }
    gp_markdown_escaped(out, line + digits, false);
    free(line);
}

/* The text with its marked lines as tables and the rest made Markdown prose: a blank line
 * between a table and prose, a hard line break ("\") between two lines of prose. */
static void put_markdown(FILE *out, const char *text)
{
    enum { BLANK, PROSE, TABLE } before = BLANK;
    for (const char *s = text; *s;) {
        const char *end = strchr(s, '\n');
        const size_t n = end ? (size_t)(end - s) : strlen(s);
        const bool table = *s == GP_MARKDOWN_TABLE_LINE;
        const bool blank = !table && strspn(s, " ") == n;
        if (table) {
            if (before == PROSE)
                fputs("\n\n", out);
            fwrite(s + 1, 1, n - 1, out);
            fputc('\n', out);
        } else if (blank) {
            fputs(before == PROSE ? "\n\n" : "\n", out);
        } else {
            fputs(before == TABLE ? "\n" : before == PROSE ? "\\\n" : "", out);
            put_prose(out, s, n);
        }
        before = table ? TABLE : blank ? BLANK : PROSE;
        s = end ? end + 1 : s + n;
    }
    if (before == PROSE)
        fputc('\n', out);
}

/* ---- the views: the text's, captured and made Markdown --------------------------------- */

typedef int text_writer(FILE *out, const void *what, const gp_render_options *o);

static int as_markdown(FILE *out, text_writer *write, const void *what,
                       const gp_render_options *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    gp_render_options md = *o;
    md.format = GP_OUT_MARKDOWN;
    md.wide = false;
    const int rc = write(mem, what, &md);
    const bool written = fclose(mem) == 0 && text;
    if (rc == GP_OK && written)
        put_markdown(out, text);
    free(text);
    return rc != GP_OK ? rc : written ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

static int write_report(FILE *out, const void *what, const gp_render_options *o)
{
    const gp_report *r = what;
    if (r->ranks)
        return gp_text_ranks(out, r, o);
    return r->is_exec ? gp_text_exec(out, r, o) : gp_stream_whole(&gp_text_stream, out, r, o);
}

int gp_markdown_report(FILE *out, const gp_report *r, const gp_render_options *o)
{
    return as_markdown(out, write_report, r, o);
}

static int write_compare(FILE *out, const void *what, const gp_render_options *o)
{
    return gp_text_compare(out, what, o);
}

int gp_markdown_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    return as_markdown(out, write_compare, c, o);
}

static int write_list(FILE *out, const void *what, const gp_render_options *o)
{
    (void)what;
    return gp_text_list(out, o);
}

int gp_markdown_list(FILE *out, const gp_render_options *o)
{
    return as_markdown(out, write_list, NULL, o);
}

typedef struct {
    const gp_device_info *devices;
    size_t n;
} device_list;

static int write_devices(FILE *out, const void *what, const gp_render_options *o)
{
    const device_list *d = what;
    return gp_text_devices(out, d->devices, d->n, o);
}

int gp_markdown_devices(FILE *out, const gp_device_info *devices, size_t n,
                        const gp_render_options *o)
{
    const device_list d = {devices, n};
    return as_markdown(out, write_devices, &d, o);
}

static int write_chip_metrics(FILE *out, const void *what, const gp_render_options *o)
{
    return gp_text_chip_metrics(out, what, o);
}

int gp_markdown_chip_metrics(FILE *out, const gp_chip_metrics *m, const gp_render_options *o)
{
    return as_markdown(out, write_chip_metrics, m, o);
}
