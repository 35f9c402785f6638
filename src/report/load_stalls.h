/* Reading back exec --stalls' samples (report/load_exec.c reads the section around them);
 * render/json.c writes them through the stall parts (gpuprof/report_parts.h). */
#ifndef GPUPROF_REPORT_LOAD_STALLS_H
#define GPUPROF_REPORT_LOAD_STALLS_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* exec["stalls"], when there: what the run sampled, its reasons and every sampled
 * instruction into r->exec.stalls (the sources read already), and --stalls asked. */
int gp_report_read_exec_stalls(gp_json_reader *rd, const cJSON *o, gp_report *r);

#endif
