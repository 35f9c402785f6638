/* Lines as they were (gpuprof/source_view.h): once per-line views are built, each file their
 * lines name is read once, hashed, and each line keeps its text; a view shown later shows that
 * text, and says when the file on disk has changed since or is gone. A line read from the file
 * as it is now, for reports from before lines kept their text, is here too. */
#include "gpuprof/source_view.h"

#include "gpuprof/status.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HASH_PREFIX "fnv1a64:"

static uint64_t fnv1a(const char *bytes, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)bytes[i]) * 0x100000001b3ull;
    return h;
}

void gp_source_hash_text(uint64_t hash, char buf[GP_SOURCE_HASH_LEN])
{
    snprintf(buf, GP_SOURCE_HASH_LEN, HASH_PREFIX "%016" PRIx64, hash);
}

bool gp_source_hash_read(const char *text, uint64_t *hash)
{
    const size_t prefix = strlen(HASH_PREFIX);
    if (strncmp(text, HASH_PREFIX, prefix) != 0 || strlen(text) != prefix + 16 ||
        strspn(text + prefix, "0123456789abcdef") != 16)
        return false;
    *hash = strtoull(text + prefix, NULL, 16);
    return true;
}

/* A regular file's bytes (NUL-terminated, *n without it), or NULL: unreadable, not a regular
 * file (a device or a pipe would never end), or over GP_SOURCE_FILE_MAX. */
static char *read_whole(const char *path, size_t *n)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO would block */
    if (fd < 0)
        return NULL;
    struct stat st;
    char *bytes = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size <= GP_SOURCE_FILE_MAX)
        bytes = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    for (ssize_t r = 1; bytes && r > 0 && got < (size_t)st.st_size; got += (size_t)r)
        if ((r = read(fd, bytes + got, (size_t)st.st_size - got)) < 0) {
            free(bytes);
            bytes = NULL;
        }
    close(fd);
    if (bytes) {
        bytes[got] = '\0';
        *n = got;
    }
    return bytes;
}

/* Line `line` (from 1) of bytes[0..n), without its indentation or its end, at most
 * GP_SOURCE_TEXT_LEN - 1 bytes: its start and *len (0 past the end). */
static const char *line_of(const char *bytes, size_t n, uint32_t line, size_t *len)
{
    const char *p = bytes, *end = bytes + n;
    for (uint32_t at = 1; at < line && p < end; at++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    *len = 0;
    while (p + *len < end && p[*len] != '\n' && p[*len] != '\r')
        ++*len;
    if (*len > GP_SOURCE_TEXT_LEN - 1)
        *len = GP_SOURCE_TEXT_LEN - 1;
    return p;
}

/* That line as a new string; NULL when out of memory. */
static char *line_copy(const char *bytes, size_t n, uint32_t line)
{
    size_t len;
    const char *p = line_of(bytes, n, line, &len);
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, p, len);
        copy[len] = '\0';
    }
    return copy;
}

/* The file of path among k's recorded ones, added (unread) when new; NULL: out of memory. */
static gp_source_file *file_of(gp_source_kernel *k, const char *path, bool *added)
{
    *added = false;
    for (size_t i = 0; i < k->n_files; i++)
        if (strcmp(k->files[i].path, path) == 0)
            return &k->files[i];
    gp_source_file *grown = realloc(k->files, (k->n_files + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    k->files = grown;
    gp_source_file *f = &grown[k->n_files];
    *f = (gp_source_file){.path = strdup(path)};
    if (!f->path)
        return NULL;
    k->n_files++;
    *added = true;
    return f;
}

/* One file: its hash, and the text of each of k's lines in it. */
static int record_file(gp_source_kernel *k, gp_source_file *f)
{
    size_t n = 0;
    char *bytes = read_whole(f->path, &n);
    if (!bytes)
        return GP_OK;
    f->read = true;
    f->hash = fnv1a(bytes, n);
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < k->n_lines; i++) {
        gp_source_line *l = &k->lines[i];
        if (l->file && !l->text && strcmp(l->file, f->path) == 0 &&
            !(l->text = line_copy(bytes, n, l->line)))
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    free(bytes);
    return rc;
}

static int record_kernel(gp_source_kernel *k)
{
    for (size_t i = 0; i < k->n_lines; i++) {
        if (!k->lines[i].file)
            continue;
        bool added;
        gp_source_file *f = file_of(k, k->lines[i].file, &added);
        if (!f)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (added)
            GP_TRY(record_file(k, f));
    }
    return GP_OK;
}

int gp_source_view_record(gp_source_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        GP_TRY(record_kernel(&k[i]));
    return GP_OK;
}

void gp_source_line_text(const char *file, uint32_t line, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t n = 0, got;
    char *bytes = file ? read_whole(file, &n) : NULL;
    if (!bytes)
        return;
    const char *p = line_of(bytes, n, line, &got);
    snprintf(buf, len, "%.*s", (int)got, p);
    free(bytes);
}

void gp_source_line_shown(const gp_source_kernel *k, const gp_source_line *l, char *buf,
                          size_t len)
{
    if (!k->n_files) {
        gp_source_line_text(l->file, l->line, buf, len);
        return;
    }
    snprintf(buf, len, "%s", l->text ? l->text : "");
}

bool gp_source_file_note(const gp_source_file *f, char *buf, size_t len)
{
    const char *name = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
    if (!f->read) {
        snprintf(buf, len, "%s could not be read when the report was recorded: its lines have "
                 "no text", f->path);
        return true;
    }
    size_t n = 0;
    char *bytes = read_whole(f->path, &n);
    const bool same = bytes && fnv1a(bytes, n) == f->hash;
    free(bytes);
    if (!bytes)
        snprintf(buf, len, "%s is not here: its lines show the text they had when the report "
                 "was recorded", f->path);
    else if (!same)
        snprintf(buf, len, "%s has changed since the report was recorded: its lines show the "
                 "text they had then", name);
    return !same;
}
