/* The launch lock of inject/inject.h: recursive (CUPTI may call back on the thread that holds
 * it), made at its first use; and recursive mutexes for the library's other locks. */
#ifndef GPUPROF_INJECT_LOCKS_H
#define GPUPROF_INJECT_LOCKS_H

#include "inject/inject.h"

#include <pthread.h>
#include <stdbool.h>

void gp_launch_lock(void);
/* false: another thread holds it (a crash handler must not wait). */
bool gp_launch_trylock(void);
void gp_launch_unlock(void);

/* A recursive mutex (the launch lock's kind, and the graphs' table's). */
void gp_recursive_mutex_init(pthread_mutex_t *m);

#endif
