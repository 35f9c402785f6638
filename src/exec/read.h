/* gpuprof exec: reading the records the injected library wrote into the report. */
#ifndef GPUPROF_EXEC_READ_H
#define GPUPROF_EXEC_READ_H

#include "gpuprof/report.h"

#include <stddef.h>

/* Every <pid>.jsonl in dir: devices, profiler set-ups, launches with their metrics, kernel
 * times, warnings; launches sorted by process and launch order. */
int gp_exec_read_records(const char *dir, gp_report *report);

/* One record file's text: its name as the warnings give it ("1234.jsonl"), its bytes. */
typedef struct {
    const char *name;
    const char *text;
    size_t len;
} gp_exec_records_text;

/* The same from record files already in memory, in the order given. */
int gp_exec_read_texts(const gp_exec_records_text *files, size_t n, gp_report *report);

#endif
