/* Reading back the `exec` section of a report of gpuprof exec (report/load.c reads the rest). */
#ifndef GPUPROF_REPORT_LOAD_EXEC_H
#define GPUPROF_REPORT_LOAD_EXEC_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* The exec object o into report->exec (a gp_report; is_exec set): a gp_json_value_reader. */
int gp_report_read_exec(gp_json_reader *rd, const cJSON *o, void *report);

#endif
