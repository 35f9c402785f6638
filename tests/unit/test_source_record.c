/* Lines as they were (report/source_record.c): a per-line view built from instructions reads
 * each file its lines name once, keeps each line's text (without its indentation) and the
 * file's FNV-1a hash; a file unreadable, or not a regular file, is recorded unread; later the
 * view says whether the file has changed since or is gone. */
#include "tap.h"

#include "gpuprof/source_view.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    const bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* A view of one kernel whose instructions sit on lines 2 and 4 of path, and one line of
 * another file. */
static int build(const char *path, const char *other, gp_source_kernel **k, size_t *n)
{
    const gp_source_instruction v[] = {
        {.function = "k", .pc = 0x10, .file = (char *)path, .line = 2},
        {.function = "k", .pc = 0x20, .file = (char *)path, .line = 4},
        {.function = "k", .pc = 0x30, .file = (char *)other, .line = 1},
    };
    const int rc = gp_source_view_build(v, sizeof v / sizeof v[0], k, n);
    return rc == GP_OK ? gp_source_view_record(*k, *n) : rc;
}

static const gp_source_line *line_of(const gp_source_kernel *k, const char *file, uint32_t line)
{
    for (size_t i = 0; i < k->n_lines; i++)
        if (k->lines[i].file && strcmp(k->lines[i].file, file) == 0 && k->lines[i].line == line)
            return &k->lines[i];
    return NULL;
}

static void test_hash_words(void)
{
    char word[GP_SOURCE_HASH_LEN];
    uint64_t back = 0;
    gp_source_hash_text(0xaf63dc4c8601ec8cull, word);
    tap_ok(strcmp(word, "fnv1a64:af63dc4c8601ec8c") == 0 && gp_source_hash_read(word, &back) &&
               back == 0xaf63dc4c8601ec8cull,
           "a file's hash as reports write it, fnv1a64: and 16 hex digits, and read back");
    tap_ok(!gp_source_hash_read("fnv1a64:AF63DC4C8601EC8C", &back) &&
               !gp_source_hash_read("fnv1a64:af63dc4c8601ec8", &back) &&
               !gp_source_hash_read("md5:af63dc4c8601ec8c", &back),
           "a hash in capitals, one digit short or of another kind is not one");
}

static void test_recorded(const char *dir)
{
    char path[512], other[512];
    snprintf(path, sizeof path, "%s/kernel.cu", dir);
    snprintf(other, sizeof other, "%s/missing.cu", dir);
    /* "a": FNV-1a 64 of one byte 'a' is af63dc4c8601ec8c (the published test vector). */
    const char *text = "a";
    gp_source_kernel *k = NULL;
    size_t n = 0;
    bool ok = write_file(path, text) && build(path, other, &k, &n) == GP_OK && n == 1;
    tap_ok(ok && k[0].n_files == 2 && strcmp(k[0].files[0].path, path) == 0 &&
               k[0].files[0].read && k[0].files[0].hash == 0xaf63dc4c8601ec8cull &&
               !k[0].files[1].read,
           "each file once, in first-line order: its FNV-1a hash, or unread where it is not");
    gp_source_view_free(k, n);

    text = "int x;\n\t  float y = a[i];   \r\nz\n    return;";
    ok = write_file(path, text) && build(path, other, &k, &n) == GP_OK && n == 1;
    const gp_source_line *two = ok ? line_of(&k[0], path, 2) : NULL;
    const gp_source_line *four = ok ? line_of(&k[0], path, 4) : NULL;
    const gp_source_line *gone = ok ? line_of(&k[0], other, 1) : NULL;
    tap_ok(two && four && gone && two->text && strcmp(two->text, "float y = a[i];   ") == 0 &&
               four->text && strcmp(four->text, "return;") == 0 && !gone->text,
           "each line's text without its indentation or line end, the last without a newline; "
           "none for an unreadable file");
    char shown[GP_SOURCE_TEXT_LEN], note[1024];
    if (two)
        gp_source_line_shown(&k[0], two, shown, sizeof shown);
    tap_ok(two && strcmp(shown, "float y = a[i];   ") == 0 &&
               !gp_source_file_note(&k[0].files[0], note, sizeof note) &&
               gp_source_file_note(&k[0].files[1], note, sizeof note) &&
               strstr(note, "could not be read when the report was recorded"),
           "the file unchanged: the recorded text and no note; the unread one has its note");

    ok = write_file(path, "int x;\nfloat y = b[i];\n");
    tap_ok(ok && two && gp_source_file_note(&k[0].files[0], note, sizeof note) &&
               strcmp(note, "kernel.cu has changed since the report was recorded: its lines "
                            "show the text they had then") == 0,
           "the file edited: a note naming it");
    if (two)
        gp_source_line_shown(&k[0], two, shown, sizeof shown);
    tap_ok(two && strcmp(shown, "float y = a[i];   ") == 0,
           "the file edited: the line shows its recorded text, not today's");
    unlink(path);
    tap_ok(gp_source_file_note(&k[0].files[0], note, sizeof note) && strstr(note, path) &&
               strstr(note, "is not here"),
           "the file gone: a note naming its path");

    gp_source_kernel *copy = NULL;
    ok = gp_source_view_copy(k, n, &copy) == GP_OK;
    const gp_source_line *copied = ok ? line_of(&copy[0], path, 2) : NULL;
    tap_ok(copied && copied->text && copied->text != two->text &&
               strcmp(copied->text, two->text) == 0 && copy[0].n_files == 2 &&
               copy[0].files[0].hash == k[0].files[0].hash &&
               copy[0].files[0].path != k[0].files[0].path,
           "a view's copy owns copies of its texts and files");
    gp_source_view_free(copy, ok ? n : 0);
    gp_source_view_free(k, n);
}

static void test_not_regular(void)
{
    gp_source_kernel *k = NULL;
    size_t n = 0;
    /* /dev/zero would never end: a device is recorded unread, never read. */
    const bool ok = build("/dev/zero", "/", &k, &n) == GP_OK && n == 1;
    tap_ok(ok && k[0].n_files == 2 && !k[0].files[0].read && !k[0].files[1].read &&
               !k[0].lines[0].text,
           "a device or a folder named as a source file is recorded unread");
    gp_source_view_free(k, n);
    /* A FIFO with no writer would block its reader's open: opened without waiting, unread. */
    char fifo[] = "/tmp/gpuprof-fifo-XXXXXX";
    const int made = mkstemp(fifo);
    if (made >= 0) {
        close(made);
        unlink(fifo);
    }
    const bool fifo_ok = made >= 0 && mkfifo(fifo, 0600) == 0 &&
                         build(fifo, "/", &k, &n) == GP_OK && n == 1;
    tap_ok(fifo_ok && !k[0].files[0].read, "a FIFO named as a source file: recorded unread, "
                                            "its open not left waiting for a writer");
    if (fifo_ok)
        gp_source_view_free(k, n);
    unlink(fifo);
}

void test_source_record(void)
{
    char dir[] = "/tmp/gpuprof-source-record-XXXXXX";
    if (!tap_ok(mkdtemp(dir) != NULL, "a scratch folder"))
        return;
    test_hash_words();
    test_recorded(dir);
    test_not_regular();
    rmdir(dir);
}
