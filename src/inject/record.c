/* Records as JSON lines, written whole with one write() each; the warning record, which
 * every part of the library writes. */
#include "inject/record.h"

#include "gpuprof/protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int record_fd = -1; /* Guard: none, set by gp_record_open before any callback */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, the lock */

int gp_record_open(const char *dir, int pid)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%d%s", dir, pid, GP_RECORD_SUFFIX) >= (int)sizeof path)
        return -1;
    record_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    return record_fd >= 0 ? 0 : -1;
}

static void reserve(gp_record *r, size_t more)
{
    if (r->failed || r->len + more + 1 <= r->cap)
        return;
    size_t cap = r->cap ? r->cap : 512;
    while (cap < r->len + more + 1)
        cap *= 2;
    char *b = realloc(r->buf, cap);
    if (!b) {
        r->failed = 1;
        return;
    }
    r->buf = b;
    r->cap = cap;
}

static void append(gp_record *r, const char *s, size_t n)
{
    reserve(r, n);
    if (r->failed)
        return;
    memcpy(r->buf + r->len, s, n);
    r->len += n;
    r->buf[r->len] = '\0';
}

static void appendf(gp_record *r, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        append(r, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void gp_record_append_string(gp_record *r, const char *s)
{
    append(r, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            append(r, esc, 2);
        } else if (*p < 0x20) {
            appendf(r, "\\u%04x", *p);
        } else {
            append(r, (const char *)p, 1);
        }
    }
    append(r, "\"", 1);
}

static void key(gp_record *r, const char *k)
{
    if (r->fields++)
        append(r, ",", 1);
    gp_record_append_string(r, k);
    append(r, ":", 1);
}

void gp_record_begin(gp_record *r, const char *type)
{
    memset(r, 0, sizeof *r);
    gp_record_add(r, type);
}

void gp_record_add(gp_record *r, const char *type)
{
    r->fields = 0;
    append(r, "{", 1);
    gp_record_string(r, "t", type);
    gp_record_int(r, "pid", getpid()); /* every record says whose it is */
}

void gp_record_end_object(gp_record *r)
{
    append(r, "}\n", 2);
}

void gp_record_string(gp_record *r, const char *k, const char *value)
{
    key(r, k);
    gp_record_append_string(r, value);
}

void gp_record_int(gp_record *r, const char *k, long long value)
{
    key(r, k);
    appendf(r, "%lld", value);
}

void gp_record_uint(gp_record *r, const char *k, unsigned long long value)
{
    key(r, k);
    appendf(r, "%llu", value);
}

void gp_record_code(gp_record *r, const char *k, uint64_t code)
{
    if (!code)
        return;
    key(r, k);
    appendf(r, "\"%llu\"", (unsigned long long)code);
}

void gp_record_dim(gp_record *r, const char *k, unsigned x, unsigned y, unsigned z)
{
    key(r, k);
    appendf(r, "[%u,%u,%u]", x, y, z);
}

void gp_record_numbers(gp_record *r, const char *k, const double *values, size_t n)
{
    key(r, k);
    append(r, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            append(r, ",", 1);
        if (isfinite(values[i]))
            appendf(r, "%.17g", values[i]);
        else
            append(r, "null", 4);
    }
    append(r, "]", 1);
}

void gp_record_strings(gp_record *r, const char *k, const char *const *values, size_t n)
{
    key(r, k);
    append(r, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            append(r, ",", 1);
        gp_record_append_string(r, values[i]);
    }
    append(r, "]", 1);
}

void gp_record_numbers_line(gp_record *r, char tag, const uint64_t *values, size_t n)
{
    char line[32 * 21];
    size_t len = 0;
    line[len++] = tag;
    for (size_t i = 0; i < n && len + 22 < sizeof line; i++) {
        char digits[20];
        size_t k = 0;
        uint64_t v = values[i];
        do
            digits[k++] = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        line[len++] = ' ';
        while (k)
            line[len++] = digits[--k];
    }
    line[len++] = '\n';
    append(r, line, len);
}

void gp_record_raw(gp_record *r, const char *k, const char *json)
{
    key(r, k);
    append(r, json, strlen(json));
}

/* A whole line per write(): O_APPEND keeps concurrent writers' lines apart. */
static void write_line(const char *line, size_t len)
{
    pthread_mutex_lock(&write_lock);
    while (record_fd >= 0 && len > 0) {
        ssize_t w = write(record_fd, line, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        line += w;
        len -= (size_t)w;
    }
    pthread_mutex_unlock(&write_lock);
}

void gp_record_flush(gp_record *r)
{
    if (!r->failed && r->len)
        write_line(r->buf, r->len);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

void gp_record_end(gp_record *r)
{
    gp_record_end_object(r);
    gp_record_flush(r);
}

void gp_record_warning(const char *text, const char *hint)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_WARNING);
    gp_record_string(&r, "text", text);
    if (hint && hint[0])
        gp_record_string(&r, "hint", hint);
    gp_record_end(&r);
}
