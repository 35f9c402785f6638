/* The text format's layout (render/text_layout.h): tables fitted to the page and wrapped
 * paragraphs. Spaces are held back until text follows them, so that no line ends in one. */
#include "render/text_layout.h"

#include "render/markdown_table.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/status.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The room a last column of prose or names gets at least, where the page is full. */
#define TAIL_MIN 30

size_t gp_text_width(const gp_render_options *o)
{
    if (o && o->format == GP_OUT_MARKDOWN)
        return GP_TEXT_MARKDOWN;
    return o && o->wide ? SIZE_MAX : GP_TEXT_WIDTH;
}

/* ---- writing lines without trailing spaces ---------------------------------------------- */

typedef struct {
    FILE *out;
    size_t pending;            /* spaces not written yet */
    size_t column;             /* where the next character would go */
} line_writer;

static void put_spaces(line_writer *w, size_t n)
{
    w->pending += n;
    w->column += n;
}

static void put_text(line_writer *w, const char *s, size_t bytes)
{
    if (bytes == 0)
        return;
    fprintf(w->out, "%*s", (int)w->pending, "");
    fwrite(s, 1, bytes, w->out);
    w->pending = 0;
    for (size_t i = 0; i < bytes; i++)
        w->column += ((unsigned char)s[i] & 0xC0) != 0x80;
}

static void end_line(line_writer *w)
{
    fputc('\n', w->out);
    w->pending = w->column = 0;
}

/* The longest start of s (up to a space) within `width` columns, and where the rest starts
 * past the spaces; a word wider than `width` alone. */
static size_t next_segment(const char *s, size_t width, const char **rest)
{
    size_t cols = 0, fits = 0;
    for (size_t i = 0;; i++) {
        if (s[i] == ' ' || s[i] == '\0') {
            if (cols <= width || fits == 0)
                fits = i;
            if (cols > width || s[i] == '\0')
                break;
        }
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    }
    const char *r = s + fits;
    while (*r == ' ')
        r++;
    *rest = r;
    return fits;
}

/* Words within `width` columns from the writer's column on; later lines start at `indent`. */
static void put_wrapped(line_writer *w, const char *text, size_t width, size_t indent)
{
    const size_t start = w->column;
    for (bool first = true; first || *text; first = false) {
        if (!first) {
            end_line(w);
            put_spaces(w, indent);
        }
        const size_t room = width > (first ? start : indent) ? width - (first ? start : indent)
                                                               : 1;
        const char *rest;
        const size_t bytes = next_segment(text, room, &rest);
        put_text(w, text, bytes);
        text = rest;
    }
}

void gp_text_paragraph(FILE *out, const char *text, size_t width, int indent)
{
    line_writer w = {out, 0, 0};
    put_wrapped(&w, text, width, (size_t)indent);
    end_line(&w);
}

void gp_text_paragraph_from(FILE *out, size_t column, const char *text, size_t width,
                            int indent)
{
    line_writer w = {out, 0, column};
    size_t word = 0;           /* the first word's columns */
    for (const char *c = text; *c && *c != ' '; c++)
        word += ((unsigned char)*c & 0xC0) != 0x80;
    if (w.column + 1 + word <= width) {
        put_spaces(&w, 1);       /* its first word fits on the lead's line */
    } else {
        end_line(&w);
        put_spaces(&w, (size_t)indent);
    }
    put_wrapped(&w, text, width, (size_t)indent);
    end_line(&w);
}

/* ---- building a table -------------------------------------------------------------------- */

void gp_table_init(gp_text_table *t, size_t n_key)
{
    memset(t, 0, sizeof *t);
    t->n_key = n_key;
}

void gp_table_free(gp_text_table *t)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; t->rows[r].cells && c < t->n_columns; c++)
            free(t->rows[r].cells[c]);
        free(t->rows[r].cells);
        free(t->rows[r].line);
    }
    for (size_t c = 0; c < t->n_columns; c++)
        free(t->columns[c].title);
    free(t->rows);
    free(t->columns);
    memset(t, 0, sizeof *t);
}

