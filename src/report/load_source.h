/* Reading back --source's per-line view of a result (report/load.c reads the result around
 * it; render/json_source.c writes it). */
#ifndef GPUPROF_REPORT_LOAD_SOURCE_H
#define GPUPROF_REPORT_LOAD_SOURCE_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* o["source_lines"], when there: each kernel's lines and instructions into res. */
int gp_report_read_source_lines(gp_json_reader *rd, const cJSON *o, gp_result *res);

#endif
