/* gpuprof exec: reading the records the injected library wrote into the report. */
#ifndef GPUPROF_EXEC_READ_H
#define GPUPROF_EXEC_READ_H

#include "gpuprof/report.h"

/* Every <pid>.jsonl in dir: devices, profiler set-ups, launches with their metrics, kernel
 * times, warnings; launches sorted by process and launch order. */
int gp_exec_read_records(const char *dir, gp_report *report);

#endif
