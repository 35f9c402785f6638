/* The JSON-input layer of report/json_in.h: the reader's path and first problem, the typed
 * getters, the text's checks before parsing, and whole files. It knows JSON, not a schema. */
#include "report/json_in.h"

#include "gpuprof/status.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define INTEGER_LIMIT 9007199254740992.0 /* 2^53: every integer below is exact in a double */

/* ---- where the reader is, and the first problem ------------------------------------------- */

int gp_json_fail(const gp_json_reader *rd, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rd->path[0])
        return gp_fail(GP_ERR_RUNTIME, "%s: %s: %s", rd->file, rd->path, what);
    return gp_fail(GP_ERR_RUNTIME, "%s: %s", rd->file, what);
}

size_t gp_json_enter_key(gp_json_reader *rd, const char *key)
{
    const size_t at = strlen(rd->path);
    snprintf(rd->path + at, sizeof rd->path - at, "%s%s", at ? "." : "", key);
    return at;
}

size_t gp_json_enter_index(gp_json_reader *rd, size_t i)
{
    const size_t at = strlen(rd->path);
    snprintf(rd->path + at, sizeof rd->path - at, "[%zu]", i);
    return at;
}

void gp_json_leave(gp_json_reader *rd, size_t at)
{
    rd->path[at] = '\0';
}

const cJSON *gp_json_field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* The problem `what` of o[key], said at the key. */
static int fail_at_key(gp_json_reader *rd, const char *key, const char *what)
{
    const size_t at = gp_json_enter_key(rd, key);
    int rc = gp_json_fail(rd, "%s", what);
    gp_json_leave(rd, at);
    return rc;
}

/* ---- values -------------------------------------------------------------------------------- */

int gp_json_need(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out)
{
    *out = gp_json_field(o, key);
    return *out ? GP_OK : fail_at_key(rd, key, "missing");
}

int gp_json_expect(gp_json_reader *rd, const char *key, bool ok, const char *what)
{
    if (ok)
        return GP_OK;
    char expected[256];
    snprintf(expected, sizeof expected, "expected %s", what);
    return fail_at_key(rd, key, expected);
}

int gp_json_get_object(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out,
                       bool nullable)
{
    GP_TRY(gp_json_need(rd, o, key, out));
    if (nullable && cJSON_IsNull(*out)) {
        *out = NULL;
        return GP_OK;
    }
    return gp_json_expect(rd, key, cJSON_IsObject(*out),
                          nullable ? "an object or null" : "an object");
}

int gp_json_get_array(gp_json_reader *rd, const cJSON *o, const char *key, const cJSON **out)
{
    GP_TRY(gp_json_need(rd, o, key, out));
    return gp_json_expect(rd, key, cJSON_IsArray(*out), "an array");
}

int gp_json_get_text(gp_json_reader *rd, const cJSON *o, const char *key, const char **out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    GP_TRY(gp_json_expect(rd, key, cJSON_IsString(v), "a string"));
    *out = v->valuestring;
    return GP_OK;
}

int gp_json_get_string(gp_json_reader *rd, const cJSON *o, const char *key, char *dst,
                       size_t len)
{
    const char *text;
    GP_TRY(gp_json_get_text(rd, o, key, &text));
    const size_t n = strlen(text);
    if (n >= len) {
        const size_t at = gp_json_enter_key(rd, key);
        int rc = gp_json_fail(rd, "longer than %zu characters", len - 1);
        gp_json_leave(rd, at);
        return rc;
    }
    memcpy(dst, text, n + 1);
    return GP_OK;
}

int gp_json_get_string_copy(gp_json_reader *rd, const cJSON *o, const char *key, char **out,
                            bool nullable)
{
    const cJSON *v;
    *out = NULL;
    GP_TRY(gp_json_need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v))
        return GP_OK;
    GP_TRY(gp_json_expect(rd, key, cJSON_IsString(v),
                          nullable ? "a string or null" : "a string"));
    *out = strdup(v->valuestring);
    return *out ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

int gp_json_get_number(gp_json_reader *rd, const cJSON *o, const char *key, double min,
                       bool nullable, double *out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v)) {
        *out = NAN;
        return GP_OK;
    }
    GP_TRY(gp_json_expect(rd, key, cJSON_IsNumber(v) && isfinite(v->valuedouble),
                          nullable ? "a number or null" : "a number"));
    if (v->valuedouble < min) {
        const size_t at = gp_json_enter_key(rd, key);
        int rc = gp_json_fail(rd, "must be at least %g", min);
        gp_json_leave(rd, at);
        return rc;
    }
    *out = v->valuedouble;
    return GP_OK;
}