/* A copy without trailing spaces; NULL (and the table failed) without memory. */
static char *copy_trimmed(gp_text_table *t, const char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        n--;
    char *copy = malloc(n + 1);
    if (!copy) {
        t->failed = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

static void *grow(gp_text_table *t, void *array, size_t n, size_t size)
{
    void *grown = realloc(array, (n + 1) * size);
    if (!grown)
        t->failed = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return grown;
}

void gp_table_column(gp_text_table *t, const char *title, gp_column_kind kind, int gap)
{
    gp_text_column *grown = grow(t, t->columns, t->n_columns, sizeof *grown);
    if (!grown)
        return;
    t->columns = grown;
    t->columns[t->n_columns++] = (gp_text_column){copy_trimmed(t, title), kind, gap};
}

static gp_text_row *add_row(gp_text_table *t)
{
    gp_text_row *grown = grow(t, t->rows, t->n_rows, sizeof *grown);
    if (!grown)
        return NULL;
    t->rows = grown;
    gp_text_row *row = &t->rows[t->n_rows++];
    memset(row, 0, sizeof *row);
    return row;
}

void gp_table_row(gp_text_table *t)
{
    gp_text_row *row = add_row(t);
    if (row && !(row->cells = calloc(t->n_columns ? t->n_columns : 1, sizeof *row->cells)))
        t->failed = gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

void gp_table_cell(gp_text_table *t, const char *text)
{
    gp_text_row *row = t->n_rows ? &t->rows[t->n_rows - 1] : NULL;
    if (!row || !row->cells)
        return;
    for (size_t c = 0; c < t->n_columns; c++)
        if (!row->cells[c]) {
            row->cells[c] = copy_trimmed(t, text);
            return;
        }
}

void gp_table_cellf(gp_text_table *t, const char *fmt, ...)
{
    char cell[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cell, sizeof cell, fmt, ap);
    va_end(ap);
    gp_table_cell(t, cell);
}

void gp_table_line(gp_text_table *t, const char *text)
{
    gp_text_row *row = add_row(t);
    if (row)
        row->line = copy_trimmed(t, text);
}

/* The tag and the name as one string; the row remembers the tag's bytes. */
static char *tagged(gp_text_table *t, gp_text_row *row, const char *tag, const char *name)
{
    const size_t a = strlen(tag), b = strlen(name);
    char *s = malloc(a + b + 1);
    if (!s) {
        t->failed = t->failed ? t->failed : gp_fail(GP_ERR_RUNTIME, "out of host memory");
        return NULL;
    }
    memcpy(s, tag, a);
    memcpy(s + a, name, b + 1);
    row->keep = a;
    row->name = true;
    return s;
}

void gp_table_name_cell(gp_text_table *t, const char *tag, const char *name)
{
    gp_text_row *row = t->n_rows ? &t->rows[t->n_rows - 1] : NULL;
    if (!row || !row->cells || !t->n_columns || row->cells[t->n_columns - 1])
        return;
    for (size_t c = 0; c + 1 < t->n_columns; c++)
        if (!row->cells[c])
            row->cells[c] = copy_trimmed(t, "");
    row->cells[t->n_columns - 1] = tagged(t, row, tag, name);
}

void gp_table_name_line(gp_text_table *t, const char *head, const char *name)
{
    gp_text_row *row = add_row(t);
    if (row)
        row->line = tagged(t, row, head, name);
}

void gp_table_note(gp_text_table *t, const char *text, int indent)
{
    gp_text_row *row = add_row(t);
    if (!row)
        return;
    row->line = copy_trimmed(t, text);
    row->note = true;
    row->indent = indent;
}

/* ---- printing it ------------------------------------------------------------------------- */

/* How a table is laid out on the page: each column's width and part, the last column's. */
typedef struct {
    size_t *width;             /* per column: its widest cell or title */
    size_t *part;              /* per column: which part of the wrapped table shows it */
    size_t n_parts;
    bool has_tail;             /* the last column is prose or names */
    bool tail_everywhere;      /* it shows in every part (gp_text_table.tail_every_part) */
    size_t tail_width;         /* its room in the first part (everywhere: in the fullest) */
    char **fitted;             /* per row: a name row's tag and shortened name; else NULL */
    bool narrow;               /* the body's gaps one space, for a name column too narrow */
} layout;

static const char *cell_text(const gp_text_row *row, size_t c)
{
    return row->cells[c] ? row->cells[c] : "";
}

/* The columns of s's first `bytes` bytes. */
static size_t span_width(const char *s, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; s && i < bytes && s[i]; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static void measure(const gp_text_table *t, layout *l)
{
    for (size_t c = 0; c < t->n_columns; c++) {
        l->width[c] = t->columns[c].title ? gp_text_columns(t->columns[c].title) : 0;
        for (size_t r = 0; r < t->n_rows; r++)
            if (t->rows[r].cells) {
                const size_t w = gp_text_columns(cell_text(&t->rows[r], c));
                l->width[c] = w > l->width[c] ? w : l->width[c];
            }
    }
}

/* The spaces before a column (before the first: its indent); where the layout is narrow, one
 * between body columns. */
static size_t gap(const gp_text_table *t, const layout *l, size_t c)
{
    const bool body = c > 0 && c >= t->n_key && c + 1 < t->n_columns;
    return l && l->narrow && body && t->columns[c].gap > 1 ? 1 : (size_t)t->columns[c].gap;
}

/* Body columns fill parts in order; the tail keeps its least room in the first (or, shown
 * in every part, in each). */
static void assign_parts(const gp_text_table *t, layout *l, size_t page)
{
    const size_t n = t->n_columns, key_end = t->n_key < n ? t->n_key : n;
    l->has_tail = n > key_end && (t->columns[n - 1].kind == GP_COLUMN_PROSE ||
                                  t->columns[n - 1].kind == GP_COLUMN_NAME);
    l->tail_everywhere = l->has_tail && t->tail_every_part;
    const size_t body_end = l->has_tail ? n - 1 : n;
    size_t key_width = 0;
    for (size_t c = 0; c < key_end; c++)
        key_width += gap(t, l, c) + l->width[c];
    const size_t tail_natural = l->has_tail ? l->width[n - 1] : 0;
    const size_t tail_least = tail_natural < TAIL_MIN ? tail_natural : TAIL_MIN;
    const size_t reserve = l->has_tail ? gap(t, l, n - 1) + tail_least : 0;
    size_t part = 0, used = key_width, first_used = key_width;
    for (size_t c = key_end; c < body_end; c++) {
        const size_t need = gap(t, l, c) + l->width[c];
        const bool full = used + need + (part == 0 || l->tail_everywhere ? reserve : 0) > page;
        if (full && used > key_width) {
            part++;
            used = key_width;
        }
        l->part[c] = part;
        used += gap(t, l, c) + l->width[c];
        if (part == 0 || (l->tail_everywhere && used > first_used))
            first_used = used;   /* everywhere: the tail's room is the fullest part's */
    }
    l->n_parts = part + 1;
    if (l->has_tail) {
        l->part[n - 1] = 0;
        const size_t g = gap(t, l, n - 1);
        const size_t room = page > first_used + g ? page - first_used - g : 0;
        l->tail_width = room < tail_least ? tail_least : room < tail_natural ? room
                                                                            : tail_natural;
    }
}

static bool shown(const gp_text_table *t, const layout *l, size_t c, size_t part)
{
    return c < t->n_key || l->part[c] == part ||
           (l->tail_everywhere && c == t->n_columns - 1);
}

/* A name within `width` columns, cut at a readable boundary where it is wider. */
static void put_cut(line_writer *w, const char *text, size_t width)
{
    if (gp_text_columns(text) <= width) {
        put_text(w, text, strlen(text));
        return;
    }
    char cut[4 * GP_TEXT_WIDTH];
    gp_kernel_name_cut(text, width < GP_TEXT_WIDTH ? width : GP_TEXT_WIDTH, cut, sizeof cut);
    put_text(w, cut, strlen(cut));
}

/* One cell in its column: aligned, or the tail cut or wrapped. */
static void put_cell(line_writer *w, const gp_text_table *t, const layout *l, size_t c,
                     const char *text, bool title)
{
    const gp_column_kind kind = t->columns[c].kind;
    const size_t cols = gp_text_columns(text);
    const bool tail = l->has_tail && c == t->n_columns - 1;
    if (tail && !title && kind == GP_COLUMN_NAME) {
        put_cut(w, text, l->tail_width);
    } else if (tail && !title) {
        put_wrapped(w, text, w->column + l->tail_width, w->column);
    } else if (kind == GP_COLUMN_RIGHT) {
        put_spaces(w, l->width[c] > cols ? l->width[c] - cols : 0);
        put_text(w, text, strlen(text));
    } else {
        put_text(w, text, strlen(text));
        put_spaces(w, l->width[c] > cols ? l->width[c] - cols : 0);
    }
}

/* ---- names told apart -------------------------------------------------------------------- */

/* A name row's name: its last cell or its line, past the tag. */
static const char *row_name(const gp_text_table *t, const gp_text_row *row)
{
    const char *s = row->cells ? row->cells[t->n_columns - 1] : row->line;
    return s ? s + row->keep : "";
}

static bool is_name_row(const gp_text_row *row, bool lines)
{
    return row->name && (lines ? !row->cells : row->cells != NULL);
}

/* The distinct names of the name rows (cells or lines) and the widest tag's columns: `names`
 * gets each once, `index` each row's place in it. */
static int distinct_names(const gp_text_table *t, bool lines, const char **names, size_t *n,
                          size_t *index, size_t *tag)
{
    gp_hashmap seen;
    gp_hashmap_init(&seen, sizeof(size_t));
    *n = *tag = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        const gp_text_row *row = &t->rows[r];
        if (!is_name_row(row, lines))
            continue;
        const char *name = row_name(t, row);
        bool added;
        size_t *at = gp_hashmap_add_str(&seen, name, &added);
        if (!at) {
            gp_hashmap_free(&seen);
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        }
        if (added) {
            *at = *n;
            names[(*n)++] = name;
        }
        index[r] = *at;
        const size_t cols = span_width(row->cells ? row->cells[t->n_columns - 1] : row->line,
                                       row->keep);
        *tag = cols > *tag ? cols : *tag;
    }
    gp_hashmap_free(&seen);
    return GP_OK;
}

/* The name rows' texts within `width` (name cells: the last column's room; lines: the
 * page's), each tag kept and the names shortened together so that no two print alike. */
static int fit_names(const gp_text_table *t, layout *l, bool lines, size_t width)
{
    const char **names = calloc(t->n_rows + 1, sizeof *names);
    size_t *index = calloc(t->n_rows + 1, sizeof *index);
    size_t n = 0, tag = 0;
    int rc = names && index ? distinct_names(t, lines, names, &n, index, &tag)
                            : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    /* a column is at most 4 bytes of UTF-8 */
    const size_t stride = 4 * ((width > tag ? width - tag : 0) + GP_KERNEL_NAME_LEAST + 8);
    char *labels = rc == GP_OK && n ? malloc(n * stride) : NULL;
    if (rc == GP_OK && n && !labels)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (labels)
        rc = gp_kernel_names_shorten(names, n, width > tag ? width - tag : 0, labels, stride);
    for (size_t r = 0; rc == GP_OK && labels && r < t->n_rows; r++) {
        const gp_text_row *row = &t->rows[r];
        if (!is_name_row(row, lines))
            continue;
        const char *whole = row->cells ? row->cells[t->n_columns - 1] : row->line;
        const char *label = labels + index[r] * stride;
        l->fitted[r] = malloc(row->keep + strlen(label) + 1);
        if (!l->fitted[r]) {
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
            break;
        }
        snprintf(l->fitted[r], row->keep + strlen(label) + 1, "%.*s%s", (int)row->keep,
                 whole, label);
    }
    free(labels);
    free(names);
    free(index);
    return rc;
}

/* The lines of one part: its title line when `title`, then rows [from, to). */
static void print_lines(FILE *out, const gp_text_table *t, const layout *l, size_t part,
                        size_t page, bool title, size_t from, size_t to)
{
    line_writer w = {out, 0, 0};
    for (long r = title ? -1 : (long)from; r < (long)to; r++) {
        const gp_text_row *row = r < 0 ? NULL : &t->rows[r];
        if (row && row->note) {
            put_spaces(&w, (size_t)row->indent);
            put_wrapped(&w, row->line ? row->line : "", page, (size_t)row->indent);
            end_line(&w);
            continue;
        }
        if (row && !row->cells && l->fitted[r]) {
            put_text(&w, l->fitted[r], strlen(l->fitted[r]));
            end_line(&w);
            continue;
        }
        if (row && !row->cells) {
            put_cut(&w, row->line ? row->line : "", page);
            end_line(&w);
            continue;
        }
        for (size_t c = 0; c < t->n_columns; c++) {
            if (!shown(t, l, c, part))
                continue;
            put_spaces(&w, gap(t, l, c));
            if (row && c == t->n_columns - 1 && l->fitted[r])
                put_text(&w, l->fitted[r], strlen(l->fitted[r]));  /* already fitted */
            else
                put_cell(&w, t, l, c, row ? cell_text(row, c) : t->columns[c].title, !row);
        }
        end_line(&w);
    }
}

int gp_table_print(FILE *out, const gp_text_table *t, size_t width)
{
    if (t->failed)
        return t->failed;
    if (width == GP_TEXT_MARKDOWN) {
        gp_markdown_table(out, t);
        return GP_OK;
    }
    layout l = {.width = calloc(t->n_columns + 1, sizeof(size_t)),
                .part = calloc(t->n_columns + 1, sizeof(size_t)), .n_parts = 1,
                .fitted = calloc(t->n_rows + 1, sizeof(char *))};
    int rc = l.width && l.part && l.fitted ? GP_OK
                                           : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (rc == GP_OK) {
        measure(t, &l);
        assign_parts(t, &l, width);
        /* A name column too narrow for its names takes the body's gaps down to one space. */
        const size_t n = t->n_columns;
        l.narrow = width != SIZE_MAX && l.has_tail && t->columns[n - 1].kind == GP_COLUMN_NAME &&
                   l.tail_width < l.width[n - 1];
        if (l.narrow)
            assign_parts(t, &l, width);
        if (width != SIZE_MAX && l.has_tail)
            rc = fit_names(t, &l, false, l.tail_width);
    }
    if (rc == GP_OK && width != SIZE_MAX)
        rc = fit_names(t, &l, true, width);
    for (size_t p = 0; rc == GP_OK && p < l.n_parts; p++) {
        if (p)
            fputc('\n', out);
        print_lines(out, t, &l, p, width, true, 0, t->n_rows);
    }
    for (size_t r = 0; l.fitted && r < t->n_rows; r++)
        free(l.fitted[r]);
    free(l.fitted);
    free(l.width);
    free(l.part);
    return rc;
}

/* ---- a table written row by row --------------------------------------------------------- */

void gp_table_title_widths(const gp_text_table *t, size_t *widths)
{
    for (size_t c = 0; c < t->n_columns; c++)
        widths[c] = t->columns[c].title ? gp_text_columns(t->columns[c].title) : 0;
}

size_t gp_table_line_width(const gp_text_table *t, const size_t *widths)
{
    size_t used = 0;
    for (size_t c = 0; c < t->n_columns; c++)
        used += gap(t, NULL, c) + widths[c];
    return used;
}

int gp_table_print_rows(FILE *out, const gp_text_table *t, const size_t *widths, bool title,
                        size_t from, size_t to)
{
    if (t->failed)
        return t->failed;
    /* One part, every column in it: the layout gp_table_print finds for a table that fits. */
    layout l = {.width = (size_t *)widths, .part = calloc(t->n_columns + 1, sizeof(size_t)),
                .n_parts = 1, .fitted = calloc(t->n_rows + 1, sizeof(char *))};
    /* no name fitted: written whole */
    if (!l.part || !l.fitted) {
        free(l.part);
        free(l.fitted);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    print_lines(out, t, &l, 0, SIZE_MAX, title, from, to < t->n_rows ? to : t->n_rows);
    free(l.part);
    free(l.fitted);
    return GP_OK;
}
