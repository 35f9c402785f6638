/* gpuprof exec: one run of the program under the injected library, from finding the library
 * to the program's records read into the report. */
#ifndef GPUPROF_EXEC_RUN_H
#define GPUPROF_EXEC_RUN_H

#include "exec/spawn.h"
#include "gpuprof/report.h"

#include <stddef.h>

/* libgpuprof-inject.so: beside gpuprof in the build folder, or in PREFIX/lib/gpuprof once
 * installed. */
int gp_exec_find_library(char *path, size_t len);

/* Run the program with the library and s->options, in a records folder of its own (made,
 * then removed; it and gpuprof's pid replace the options' records_dir and parent_pid): how
 * it ended, and its records, into the report. With --replay=application, once more for each
 * later pass, its output discarded and its launches merged into the first run's. */
int gp_exec_run_program(const gp_exec_spawn *s, gp_report *report);

#endif
