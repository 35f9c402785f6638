#define _GNU_SOURCE /* pipe2 */
/* Spawning the program for gpuprof exec: found as a shell finds it, started with the injection
 * library and the options in its environment, waited for; its exit status as a shell reports
 * it. */
#include "exec/spawn.h"

#include "gpuprof/protocol.h"
#include "gpuprof/status.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* ---- finding the program --------------------------------------------------------------- */

/* 0: an executable file; else the errno a start would fail with. */
static int check_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    return access(path, X_OK) == 0 ? 0 : EACCES;
}

static int cannot_start(const char *name, int error)
{
    /* As env(1) and shells: 127 for a program that is not there, 126 for one that cannot
     * be started. */
    const int code = error == ENOENT ? 127 : 126;
    return gp_fail(code, "cannot run %s: %s", name,
                   error == ENOENT && !strchr(name, '/') ? "command not found"
                                                         : strerror(error));
}

int gp_exec_find_program(const char *name, char *path, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(path, len, "%s", name);
        const int e = check_executable(path);
        return e ? cannot_start(name, e) : GP_OK;
    }
    const char *search = getenv("PATH");
    if (!search || !*search)
        search = DEFAULT_PATH;
    int first_error = ENOENT;
    for (const char *p = search;;) {
        const char *colon = strchr(p, ':');
        const size_t n = colon ? (size_t)(colon - p) : strlen(p);
        /* An empty entry is the current folder. */
        snprintf(path, len, "%.*s%s%s", (int)n, n ? p : ".", "/", name);
        const int e = check_executable(path);
        if (e == 0)
            return GP_OK;
        if (e != ENOENT && first_error == ENOENT)
            first_error = e;
        if (!colon)
            break;
        p = colon + 1;
    }
    return cannot_start(name, first_error);
}

/* ---- the environment ------------------------------------------------------------------- */

typedef struct {
    char **vars;
    size_t n;
} env_list;

/* The entry "NAME=VALUE" in the environment: in place of NAME's entry there, if any, so
 * the program sees gpuprof's value. */
static void put_var(env_list *env, char *entry)
{
    const size_t name_len = (size_t)(strchr(entry, '=') - entry);
    for (size_t i = 0; i < env->n; i++)
        if (strncmp(env->vars[i], entry, name_len) == 0 && env->vars[i][name_len] == '=') {
            env->vars[i] = entry;
            return;
        }
    env->vars[env->n++] = entry;
}

/* The program's environment: gpuprof's, plus the library and its options. Built before the
 * fork: after it, only async-signal-safe calls are allowed. */
static int build_environment(const gp_exec_spawn *s, env_list *env, char **owned,
                             size_t *n_owned)
{
    size_t n = 0;
    while (environ[n])
        n++;
    env->vars = calloc(n + GP_EXEC_OPTION_VARS + 1, sizeof *env->vars);
    if (!env->vars)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    memcpy(env->vars, environ, n * sizeof *env->vars);
    env->n = n;
    GP_TRY(gp_exec_options_encode(s->options, owned, n_owned));
    for (size_t i = 0; i < *n_owned; i++)
        put_var(env, owned[i]);
    return GP_OK;
}

/* ---- starting and waiting ---------------------------------------------------------------- */

/* In the child: start the program; on failure tell the parent why, through the pipe. */
static void start_child(const char *path, char *const *argv, char **envp, int report_fd,
                        bool quiet, bool quiet_stdout)
{
    const int null_fd = quiet || quiet_stdout ? open("/dev/null", O_WRONLY) : -1;
    if (null_fd >= 0) {
        dup2(null_fd, STDOUT_FILENO);
        if (quiet)
            dup2(null_fd, STDERR_FILENO);
        close(null_fd);
    }
    execve(path, argv, envp);
    const int e = errno;
    if (write(report_fd, &e, sizeof e) < 0) {
        /* nothing left to tell it with */
    }
    _exit(e == ENOENT ? 127 : 126);
}

static int wait_for(pid_t pid, int *status)
{
    /* The terminal's Ctrl-C reaches the program, which decides; gpuprof stays to report. */
    struct sigaction ignore, old_int, old_quit;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t got;
    do
        got = waitpid(pid, status, 0);
    while (got < 0 && errno == EINTR);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return got == pid ? GP_OK : gp_fail(GP_ERR_RUNTIME, "waitpid: %s", strerror(errno));
}

static int run(const gp_exec_spawn *s, char **envp, gp_exec_outcome *out)
{
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0)
        return gp_fail(GP_ERR_RUNTIME, "pipe: %s", strerror(errno));
    fflush(NULL); /* nothing buffered is written twice */
    const pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return gp_fail(GP_ERR_RUNTIME, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        start_child(s->path, s->argv, envp, pipe_fds[1], s->quiet, s->quiet_stdout);
    close(pipe_fds[1]);
    int error = 0;
    const ssize_t got = read(pipe_fds[0], &error, sizeof error);
    close(pipe_fds[0]);
    int status = 0;
    GP_TRY(wait_for(pid, &status));
    if (got == (ssize_t)sizeof error)
        return cannot_start(s->argv[0], error);
    out->pid = (int)pid;
    out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    out->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + out->signal;
    return GP_OK;
}

int gp_exec_spawn_and_wait(const gp_exec_spawn *s, gp_exec_outcome *out)
{
    env_list env = {NULL, 0};
    char *owned[GP_EXEC_OPTION_VARS];
    size_t n_owned = 0;
    int rc = build_environment(s, &env, owned, &n_owned);
    if (rc == GP_OK)
        rc = run(s, env.vars, out);
    for (size_t i = 0; i < n_owned; i++)
        free(owned[i]);
    free(env.vars);
    return rc;
}
