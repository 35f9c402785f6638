/* gpuprof exec: the records folder the injected library wrote, its <pid>.jsonl files listed
 * in name order and mapped, then read by records/read.c (gp_records_read_texts). */
#define _DEFAULT_SOURCE /* mmap's flags, dirent */
#include "records/records.h"

#include "gpuprof/record_format.h"
#include "gpuprof/status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_record_file(const char *name)
{
    const size_t n = strlen(name), k = strlen(GP_RECORD_SUFFIX);
    return n > k && strcmp(name + n - k, GP_RECORD_SUFFIX) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The record files in pid order of their names' sorting: deterministic for the tests. */
static int list_files(const char *dir, char ***names, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return gp_fail(GP_ERR_RUNTIME, "cannot read %s: %s", dir, strerror(errno));
    *names = NULL;
    *n = 0;
    struct dirent *e;
    int rc = GP_OK;
    while (rc == GP_OK && (e = readdir(d)) != NULL) {
        if (!is_record_file(e->d_name))
            continue;
        char **grown = realloc(*names, (*n + 1) * sizeof *grown);
        char *copy = strdup(e->d_name);
        if (grown)
            *names = grown;
        if (!grown || !copy) {
            free(copy);
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
            break;
        }
        (*names)[(*n)++] = copy;
    }
    closedir(d);
    if (*n > 1)
        qsort(*names, *n, sizeof **names, compare_names);
    return rc;
}

/* The file's bytes, mapped: a file of millions of kernel lines is not copied. */
static int map_file(const char *dir, const char *name, gp_records_text *t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *t = (gp_records_text){.name = name};
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gp_fail(GP_ERR_RUNTIME, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    int err = fstat(fd, &st) == 0 ? 0 : errno;
    if (!err && st.st_size > 0) {
        void *text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        err = text == MAP_FAILED ? errno : 0;
        if (!err) {
            t->text = text;
            t->len = (size_t)st.st_size;
        }
    }
    close(fd);
    return err ? gp_fail(GP_ERR_RUNTIME, "cannot read %s: %s", path, strerror(err)) : GP_OK;
}

int gp_records_read_dir(const char *dir, gp_report *report)
{
    char **names = NULL;
    size_t n = 0, mapped = 0;
    int rc = list_files(dir, &names, &n);
    gp_records_text *texts = rc == GP_OK && n ? calloc(n, sizeof *texts) : NULL;
    if (rc == GP_OK && n && !texts)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (; rc == GP_OK && mapped < n; mapped++)
        rc = map_file(dir, names[mapped], &texts[mapped]);
    if (rc == GP_OK)
        rc = gp_records_read_texts(texts, n, report);
    for (size_t i = 0; i < mapped; i++)
        if (texts[i].text)
            munmap((void *)texts[i].text, texts[i].len);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(texts);
    free(names);
    return rc;
}
