/* Taking turns with the counters (counters/counter_lock.c): without GPUPROF_COUNTER_LOCK
 * nothing is locked; with it, the file is write-locked while held, another process waits for
 * it and gets it once it is dropped; a file that cannot be opened is an error naming it. */
#include "tap.h"

#include "counters/counter_lock.h"
#include "gpuprof/status.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Whether another process finds the file locked: a child tries a write lock without waiting. */
static bool locked_for_others(const char *path)
{
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(path, O_RDWR);
        struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        _exit(fd >= 0 && fcntl(fd, F_SETLK, &whole) != 0 ? 0 : 1);
    }
    int status = 1;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

/* A child that takes the lock while this process holds it, then says how long it waited. */
static double child_wait_ms(int *pipe_out, pid_t *child)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    *child = fork();
    if (*child == 0) {
        close(fds[0]);
        const double start = now_ms();
        const int rc = gp_counter_lock_take();
        const double waited = rc == GP_OK ? now_ms() - start : -1;
        const ssize_t wrote = write(fds[1], &waited, sizeof waited);
        gp_counter_lock_drop();
        _exit(wrote == (ssize_t)sizeof waited ? 0 : 1);
    }
    close(fds[1]);
    *pipe_out = fds[0];
    return 0;
}

void test_counter_lock(void)
{
    unsetenv(GP_COUNTER_LOCK_ENV);
    tap_ok(gp_counter_lock_take() == GP_OK, "without GPUPROF_COUNTER_LOCK: nothing to wait for");
    gp_counter_lock_drop();

    char path[] = "/tmp/gpuprof-counter-lock-XXXXXX";
    const int made = mkstemp(path);
    if (!tap_ok(made >= 0, "a scratch lock file"))
        return;
    close(made);
    setenv(GP_COUNTER_LOCK_ENV, path, 1);
    tap_ok(!locked_for_others(path), "the file is free before anyone takes it");
    tap_ok(gp_counter_lock_take() == GP_OK && locked_for_others(path),
           "taken: another process finds the file locked");

    int from_child = -1;
    pid_t child = -1;
    child_wait_ms(&from_child, &child);
    const double held = now_ms();
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    gp_counter_lock_drop();
    double waited = -1;
    const bool read_it = from_child >= 0 &&
                         read(from_child, &waited, sizeof waited) == (ssize_t)sizeof waited;
    int status = 1;
    if (child > 0)
        waitpid(child, &status, 0);
    if (from_child >= 0)
        close(from_child);
    tap_ok(read_it && waited >= 250 && waited < 10000 && WIFEXITED(status) &&
               WEXITSTATUS(status) == 0,
           "another process waits while it is held (%.0f ms of %.0f) and gets it once dropped",
           waited, now_ms() - held);
    tap_ok(!locked_for_others(path), "dropped: the file is free again");
    unlink(path);

    setenv(GP_COUNTER_LOCK_ENV, "/nonexistent/gpuprof/lock", 1);
    tap_ok(gp_counter_lock_take() != GP_OK && strstr(gp_error(), "GPUPROF_COUNTER_LOCK") &&
               strstr(gp_error(), "/nonexistent/gpuprof/lock"),
           "a lock file that cannot be opened: an error naming the variable and the file (%s)",
           gp_error());
    unsetenv(GP_COUNTER_LOCK_ENV);
}
