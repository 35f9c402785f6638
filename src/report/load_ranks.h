/* Reading back a rank view's `ranks` section (report/load.c calls it, after `exec`). */
#ifndef GPUPROF_REPORT_LOAD_RANKS_H
#define GPUPROF_REPORT_LOAD_RANKS_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* The ranks object o into report->ranks (a gp_report whose exec section has no launches), and
 * what the view derives from it: a gp_json_value_reader. */
int gp_report_read_ranks(gp_json_reader *rd, const cJSON *o, void *report);

#endif