int gp_json_get_optional_number(gp_json_reader *rd, const cJSON *o, const char *key,
                                double min, double *out)
{
    *out = NAN;
    return gp_json_field(o, key) ? gp_json_get_number(rd, o, key, min, false, out) : GP_OK;
}

int gp_json_whole_number(gp_json_reader *rd, const cJSON *v, uint64_t min, uint64_t max,
                         uint64_t *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble))
        return gp_json_fail(rd, "expected a whole number");
    const double d = v->valuedouble;
    if (d < (double)min || d > (double)max || d >= INTEGER_LIMIT)
        return gp_json_fail(rd, "must be from %llu to %llu", (unsigned long long)min,
                            (unsigned long long)(max < INTEGER_LIMIT ? max
                                                                     : (uint64_t)INTEGER_LIMIT));
    *out = (uint64_t)d;
    return GP_OK;
}

int gp_json_get_integer(gp_json_reader *rd, const cJSON *o, const char *key, uint64_t min,
                        uint64_t max, uint64_t *out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    const size_t at = gp_json_enter_key(rd, key);
    int rc = gp_json_whole_number(rd, v, min, max, out);
    gp_json_leave(rd, at);
    return rc;
}

/* 2^64: a whole number below it fits a uint64_t. */
#define TWO_TO_64 18446744073709551616.0

int gp_json_get_code(gp_json_reader *rd, const cJSON *o, const char *key, bool optional,
                     uint64_t *out)
{
    *out = 0;
    const cJSON *v = gp_json_field(o, key);
    if (!v && optional)
        return GP_OK;
    GP_TRY(gp_json_need(rd, o, key, &v));
    const size_t at = gp_json_enter_key(rd, key);
    int rc = GP_OK;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 &&
        v->valuedouble < TWO_TO_64 && v->valuedouble == floor(v->valuedouble)) {
        *out = (uint64_t)v->valuedouble;
    } else if (cJSON_IsString(v) && v->valuestring[0] &&
               strspn(v->valuestring, "0123456789") == strlen(v->valuestring)) {
        errno = 0;
        *out = strtoull(v->valuestring, NULL, 10);
        if (errno)
            rc = gp_json_fail(rd, "more than 64 bits");
    } else {
        rc = gp_json_fail(rd, "expected a whole number, or its decimal digits as a string");
    }
    gp_json_leave(rd, at);
    return rc;
}

int gp_json_get_uint(gp_json_reader *rd, const cJSON *o, const char *key, unsigned min,
                     unsigned *out)
{
    uint64_t v;
    GP_TRY(gp_json_get_integer(rd, o, key, min, UINT_MAX, &v));
    *out = (unsigned)v;
    return GP_OK;
}

int gp_json_get_int(gp_json_reader *rd, const cJSON *o, const char *key, int min, int *out)
{
    uint64_t v;
    GP_TRY(gp_json_get_integer(rd, o, key, (uint64_t)min, INT_MAX, &v));
    *out = (int)v;
    return GP_OK;
}

int gp_json_get_bool(gp_json_reader *rd, const cJSON *o, const char *key, bool *out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    GP_TRY(gp_json_expect(rd, key, cJSON_IsBool(v), "true or false"));
    *out = cJSON_IsTrue(v);
    return GP_OK;
}

int gp_json_get_enum(gp_json_reader *rd, const cJSON *o, const char *key,
                     const char *const *names, size_t n, bool nullable, int *out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    if (nullable && cJSON_IsNull(v)) {
        *out = -1;
        return GP_OK;
    }
    for (size_t i = 0; cJSON_IsString(v) && i < n; i++)
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (int)i;
            return GP_OK;
        }
    char valid[128] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s'%s'",
                 i ? ", " : "one of ", names[i]);
    return gp_json_expect(rd, key, false, valid);
}

int gp_json_get_wholes(gp_json_reader *rd, const cJSON *a, const char *key, size_t n,
                       uint64_t min, uint64_t max, const char *what, uint64_t *out)
{
    GP_TRY(gp_json_expect(rd, key, cJSON_IsArray(a) && (size_t)cJSON_GetArraySize(a) == n,
                          what));
    const size_t at = gp_json_enter_key(rd, key);
    int rc = GP_OK;
    for (size_t i = 0; i < n && rc == GP_OK; i++) {
        const size_t at_i = gp_json_enter_index(rd, i);
        rc = gp_json_whole_number(rd, cJSON_GetArrayItem(a, (int)i), min, max, &out[i]);
        gp_json_leave(rd, at_i);
    }
    gp_json_leave(rd, at);
    return rc;
}

