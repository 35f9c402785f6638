/* One run of gpuprof exec's program: the injected library found beside gpuprof, a records
 * folder made for the run, the program spawned with the library and the options, its records
 * read into the report, the folder removed. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "exec/run.h"

#include "records/records.h"
#include "gpuprof/status.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBRARY_NAME "libgpuprof-inject.so"
#define PATH_LEN 4096

/* ---- the library ------------------------------------------------------------------------- */

int gp_exec_find_library(char *path, size_t len)
{
    char self[PATH_LEN];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return gp_fail(GP_ERR_RUNTIME, "cannot find gpuprof's own folder: %s", strerror(errno));
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    *slash = '\0';
    const char *candidates[] = {"%s/" LIBRARY_NAME, "%s/../lib/gpuprof/" LIBRARY_NAME};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        snprintf(path, len, candidates[i], self);
        char resolved[PATH_MAX];
        if (realpath(path, resolved) && access(resolved, R_OK) == 0) {
            snprintf(path, len, "%s", resolved);
            return GP_OK;
        }
    }
    return gp_fail(GP_ERR_RUNTIME, "cannot find %s beside gpuprof (%s) or in its ../lib/gpuprof",
                   LIBRARY_NAME, self);
}

/* ---- the records' folder ----------------------------------------------------------------- */

static int make_records_dir(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/gpuprof-exec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return gp_fail(GP_ERR_RUNTIME, "cannot make a folder for the records in %s: %s",
                       tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return GP_OK;
}

static void remove_records_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_LEN + sizeof e->d_name + 1];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* ---- the run ----------------------------------------------------------------------------- */

static void note_outcome(const gp_exec_outcome *o, gp_report *report)
{
    report->exec.pid = o->pid;
    report->exec.exit_status = o->exit_status;
    report->exec.signal = o->signal;
    report->exit_status = o->exit_status;
}

/* One run: its records, in a folder of its own, into the report; how it ended. */
static int run_once(const gp_exec_spawn *s, unsigned pass, bool quiet, gp_report *report,
                    gp_exec_outcome *o)
{
    char dir[PATH_LEN];
    GP_TRY(make_records_dir(dir, sizeof dir));
    gp_exec_options options = *s->options;
    options.records_dir = dir;
    options.parent_pid = (long)getpid();
    options.app_pass = pass;
    const gp_exec_spawn run = {s->path, s->argv, &options, quiet, s->quiet_stdout};
    int rc = gp_exec_spawn_and_wait(&run, o);
    if (rc == GP_OK)
        rc = gp_records_read_dir(dir, report);
    remove_records_dir(dir);
    return rc;
}

/* --replay=application: a run for each of the passes the first run's profiler split the
 * counters into, merged into the first run's report. */
static int run_later_passes(const gp_exec_spawn *s, gp_report *report)
{
    for (int pass = 1; pass < report->profiler.pass_groups; pass++) {
        gp_report later;
        gp_report_init(&later);
        later.is_exec = true;
        gp_exec_outcome o;
        int rc = run_once(s, (unsigned)pass, true, &later, &o);
        if (rc == GP_OK)
            rc = gp_records_merge_run(report, &later, (unsigned)pass, o.exit_status);
        gp_report_free(&later);
        GP_TRY(rc);
    }
    return GP_OK;
}

int gp_exec_run_program(const gp_exec_spawn *s, gp_report *report)
{
    gp_exec_outcome o;
    GP_TRY(run_once(s, 0, false, report, &o));
    note_outcome(&o, report);
    if (s->options->request.replay != GP_EXEC_REPLAY_APPLICATION || o.exit_status >= 126)
        return GP_OK;
    return run_later_passes(s, report);
}
