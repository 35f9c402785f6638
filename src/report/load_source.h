/* Reading back --source's per-line view of a result (report/load.c reads the result around
 * it) or of an exec report (report/load_exec.c reads the section around it);
 * render/json_source.c writes them. */
#ifndef GPUPROF_REPORT_LOAD_SOURCE_H
#define GPUPROF_REPORT_LOAD_SOURCE_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* o["source_lines"], when there: each kernel's lines and instructions into res. */
int gp_report_read_source_lines(gp_json_reader *rd, const cJSON *o, gp_result *res);
/* exec["source_lines"], when there: each view with its process, launch, note and source into
 * r->exec (the sources read already), and --source asked. */
int gp_report_read_exec_source_lines(gp_json_reader *rd, const cJSON *o, gp_report *r);
/* Once exec["stalls"] is read too: each view's lines and instructions have the stall keys
 * the writer derives from the stalls (gpuprof/source_stalls.h), no more, no other. */
int gp_report_check_source_stalls(gp_json_reader *rd, const cJSON *o, const gp_report *r);

#endif