int gp_json_get_dim(gp_json_reader *rd, const cJSON *o, const char *key, gp_dim3 *d)
{
    const cJSON *a;
    GP_TRY(gp_json_need(rd, o, key, &a));
    if (cJSON_IsNull(a)) {      /* a library call's launch shape, not captured */
        *d = (gp_dim3){0, 0, 0};
        return GP_OK;
    }
    uint64_t xyz[3];
    GP_TRY(gp_json_get_wholes(rd, a, key, 3, 0, UINT_MAX, "three whole numbers", xyz));
    *d = (gp_dim3){(unsigned)xyz[0], (unsigned)xyz[1], (unsigned)xyz[2]};
    return GP_OK;
}

int gp_json_get_file_line(gp_json_reader *rd, const cJSON *o, const char **file,
                          uint32_t *line)
{
    *file = NULL;
    *line = 0;
    const bool has_file = gp_json_field(o, "file") != NULL;
    GP_TRY(gp_json_expect(rd, "line", has_file == (gp_json_field(o, "line") != NULL),
                          "a line with its file, or neither"));
    if (!has_file)
        return GP_OK;
    uint64_t number;
    GP_TRY(gp_json_get_text(rd, o, "file", file));
    GP_TRY(gp_json_expect(rd, "file", (*file)[0] != '\0', "a file name"));
    GP_TRY(gp_json_get_integer(rd, o, "line", 1, UINT32_MAX, &number));
    *line = (uint32_t)number;
    return GP_OK;
}

int gp_json_read_object(gp_json_reader *rd, const cJSON *o, const char *key, bool nullable,
                        gp_json_value_reader read, void *ctx)
{
    const cJSON *object;
    GP_TRY(gp_json_get_object(rd, o, key, &object, nullable));
    if (!object)
        return GP_OK;
    const size_t at = gp_json_enter_key(rd, key);
    const int rc = read(rd, object, ctx);
    gp_json_leave(rd, at);
    return rc;
}

int gp_json_read_each(gp_json_reader *rd, const cJSON *o, const char *key,
                      gp_json_value_reader read, void *ctx)
{
    const cJSON *a, *item;
    GP_TRY(gp_json_get_array(rd, o, key, &a));
    const size_t at = gp_json_enter_key(rd, key);
    size_t i = 0;
    int rc = GP_OK;
    cJSON_ArrayForEach(item, a)
    {
        const size_t at_i = gp_json_enter_index(rd, i++);
        rc = read(rd, item, ctx);
        gp_json_leave(rd, at_i);
        if (rc != GP_OK)
            break;
    }
    gp_json_leave(rd, at);
    return rc;
}

/* What an array's elements of one type are handed to: a string to add, an object to read. */
typedef struct {
    gp_json_string_sink add;
    gp_json_value_reader read;   /* NULL: objects only checked */
    void *ctx;
} element_reader;

static int read_string(gp_json_reader *rd, const cJSON *item, void *reader)
{
    const element_reader *r = reader;
    return cJSON_IsString(item) ? r->add(r->ctx, item->valuestring)
                                : gp_json_fail(rd, "expected a string");
}

static int read_object(gp_json_reader *rd, const cJSON *item, void *reader)
{
    const element_reader *r = reader;
    if (!cJSON_IsObject(item))
        return gp_json_fail(rd, "expected an object");
    return r->read ? r->read(rd, item, r->ctx) : GP_OK;
}

int gp_json_read_strings(gp_json_reader *rd, const cJSON *o, const char *key,
                         gp_json_string_sink add, void *ctx)
{
    element_reader r = {.add = add, .ctx = ctx};
    return gp_json_read_each(rd, o, key, read_string, &r);
}

int gp_json_read_objects(gp_json_reader *rd, const cJSON *o, const char *key,
                         gp_json_value_reader read, void *ctx)
{
    element_reader r = {.read = read, .ctx = ctx};
    return gp_json_read_each(rd, o, key, read_object, &r);
}

/* ---- the text ---------------------------------------------------------------------------- */

/* Well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF); else the
 * offset of the first bad byte. */
