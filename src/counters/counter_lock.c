/* Processes that profile one GPU take turns with its counters (counters/counter_lock.h).
 * CUPTI lets one process at a time profile a device: a second one's range profiler fails with
 * CUPTI_ERROR_HARDWARE_BUSY, and its report has no metrics. Where GPUPROF_COUNTER_LOCK names a
 * file, each gpuprof (and each program gpuprof exec profiles, which inherits the variable)
 * holds a write lock on it from its first use of CUPTI's profiler API until it ends, and one
 * that finds it held waits: several gpuprof runs at once (a test suite's, a sweep's) take
 * turns with the counters instead of failing. The lock is POSIX's (fcntl): the system drops
 * it when the process ends, however it ends, and a child does not inherit it.
 * Counters layer: never prints, never exits. */
#include "counters/counter_lock.h"

#include "gpuprof/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int lock_fd = -1;   /* Guard: cupti_call.c's init_lock, held by this file's callers */
static pid_t lock_pid;     /* Guard: the same; the process that holds the lock */

/* A child forked while its parent held the lock has the parent's descriptor but not its lock
 * (locks are a process's own): its copy is closed, which leaves the parent's lock alone. */
static void forget_parents(void)
{
    if (lock_fd >= 0 && lock_pid != getpid()) {
        close(lock_fd);
        lock_fd = -1;
    }
}

int gp_counter_lock_take(void)
{
    forget_parents();
    const char *path = getenv(GP_COUNTER_LOCK_ENV);
    if (!path || !path[0] || lock_fd >= 0)
        return GP_OK;
    const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return gp_fail(GP_ERR_RUNTIME, "%s=%s: cannot open the lock file: %s",
                       GP_COUNTER_LOCK_ENV, path, strerror(errno));
    struct flock whole = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int rc;
    while ((rc = fcntl(fd, F_SETLKW, &whole)) != 0 && errno == EINTR)
        ;
    if (rc != 0) {
        const int why = errno;
        close(fd);
        return gp_fail(GP_ERR_RUNTIME, "%s=%s: cannot lock the file: %s", GP_COUNTER_LOCK_ENV,
                       path, strerror(why));
    }
    lock_fd = fd;
    lock_pid = getpid();
    return GP_OK;
}

void gp_counter_lock_drop(void)
{
    forget_parents();
    if (lock_fd < 0)
        return;
    close(lock_fd); /* closing the process's descriptor of the file drops its lock */
    lock_fd = -1;
}
