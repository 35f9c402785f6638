/* A report part as a table: its columns declared once, as rows of data (key, headings, unit,
 * number format, how to get the value, which views show it, its legend), so that one
 * renderer per format prints any such table (src/render/part.c: text and Markdown, CSV,
 * HTML, JSON) and one loader reads its JSON back (src/report/part.c). A part is then
 * its rows and its declaration; what is not a table (headings, notes, warnings) stays a small
 * function beside it. The parts' declarations: gpuprof/report_parts.h. */
#ifndef GPUPROF_PART_H
#define GPUPROF_PART_H

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a number is written for people (text, Markdown) and on a page (HTML). CSV writes
 * "%.10g" and JSON a number, whatever the format (but a flag's, an absent cell's and a
 * count's, below); an unknown number (NAN) is "-" for people, empty in CSV and null in JSON. */
typedef enum {
    GP_NUMBER_COLUMN = 0,       /* a cell's: the column's format */
    GP_NUMBER_WHOLE,            /* "12345" */
    GP_NUMBER_MS,               /* text "850ns", "3.80us", "12.35ms"; HTML "%.4f" */
    GP_NUMBER_BYTES,            /* text "4.19MB" (decimal); HTML the whole number */
    GP_NUMBER_FIXED1,           /* "12.3" */
    GP_NUMBER_FIXED2,           /* "12.35" */
    GP_NUMBER_PERCENT2,         /* text "12.34%"; HTML "12.34" */
    GP_NUMBER_PERCENT1,         /* text "12.3%"; HTML "12.3" */
    GP_NUMBER_SIGNED_PERCENT1,  /* against a reference: text "+12.3%"; HTML "+12.3" */
    GP_NUMBER_RATIO2,           /* text "1.52x"; HTML "1.52" */
    GP_NUMBER_FLAG,             /* 1 or 0: "1" or "0" in CSV, true or false in JSON (and read
                                   back from them) */
    GP_NUMBER_ABSENT,           /* a cell's, for a key only some rows have: JSON leaves its
                                   key out; empty in CSV, "-" for people */
    GP_NUMBER_SIGNED1,          /* a change: "+12.3" */
    GP_NUMBER_COUNT,            /* "12345678901": a count, whole in CSV too however many
                                   digits (where "%.10g" would round it) */
    GP_NUMBER_WORDED,           /* a number whose word for people its getter made (in the
                                   cell's text: a metric's value with its unit's precision,
                                   "n/a" when unknown): text and HTML show the word, CSV and
                                   JSON the number */
    GP_NUMBER_FORMATS
} gp_number_format;

/* Where a text column's cells sit: numbers right, words left; a last column of prose (word
 * wrapped) or of kernel names (cut at a readable boundary to the room left). */
typedef enum { GP_ALIGN_RIGHT, GP_ALIGN_LEFT, GP_ALIGN_PROSE, GP_ALIGN_NAME } gp_align;

/* The views (Markdown shows what text shows), and the flags of those a column shows in. */
typedef enum { GP_VIEW_TEXT, GP_VIEW_CSV, GP_VIEW_HTML, GP_VIEW_JSON, GP_PART_VIEWS } gp_part_view;
enum {
    GP_IN_TEXT = 1u << GP_VIEW_TEXT,
    GP_IN_CSV = 1u << GP_VIEW_CSV,
    GP_IN_HTML = 1u << GP_VIEW_HTML,
    GP_IN_JSON = 1u << GP_VIEW_JSON,
    GP_IN_ALL = 15u
};

/* One cell's value: a word (text not NULL) or a number (NAN: unknown). A name cell's tag
 * ("#3 ", "" for none) is kept whole before the name when text cuts it, the name shortened
 * to stay apart from the column's others (the page writes it before the word); a cell of a
 * name column without a tag is cut as any last column is. An estimated number says why
 * (`approx`): people read "~" before it, and the page the reason on hover
 * (GP_CELL_ESTIMATED: none, the view says it elsewhere). */
typedef struct {
    const char *text;
    double number;
    gp_number_format format;    /* GP_NUMBER_COLUMN: the column's */
    const char *tag;
    const char *approx;
    const char *title;          /* the page's words on hover (a number's estimate: its
                                   approx instead); NULL: none */
    size_t footnote;            /* the page's: its note's number among those listed under
                                   the table, after the word as <sup>[N]</sup>; 0: none */
} gp_cell;

/* A number of any arithmetic type (a count, a flag, a difference of pointers) or a word. */
#define GP_CELL_NUMBER(v) ((gp_cell){.number = (double)(v)})
#define GP_CELL_TEXT(s) ((gp_cell){.text = (s)})
/* An estimate whose reason the view gives beside the table, not on the cell. */
#define GP_CELL_ESTIMATED ""
/* A number cell JSON leaves out (its key only some rows have); empty in CSV, "-" for people. */
#define GP_CELL_ABSENT ((gp_cell){.number = NAN, .format = GP_NUMBER_ABSENT})

/* A row's cell of a column; buf (len bytes) holds a word made for it. ctx: the part's
 * context, as the renderer was given it. */
typedef gp_cell gp_cell_getter(const void *row, const void *ctx, char *buf, size_t len);
/* The getter of a column a part makes at run time, one of several alike but for `at` (a line
 * of a chart): a row's cell of the column, told which it is. */
typedef gp_cell gp_cell_getter_at(const void *row, const void *ctx, size_t at, char *buf,
                                  size_t len);
/* JSON read back: the value stored in the row; NULL, or why it is refused ("must be from 1
 * to 9007199254740992", in why) when it is out of its range. A keyed part's rows are kept
 * only where their key column's setter takes the key (a newer gpuprof's are passed over). */
typedef const char *gp_cell_setter(void *row, const gp_cell *value, char *why, size_t len);
/* Whether a column is shown to people (text, Markdown, HTML) for a part's context (NULL:
 * always). CSV and JSON carry every column they have, whatever the context, so that a CSV
 * header and a JSON object keep their keys. */
typedef bool gp_column_when(const void *ctx);
/* The page's class of a row's <tr> (a failed result, the slowest rank); NULL: none. */
typedef const char *gp_row_class(const void *row, const void *ctx);

/* A column that shows one number field of its row as it is needs no getter: it names the
 * field (GP_PART_FIELD), whose type picks how it is read. */
typedef enum {
    GP_FIELD_NONE = 0, GP_FIELD_DOUBLE, GP_FIELD_INT, GP_FIELD_UNSIGNED, GP_FIELD_ULONG,
    GP_FIELD_ULLONG, GP_FIELD_BOOL
} gp_field_kind;
#define GP_FIELD_KIND_OF(x)                                                                    \
    _Generic((x), double: GP_FIELD_DOUBLE, int: GP_FIELD_INT, unsigned: GP_FIELD_UNSIGNED,     \
             unsigned long: GP_FIELD_ULONG, unsigned long long: GP_FIELD_ULLONG,               \
             bool: GP_FIELD_BOOL)
/* In a column's declaration, in place of .get: the row's number field `field`. */
#define GP_PART_FIELD(row_type, field)                                                         \
    .field_kind = GP_FIELD_KIND_OF(((row_type *)0)->field), .field_at = offsetof(row_type, field)

typedef struct {
    const char *key;            /* JSON's and CSV's name */
    const char *header;         /* text's and Markdown's heading */
    const char *html;           /* the HTML heading; NULL: the key */
    const char *unit;           /* "ms", "bytes", "GB/s"; NULL: none */
    gp_number_format format;    /* numbers; GP_NUMBER_COLUMN: a word column */
    gp_align align;
    int gap;                    /* text: spaces before it */
    unsigned in;                /* GP_IN_* */
    gp_cell_getter *get;
    gp_cell_setter *set;        /* NULL: derived, not read back */
    gp_column_when *when;
    const char *legend;         /* what the column means, for legends and the schema */
    const char *html_class;     /* the page's class of its cells (NULL: "num" for numbers);
                                   one starting "num" makes its heading a number's too */
    bool html_word_heading;     /* the page's heading a word's (<th>) whatever its cells */
    gp_cell_getter_at *get_at;  /* a column made at run time (get NULL): its getter, told */
    size_t at;                  /* which of the columns alike it is */
    gp_field_kind field_kind;   /* GP_PART_FIELD's (get NULL): the field's type, where it is */
    size_t field_at;
} gp_part_column;

/* The most columns a part declares. */
#define GP_PART_MAX_COLUMNS 64

/* A view's own order of a part's columns where it differs from the declaration's: their
 * indices in the declaration, each a column shown in that view (tests/unit/test_parts.c
 * holds every order to its view's columns). */
typedef struct {
    const unsigned char *columns;
    size_t n;
} gp_part_order;

#define GP_PART_ORDER(...)                                                                     \
    {.columns = (const unsigned char[]){__VA_ARGS__},                                          \
     .n = sizeof((const unsigned char[]){__VA_ARGS__})}

typedef struct {
    const char *key;            /* the JSON array's (or keyed object's) key */
    const gp_part_column *columns;
    size_t n_columns;
    size_t n_key;               /* text: the columns every part of a wrapped table repeats */
    size_t row_size;            /* a row's bytes, for the loader */
    int json_keyed_by;          /* >= 0: JSON is an object keyed by this column's word,
                                   each row an object without it; -1: an array of rows */
    gp_part_order order[GP_PART_VIEWS];  /* n 0: the declaration's order */
    gp_row_class *html_row_class;        /* NULL: no row has a class */
} gp_part;

#define GP_PART_DECLARE(name_key, cols, key_columns, row_type, keyed_by)                     \
    {.key = (name_key), .columns = (cols), .n_columns = sizeof(cols) / sizeof(cols)[0],        \
     .n_key = (key_columns), .row_size = sizeof(row_type), .json_keyed_by = (keyed_by)}

/* Whether column c of t shows in a view (GP_IN_*) for the part's context. */
bool gp_part_shows(const gp_part *t, size_t c, unsigned view, const void *ctx);
/* The columns a view shows for the part's context, in the view's order: their indices in
 * cols[] (room for GP_PART_MAX_COLUMNS), their number. */
size_t gp_part_columns(const gp_part *t, gp_part_view view, const void *ctx, size_t *cols);

/* A row's cell of column c (buf holds a word made for it). */
gp_cell gp_part_cell(const gp_part *t, size_t c, const void *row, const void *ctx,
                         char *buf, size_t len);
/* The row at index i of an array of t's rows. */
const void *gp_part_row_at(const gp_part *t, const void *rows, size_t i);

/* A setter's check of a whole number from min to max (and below 2^53, where every whole
 * number is exact): NULL with *out set, or why not, as the JSON reader says it. */
const char *gp_part_whole(const gp_cell *v, uint64_t min, uint64_t max, uint64_t *out,
                          char *why, size_t len);
/* A setter's check of a number of at least min, or null (NAN): NULL with *out set, or why
 * not, as the JSON reader says it. */
const char *gp_part_at_least(const gp_cell *v, double min, double *out, char *why, size_t len);
/* A setter's check of a word among names[0..n): NULL with *out its index, or why not, as
 * the JSON reader says it ("expected one of 'memcpy', 'memcpy HtoD', ..."). */
const char *gp_part_enum(const gp_cell *v, const char *const *names, size_t n, int *out,
                         char *why, size_t len);

/* ---- getters and setters of one expression ----------------------------------------------
 * Most of a part's cells are one expression of its row (and now and then of its context),
 * and most of its setters one check of one field. A part declares those with the macros
 * below rather than writing each function out, so that the functions' frame (the casts of
 * row and context, the parameters a cell does not use) is written once for every part.
 * In a getter's expression, r is the row (const row_type *) and c the context
 * (const ctx_type *; void where the cell needs none); buf and len, as the getter has them,
 * hold a word made for the cell. A getter with statements of its own stays a function. */
#define GP_PART_GETTER(name, row_type, ctx_type, cell)                                         \
    static gp_cell name(const void *row, const void *ctx, char *buf, size_t len)               \
    {                                                                                          \
        const row_type *r = row;                                                               \
        const ctx_type *c = ctx;                                                               \
        (void)r, (void)c, (void)buf, (void)len;                                                \
        return cell;                                                                           \
    }
/* A number cell: `value`, of any arithmetic type (NAN: unknown). */
#define GP_PART_NUMBER_GETTER(name, row_type, ctx_type, value)                                 \
    GP_PART_GETTER(name, row_type, ctx_type, GP_CELL_NUMBER(value))
/* A word cell: `text`, a string that outlives the cell (one made for it goes in buf). */
#define GP_PART_TEXT_GETTER(name, row_type, ctx_type, text)                                    \
    GP_PART_GETTER(name, row_type, ctx_type, GP_CELL_TEXT(text))

/* A setter whose answer is `check` (NULL, or why, written in why), of the value v and the
 * row r (row_type *). */
#define GP_PART_SETTER(name, row_type, check)                                                  \
    static const char *name(void *row, const gp_cell *v, char *why, size_t len)                \
    {                                                                                          \
        row_type *r = row;                                                                     \
        (void)r, (void)v, (void)why, (void)len;                                                \
        return check;                                                                          \
    }
/* A whole number from min to max (gp_part_whole) into `into`, an lvalue of r of any integer
 * type that holds max; min and max may read r, whose earlier columns are read already (the
 * loader reads a row's columns in their order). A refused value leaves `into` as it was:
 * the loader then drops the row or the document. */
#define GP_PART_WHOLE_SETTER(name, row_type, into, min, max)                                   \
    static const char *name(void *row, const gp_cell *v, char *why, size_t len)                \
    {                                                                                          \
        row_type *r = row;                                                                     \
        uint64_t whole;                                                                        \
        const char *bad = gp_part_whole(v, (min), (max), &whole, why, len);                    \
        if (!bad)                                                                              \
            (into) = whole;                                                                    \
        return bad;                                                                            \
    }
/* A word among names[0..n) (gp_part_enum) into `into`, an enum of r: the word's index. */
#define GP_PART_ENUM_SETTER(name, row_type, into, names, n)                                    \
    static const char *name(void *row, const gp_cell *v, char *why, size_t len)                \
    {                                                                                          \
        row_type *r = row;                                                                     \
        int found;                                                                             \
        const char *bad = gp_part_enum(v, (names), (n), &found, why, len);                     \
        if (!bad)                                                                              \
            (into) = found;                                                                    \
        return bad;                                                                            \
    }
/* A flag (JSON's true or false, read as 1 or 0) into the bool `into`; the reader has
 * checked its type, the whole check. */
#define GP_PART_FLAG_SETTER(name, row_type, into)                                              \
    GP_PART_SETTER(name, row_type, ((into) = v->number != 0, NULL))
/* A word into `into`: the document's own string, which lasts as long as the document (the
 * loader copies what it keeps). */
#define GP_PART_TEXT_SETTER(name, row_type, into)                                              \
    GP_PART_SETTER(name, row_type, ((into) = (char *)v->text, NULL))

#endif