static bool valid_utf8(const unsigned char *s, size_t n, size_t *bad_at)
{
    for (size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                 : (c & 0xf8) == 0xf0 ? 4 : 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
        bool ok = len > 0 && i + len <= n;
        for (size_t k = 1; ok && k < len; k++) {
            ok = (s[i + k] & 0xc0) == 0x80;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        ok = ok && !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) &&
             !(len == 4 && (cp < 0x10000 || cp > 0x10ffff)) && !(cp >= 0xd800 && cp <= 0xdfff);
        if (!ok) {
            *bad_at = i;
            return false;
        }
        i += len;
    }
    return true;
}

/* Deeper than GP_JSON_MAX_DEPTH nested arrays or objects (outside strings)? */
static bool too_deep(const char *s, size_t n)
{
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        const char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > GP_JSON_MAX_DEPTH)
                return true;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return false;
}

/* Line and column of a byte offset, for a parse error. */
static void position(const char *text, size_t offset, size_t *line, size_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

/* The offset of the first byte from `at` on that is not JSON's white space, or len. */
static size_t after_white_space(const char *text, size_t len, size_t at)
{
    while (at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' ||
                        text[at] == '\n'))
        at++;
    return at;
}

int gp_json_parse(const char *text, size_t len, const char *name, cJSON **root)
{
    size_t at;
    *root = NULL;
    if (len > GP_JSON_READ_LIMIT)
        return gp_fail(GP_ERR_RUNTIME, "%s: larger than %zu MiB, the most gpuprof reads", name,
                       GP_JSON_READ_LIMIT >> 20);
    if (!valid_utf8((const unsigned char *)text, len, &at))
        return gp_fail(GP_ERR_RUNTIME, "%s: not UTF-8 text (byte %zu)", name, at);
    if (too_deep(text, len))
        return gp_fail(GP_ERR_RUNTIME, "%s: nested deeper than %d levels", name,
                       GP_JSON_MAX_DEPTH);
    const char *end = NULL;
    *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    size_t line, column;
    if (!*root) {
        position(text, end && end >= text ? (size_t)(end - text) : 0, &line, &column);
        return gp_fail(GP_ERR_RUNTIME, "%s: not valid JSON (line %zu, column %zu)", name, line,
                       column);
    }
    const size_t rest = after_white_space(text, len, (size_t)(end - text));
    if (rest == len)
        return GP_OK;
    cJSON_Delete(*root);
    *root = NULL;
    position(text, rest, &line, &column);
    return gp_fail(GP_ERR_RUNTIME, "%s: text after the JSON document (line %zu, column %zu)",
                   name, line, column);
}

/* The first at most this many lines that open an object or array are tried: a text of many
 * such lines that never parse costs no more than a few passes over it. */
#define BEGINS_LATER_TRIES 16

size_t gp_json_begins_later(const char *text, size_t len)
{
    const size_t first = after_white_space(text, len, 0);
    if (first == len || text[first] == '{' || text[first] == '[')
        return 0;
    size_t line = 1;
    int tries = 0;
    for (size_t i = 0; i + 1 < len && tries < BEGINS_LATER_TRIES; i++) {
        if (text[i] != '\n')
            continue;
        line++;
        if (text[i + 1] != '{' && text[i + 1] != '[')
            continue;
        tries++;
        cJSON *doc = cJSON_ParseWithLengthOpts(text + i + 1, len - i - 1, NULL, false);
        if (doc) {
            cJSON_Delete(doc);
            return line;
        }
    }
    return 0;
}

/* ---- files ------------------------------------------------------------------------------- */

int gp_json_read_file(const char *path, char **text, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (f != stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return gp_fail(GP_ERR_RUNTIME, "%s: is a directory", path);
    }
    size_t cap = 1 << 16, n = 0;
    errno = 0;
    char *buf = malloc(cap);
    while (buf && n <= GP_JSON_READ_LIMIT) {
        const size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *bigger = realloc(buf, 2 * cap);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    const bool failed = ferror(f) != 0;
    const int e = errno; /* fread's, before fclose can change it */
    if (f != stdin)
        fclose(f);
    if (!buf)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory reading %s", path);
    if (failed) {
        free(buf);
        return gp_fail(GP_ERR_RUNTIME, "cannot read %s%s%s", path, e ? ": " : "",
                       e ? strerror(e) : "");
    }
    *text = buf;
    *len = n;
    return GP_OK;
}
