/* gpuprof exec --replay=application: the program runs once per one-pass group, and each
 * later run's profiled launches are matched to the first run's as ncu's --app-replay-match
 * grid does: by process (in the order of their ids), kernel, grid, block, dynamic shared
 * memory and the launch's ordinal among those. A match adds the run's counters to the first
 * run's launch, whose metrics are then derived again; a launch without one is said in a
 * warning, and what it lacks stays n/a. */
#ifndef GPUPROF_EXEC_APP_REPLAY_H
#define GPUPROF_EXEC_APP_REPLAY_H

#include "gpuprof/report.h"

/* Merge `run` (the run that collected `pass`, ended with `exit_status`) into `into`, the
 * first run's report. */
int gp_exec_merge_run(gp_report *into, const gp_report *run, unsigned pass, int exit_status);

#endif
