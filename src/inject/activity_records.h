/* Kernel times from CUPTI's activity records: a `K` line per kernel that ran (protocol.h).
 * The library runs inside someone else's process: nothing here exits or prints. */
#ifndef GPUPROF_INJECT_ACTIVITY_RECORDS_H
#define GPUPROF_INJECT_ACTIVITY_RECORDS_H

/* Start recording kernels; -1 when CUPTI refuses. */
int gp_activity_start(void);
/* Write the kernels CUPTI holds so far (at a context's end, the process's end, a crash). */
void gp_activity_flush(void);

#endif
