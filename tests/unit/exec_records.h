/* What the unit tests of gpuprof exec's record reader share (test_exec_read.c defines them):
 * reading a case of tests/fixtures/records/ or a text, and looking into the report. */
#ifndef GPUPROF_TEST_EXEC_RECORDS_H
#define GPUPROF_TEST_EXEC_RECORDS_H

#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdint.h>

/* The records of tests/fixtures/records/<name>/ read, then checked by check(). */
void check_case(const char *name, void (*check)(const gp_report *r));
/* The case read as gpuprof exec reads it (cmd_exec.c), with --source asked: its command line
 * (argc words, the program last), the program's pid, the versions of the driver and runtime
 * (13.0). The caller frees r. */
int exec_report_of(const char *name, char *const *command_line, int argc, int pid,
                   gp_report *r);
/* One file, 9.jsonl, of exactly this text, read into a report r (the caller frees it). */
int read_text(const char *text, gp_report *r);
const gp_metric_value *metric(const gp_exec_launch *l, const char *key);
/* NAN when the launch has no valid value of the metric. */
double metric_value(const gp_exec_launch *l, const char *key);
/* Does launch i have this pid, id, kernel and profiled state? */
bool launch_is(const gp_report *r, size_t i, int pid, uint64_t id, const char *kernel,
               bool profiled);

#endif
