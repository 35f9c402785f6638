/* A report file the user names (commands/output_file.h): %p and %q{NAME} expanded, the name
 * checked before a program runs for minutes only to find that its report has nowhere to go,
 * and the report written to a temporary file beside it, renamed once whole. */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fchmod, fsync */
#include "commands/output_file.h"

#include "gpuprof/status.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the name ------------------------------------------------------------------------------ */

static int expand_escape(const char **p, char *out, size_t *used, size_t len)
{
    const char *s = *p + 1;
    char piece[GP_OUTPUT_PATH_LEN];
    if (*s == '%') {
        snprintf(piece, sizeof piece, "%%");
        s++;
    } else if (*s == 'p') {
        snprintf(piece, sizeof piece, "%ld", (long)getpid());
        s++;
    } else if (s[0] == 'q' && s[1] == '{' && strchr(s, '}')) {
        const char *end = strchr(s, '}');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(end - s - 2), s + 2);
        const char *value = getenv(name);
        if (!value)
            return gp_fail(GP_ERR_USAGE, "--output: the environment variable %s in %%q{%s} is "
                                         "not set", name, name);
        snprintf(piece, sizeof piece, "%s", value);
        s = end + 1;
    } else {
        return gp_fail(GP_ERR_USAGE, "--output: unknown '%%%.1s' (%%p, %%q{NAME} and %%%% are "
                                     "known)", s);
    }
    *used += (size_t)snprintf(out + *used, len - *used, "%s", piece);
    *p = s;
    return GP_OK;
}

int gp_output_expand(const char *pattern, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = pattern; *p && used < len - 1;) {
        if (*p == '%') {
            GP_TRY(expand_escape(&p, out, &used, len));
            continue;
        }
        out[used++] = *p++;
        out[used] = '\0';
    }
    if (used >= len - 1)
        return gp_fail(GP_ERR_USAGE, "--output: the file name is too long");
    return GP_OK;
}

/* ---- where the file goes ----------------------------------------------------------------- */

/* The folder of path: "." for a bare name, "/" for a file at the root. */
static void folder_of(const char *path, char *folder, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(folder, len, ".");
    else if (slash == path)
        snprintf(folder, len, "/");
    else
        snprintf(folder, len, "%.*s", (int)(slash - path), path);
}

/* The file a rename must replace: a regular file reached through symbolic links is replaced
 * where it is, not the link; anything else is path itself. */
static void resolve(const char *path, char *target, size_t len)
{
    struct stat st;
    char resolved[PATH_MAX];
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, resolved))
        snprintf(target, len, "%s", resolved);
    else
        snprintf(target, len, "%s", path);
}

/* A new file in the folder, open for writing: *fd, its name in tmp. */
static int make_temporary(const char *folder, char *tmp, size_t len, int *fd)
{
    if ((size_t)snprintf(tmp, len, "%s/.gpuprof-report-XXXXXX", folder) >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    *fd = mkstemp(tmp);
    return *fd < 0 ? -1 : 0;
}

int gp_output_check(const char *path, bool force)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return gp_fail(GP_ERR_USAGE, "--output: %s is a directory (name a file in it)", path);
        /* Yesterday's report is not replaced by mistake, as ncu and nsys refuse too. */
        if (S_ISREG(st.st_mode) && !force)
            return gp_fail(GP_ERR_USAGE, "--output: %s exists (--force replaces it)", path);
        if (access(path, W_OK) != 0)
            return gp_fail(GP_ERR_USAGE, "--output: cannot write %s: %s", path, strerror(errno));
        if (!S_ISREG(st.st_mode))
            return GP_OK; /* a device or a FIFO: written in place */
    }
    char target[GP_OUTPUT_PATH_LEN], folder[GP_OUTPUT_PATH_LEN], tmp[GP_OUTPUT_PATH_LEN];
    resolve(path, target, sizeof target);
    folder_of(target, folder, sizeof folder);
    if (stat(folder, &st) != 0)
        return gp_fail(GP_ERR_USAGE, "--output: the folder %s %s", folder,
                       errno == ENOENT ? "does not exist" : strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return gp_fail(GP_ERR_USAGE, "--output: %s is not a folder", folder);
    int fd;
    if (make_temporary(folder, tmp, sizeof tmp, &fd) != 0)
        return gp_fail(GP_ERR_USAGE, "--output: cannot write in %s: %s", folder,
                       strerror(errno));
    close(fd);
    unlink(tmp);
    return GP_OK;
}

/* ---- writing ------------------------------------------------------------------------------- */

/* What fopen would give a new file, or what the file being replaced has. */
static mode_t mode_for(const char *target)
{
    struct stat st;
    if (stat(target, &st) == 0)
        return st.st_mode & 07777;
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* The document into f, flushed to the disk; the writer's status, or -1 with errno. */
static int write_whole(FILE *f, gp_output_writer write, const void *ctx, int *status)
{
    *status = write(f, ctx);
    if (*status != GP_OK)
        return 0;
    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        return -1;
    return fsync(fileno(f)) != 0 && errno != EINVAL ? -1 : 0;
}

/* The reason of a failed write: errno's, or what stdio says when it set none. */
static const char *reason(int e)
{
    return e ? strerror(e) : "write error";
}

static int write_in_place(const char *path, gp_output_writer write, const void *ctx)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "cannot write %s: %s", path, strerror(errno));
    const int status = write(f, ctx);
    errno = 0;
    bool failed = fflush(f) != 0 || ferror(f);
    int why = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        why = errno;
    }
    if (status != GP_OK)
        return status; /* the writer's own failure, recorded by it */
    return failed ? gp_fail(GP_ERR_RUNTIME, "cannot write %s: %s", path, reason(why)) : GP_OK;
}

int gp_output_write(const char *path, gp_output_writer write, const void *ctx)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return write_in_place(path, write, ctx);
    char target[GP_OUTPUT_PATH_LEN], folder[GP_OUTPUT_PATH_LEN], tmp[GP_OUTPUT_PATH_LEN];
    resolve(path, target, sizeof target);
    folder_of(target, folder, sizeof folder);
    int fd;
    if (make_temporary(folder, tmp, sizeof tmp, &fd) != 0)
        return gp_fail(GP_ERR_RUNTIME, "cannot write %s: %s", path, strerror(errno));
    FILE *f = fchmod(fd, mode_for(target)) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        const int why = errno;
        close(fd);
        unlink(tmp);
        return gp_fail(GP_ERR_RUNTIME, "cannot write %s: %s", path, strerror(why));
    }
    int status;
    int rc = write_whole(f, write, ctx, &status);
    int why = errno;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        why = errno;
    }
    if (rc == 0 && status == GP_OK) {
        if (rename(tmp, target) == 0)
            return GP_OK;
        rc = -1;
        why = errno;
    }
    unlink(tmp);
    if (status != GP_OK)
        return status; /* the writer's own failure, recorded by it */
    return gp_fail(GP_ERR_RUNTIME, "cannot write %s: %s", path, reason(why));
}
