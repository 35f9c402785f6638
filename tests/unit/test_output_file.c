/* A report file the user names (commands/output_file.h): %p and %q{NAME}, the checks made
 * before a program runs, and the write that leaves the whole document or nothing: a failing
 * writer, a write the file-size limit cuts short, a replaced file's content and mode, a file
 * reached through a symbolic link, /dev/null. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, setrlimit */
#include "tap.h"

#include "commands/output_file.h"
#include "gpuprof/status.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static int write_text(FILE *f, const void *text)
{
    fputs(text, f);
    return GP_OK;
}

static int write_then_fail(FILE *f, const void *text)
{
    fputs(text, f);
    return gp_fail(GP_ERR_RUNTIME, "the renderer failed");
}

/* 64 KiB of text, beyond the file-size limit the test sets. */
static int write_a_lot(FILE *f, const void *unused)
{
    (void)unused;
    for (int i = 0; i < 1024; i++)
        fprintf(f, "%063d\n", i);
    return GP_OK;
}

/* name in the test's folder (in a buffer the next call reuses). */
static char *path_in_dir(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* The names in the test's folder, joined with spaces (a temporary file would show here). */
static const char *listing(void)
{
    static char names[512];
    names[0] = '\0';
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? " " : "", e->d_name);
    if (d)
        closedir(d);
    return names;
}

static const char *content(const char *path)
{
    static char text[256];
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    return text;
}

static void expansion(void)
{
    char out[GP_OUTPUT_PATH_LEN], want[64];
    setenv("GPUPROF_TEST_RANK", "3", 1);
    snprintf(want, sizeof want, "r3.%ld.%%.json", (long)getpid());
    tap_ok(gp_output_expand("r%q{GPUPROF_TEST_RANK}.%p.%%.json", out, sizeof out) == GP_OK &&
               strcmp(out, want) == 0, "--output: %%q{NAME}, %%p and %%%% expanded (%s)", out);
    tap_ok(gp_output_expand("%x", out, sizeof out) == GP_ERR_USAGE &&
               strstr(gp_error(), "unknown '%x'"), "--output: an unknown escape is refused");
    char small[8];
    tap_ok(gp_output_expand("abcdefghij", small, sizeof small) == GP_ERR_USAGE,
           "--output: a name too long is refused");
}

static void checks(void)
{
    tap_ok(gp_output_check(path_in_dir("new.json"), false) == GP_OK &&
               strcmp(listing(), "") == 0,
           "check: a new file in a writable folder, and the probe removed");
    tap_ok(gp_output_check(dir, false) == GP_ERR_USAGE && strstr(gp_error(), "is a directory"),
           "check: a directory is refused (%s)", gp_error());
    tap_ok(gp_output_check("/nonexistent-gpuprof/p.json", false) == GP_ERR_USAGE &&
               strstr(gp_error(), "the folder /nonexistent-gpuprof does not exist"),
           "check: a missing folder is refused (%s)", gp_error());
    FILE *f = fopen(path_in_dir("plain"), "w");
    if (f)
        fclose(f);
    tap_ok(gp_output_check(path_in_dir("plain"), false) == GP_ERR_USAGE &&
               strstr(gp_error(), "plain exists (--force replaces it)"),
           "check: an existing file is refused without force (%s)", gp_error());
    tap_ok(gp_output_check(path_in_dir("plain"), true) == GP_OK,
           "check: an existing file is accepted with force");
    char below[160];
    snprintf(below, sizeof below, "%s/p.json", path_in_dir("plain"));
    tap_ok(gp_output_check(below, false) == GP_ERR_USAGE &&
               strstr(gp_error(), "is not a folder"),
           "check: a file as the folder is refused (%s)", gp_error());
    unlink(path_in_dir("plain"));
    tap_ok(gp_output_check("/sys/gpuprof-test.json", false) == GP_ERR_USAGE &&
               strstr(gp_error(), "cannot write in /sys"),
           "check: a folder that takes no file is refused (%s)", gp_error());
    tap_ok(gp_output_check("/dev/null", false) == GP_OK, "check: /dev/null is fine");
}

static void writes(void)
{
    const char *path = path_in_dir("r.json");
    tap_ok(gp_output_write(path, write_text, "one\n") == GP_OK &&
               strcmp(content(path), "one\n") == 0 && strcmp(listing(), "r.json") == 0,
           "write: the document, and no temporary file (%s)", listing());
    chmod(path, 0640);
    tap_ok(gp_output_write(path, write_text, "two\n") == GP_OK &&
               strcmp(content(path), "two\n") == 0, "write: an older file replaced");
    struct stat st;
    tap_ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640,
           "write: the replaced file keeps its mode");
    tap_ok(gp_output_write(path, write_then_fail, "partial") == GP_ERR_RUNTIME &&
               strcmp(gp_error(), "the renderer failed") == 0 &&
               strcmp(content(path), "two\n") == 0 && strcmp(listing(), "r.json") == 0,
           "write: a failing writer leaves the older file as it was, and no temporary one");
    unlink(path);
    tap_ok(gp_output_write(path, write_then_fail, "partial") == GP_ERR_RUNTIME &&
               strcmp(listing(), "") == 0, "write: a failing writer leaves no file at all");
}

/* A write the file-size limit cuts short (as a full disk would): an error naming the file
 * and the reason, nothing left behind. */
static void cut_short(void)
{
    struct rlimit old, small = {4096, 4096};
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    if (getrlimit(RLIMIT_FSIZE, &old) != 0 || (small.rlim_max = old.rlim_max,
                                               setrlimit(RLIMIT_FSIZE, &small) != 0)) {
        tap_ok(true, "# SKIP write cut short: no file-size limit here");
        signal(SIGXFSZ, was);
        return;
    }
    const char *path = path_in_dir("big.json");
    const int rc = gp_output_write(path, write_a_lot, NULL);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    tap_ok(rc == GP_ERR_RUNTIME && strstr(gp_error(), "cannot write ") &&
               strstr(gp_error(), "File too large") && strcmp(listing(), "") == 0,
           "write cut short: exit status 1, the reason, no partial or temporary file (%s; %s)",
           gp_error(), listing());
}

static void special_files(void)
{
    char real[128], link[128];
    snprintf(real, sizeof real, "%s", path_in_dir("real.json"));
    snprintf(link, sizeof link, "%s", path_in_dir("link.json"));
    FILE *f = fopen(real, "w");
    if (f)
        fclose(f);
    struct stat st;
    tap_ok(symlink("real.json", link) == 0 &&
               gp_output_write(link, write_text, "through\n") == GP_OK &&
               strcmp(content(real), "through\n") == 0 && lstat(link, &st) == 0 &&
               S_ISLNK(st.st_mode), "write: through a symbolic link, which stays one");
    unlink(link);
    unlink(real);
    tap_ok(gp_output_write("/dev/null", write_text, "gone\n") == GP_OK,
           "write: /dev/null is written in place");
}

void test_output_file(void)
{
    snprintf(dir, sizeof dir, "/tmp/gpuprof-output-XXXXXX");
    if (!mkdtemp(dir)) {
        tap_ok(false, "a temporary folder for the output tests");
        return;
    }
    expansion();
    checks();
    writes();
    cut_short();
    special_files();
    rmdir(dir);
}
