/* Taking turns with a GPU's counters across processes (counter_lock.c): the lock file that
 * GPUPROF_COUNTER_LOCK names, held from the process's first use of CUPTI's profiler API until
 * it ends. Internal to counters/. */
#ifndef GPUPROF_COUNTERS_COUNTER_LOCK_H
#define GPUPROF_COUNTERS_COUNTER_LOCK_H

/* The environment variable that names the lock file. */
#define GP_COUNTER_LOCK_ENV "GPUPROF_COUNTER_LOCK"

/* Wait for the lock, then hold it; GP_OK at once when the variable is unset or empty. An
 * error (recorded) when the file cannot be opened or locked. Called with cupti_call.c's
 * init_lock held, by its first acquire. */
int gp_counter_lock_take(void);
/* Let the next process have it (nothing when none is held). Called with init_lock held, when
 * the first acquire fails to initialise: the process has not touched the counters. */
void gp_counter_lock_drop(void);

#endif
