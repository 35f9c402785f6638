/* Sanitizer builds only (make check-sanitize): dlopen without RTLD_DEEPBIND.
 *
 * CUPTI's host API (used without a GPU by `gpuprof metrics --chip=...`) opens
 * libnvperf_host.so with RTLD_DEEPBIND. AddressSanitizer refuses that flag and ends the
 * process, since a library bound deeply would call libc's malloc and free instead of its own
 * (https://github.com/google/sanitizers/issues/611). Linked into the executable, this
 * definition comes before the sanitizer's interceptor, which it calls without the flag. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

void *dlopen(const char *file, int flags)
{
    static void *(*next)(const char *, int);
    if (!next)
        *(void **)&next = dlsym(RTLD_NEXT, "dlopen");
    return next ? next(file, flags & ~RTLD_DEEPBIND) : NULL;
}
