/* The locks of inject/locks.h. */
#include "inject/locks.h"

static pthread_mutex_t launch_lock; /* Guard: made once, by launch_lock_once */
static pthread_once_t launch_lock_once = PTHREAD_ONCE_INIT; /* Guard: none, pthread_once */

void gp_recursive_mutex_init(pthread_mutex_t *m)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
}

static void make_lock(void)
{
    gp_recursive_mutex_init(&launch_lock);
}

void gp_launch_lock(void)
{
    pthread_once(&launch_lock_once, make_lock);
    pthread_mutex_lock(&launch_lock);
}

bool gp_launch_trylock(void)
{
    pthread_once(&launch_lock_once, make_lock);
    return pthread_mutex_trylock(&launch_lock) == 0;
}

void gp_launch_unlock(void)
{
    pthread_mutex_unlock(&launch_lock);
}
