/* The error channel: one message and one hint, kept until main() prints them.
 * Base layer: never prints, never exits, never links cudart. */
#include "gpuprof/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Guard: thread-local, each thread's own (the profiler opens on its own thread). */
static _Thread_local char last_error[GP_MESSAGE_LEN];
static _Thread_local char last_hint[GP_MESSAGE_LEN];

int gp_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    last_hint[0] = '\0';
    return code;
}

void gp_set_hint(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_hint, sizeof last_hint, fmt, ap);
    va_end(ap);
}

const char *gp_error(void) { return last_error; }
const char *gp_hint(void) { return last_hint; }

void gp_clear_error(void)
{
    last_error[0] = '\0';
    last_hint[0] = '\0';
}
