/* The JSON-input layer: documents read strictly (exactly one JSON value, nothing after it
 * but white space), every problem recorded with gp_fail() as
 * "<file>: <JSON path>: <what is wrong>" (results[0].timing: expected an object), the first
 * one only. Text is checked before it is parsed (at most GP_JSON_READ_LIMIT bytes, UTF-8, at
 * most GP_JSON_MAX_DEPTH levels deep); a value is taken by its key through a typed getter that
 * checks its type and range and never fills anything in by default.
 *
 * The layer's rule: it knows JSON, not a schema. What a document holds is its reader's: the
 * report's in report/load*.c, gpuprof exec's records in records/read*.c. */
#ifndef GPUPROF_JSON_IN_H
#define GPUPROF_JSON_IN_H

#include "gpuprof/types.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_JSON_READ_LIMIT ((size_t)1 << 30)    /* 1 GiB: an exec report of millions of launches */
#define GP_JSON_MAX_DEPTH 32                    /* the report's deepest value is 6 levels down */

/* Where a reader is, for its messages. */
typedef struct {
    const char *file;      /* the document's name as messages give it */
    char path[512];        /* "results[0].timing", "" at the top level */
} gp_json_reader;

/* Record "<file>: <path>: <what>" (no path at the top level); returns GP_ERR_RUNTIME. */
int gp_json_fail(const gp_json_reader *rd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Step into a key or an element; gp_json_leave(rd, what they returned) steps back out. */
size_t gp_json_enter_key(gp_json_reader *rd, const char *key);
size_t gp_json_enter_index(gp_json_reader *rd, size_t i);
void gp_json_leave(gp_json_reader *rd, size_t at);

/* o[key], or NULL (no error: for keys that may be left out). */
const cJSON *gp_json_field(const cJSON *o, const char *key);

/* The value of a required key. */
int gp_json_need(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out);
/* Unless ok: "<key>: expected <what>". */
int gp_json_expect(gp_json_reader *rd, const char *key, bool ok, const char *what);

/* ---- typed getters: the value of a required key ---------------------------------------- */

/* An object (nullable: or null, *out NULL then). */
int gp_json_get_object(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out,
                       bool nullable);
int gp_json_get_array(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out);
/* A string, as the document holds it (it lasts as long as the document). */
int gp_json_get_text(gp_json_reader *rd, const cJSON *o, const char *key, const char **out);
/* A string that fits in len bytes, copied into dst. */
int gp_json_get_string(gp_json_reader *rd, const cJSON *o, const char *key, char *dst,
                       size_t len);
/* A string copied to the heap (nullable: or null, *out NULL then). */
int gp_json_get_string_copy(gp_json_reader *rd, const cJSON *o, const char *key, char **out,
                            bool nullable);
/* A finite number of at least `min` (nullable: or null, NAN then). */
int gp_json_get_number(gp_json_reader *rd, const cJSON *o, const char *key, double min,
                       bool nullable, double *out);
/* The same of a key that may be left out: NAN then. */
int gp_json_get_optional_number(gp_json_reader *rd, const cJSON *o, const char *key,
                                double min, double *out);
/* A whole number from min to max (and below 2^53, where every integer is exact): a value
 * at the reader's path (an element, say). No out-of-range double is ever cast. */
int gp_json_whole_number(gp_json_reader *rd, const cJSON *v, uint64_t min, uint64_t max,
                         uint64_t *out);
/* A 64-bit code (a cubin's CRC): a whole number, or a string of its decimal digits (a JSON
 * number is a double, exact only below 2^53); `optional`: 0 when the key is absent. */
int gp_json_get_code(gp_json_reader *rd, const cJSON *o, const char *key, bool optional,
                     uint64_t *out);
int gp_json_get_integer(gp_json_reader *rd, const cJSON *o, const char *key, uint64_t min,
                        uint64_t max, uint64_t *out);
int gp_json_get_uint(gp_json_reader *rd, const cJSON *o, const char *key, unsigned min,
                     unsigned *out);
int gp_json_get_int(gp_json_reader *rd, const cJSON *o, const char *key, int min, int *out);
int gp_json_get_bool(gp_json_reader *rd, const cJSON *o, const char *key, bool *out);
/* One of `names` (its index in *out); null gives -1 when nullable. */
int gp_json_get_enum(gp_json_reader *rd, const cJSON *o, const char *key,
                     const char *const *names, size_t n, bool nullable, int *out);
/* The array `a` (o[key]) of exactly n whole numbers from min to max, into out[]; `what` says
 * what was expected ("three whole numbers"). */
int gp_json_get_wholes(gp_json_reader *rd, const cJSON *a, const char *key, size_t n,
                       uint64_t min, uint64_t max, const char *what, uint64_t *out);
/* [x, y, z] of whole numbers. */
int gp_json_get_dim(gp_json_reader *rd, const cJSON *o, const char *key, gp_dim3 *d);
/* A place in the source: "file" (not empty) and "line" (from 1), both or neither (code
 * without line information: NULL and 0); the file points into the document. The records'
 * source and stall lines and the report's stall instructions have it. */
int gp_json_get_file_line(gp_json_reader *rd, const cJSON *o, const char **file,
                          uint32_t *line);

/* Reads one value (an object, an element) into ctx, the reader's path at the value. */
typedef int (*gp_json_value_reader)(gp_json_reader *rd, const cJSON *value, void *ctx);
/* The object o[key], read by read() with the key on the path (nullable: or null, then not
 * read). */
int gp_json_read_object(gp_json_reader *rd, const cJSON *o, const char *key, bool nullable,
                        gp_json_value_reader read, void *ctx);
/* Each element of the array o[key], read by read() with its index on the path; the first
 * failure ends it. */
int gp_json_read_each(gp_json_reader *rd, const cJSON *o, const char *key,
                      gp_json_value_reader read, void *ctx);

/* Each element of the array o[key], a string, given to add(ctx, string) (messages say the
 * element's index). */
typedef int (*gp_json_string_sink)(void *ctx, const char *string);
int gp_json_read_strings(gp_json_reader *rd, const cJSON *o, const char *key,
                         gp_json_string_sink add, void *ctx);
/* Each element of the array o[key], an object ("expected an object" otherwise), read by
 * read() as gp_json_read_each reads it; read NULL: the objects are only checked. */
int gp_json_read_objects(gp_json_reader *rd, const cJSON *o, const char *key,
                         gp_json_value_reader read, void *ctx);

/* ---- text and files ------------------------------------------------------------------------ */

/* The document in text (`name` labels the messages), checked and parsed: *root to be freed
 * with cJSON_Delete. */
int gp_json_parse(const char *text, size_t len, const char *name, cJSON **root);
/* The line on which a JSON object or array begins after other text (lines a program printed
 * before it), or 0: the text begins with one, or no later line starts one that parses. For a
 * message about a document that did not parse. */
size_t gp_json_begins_later(const char *text, size_t len);
/* The whole file ("-": standard input), at most GP_JSON_READ_LIMIT + 1 bytes (one more tells
 * gp_json_parse it is too large): *text to be freed. */
int gp_json_read_file(const char *path, char **text, size_t *len);

#endif
