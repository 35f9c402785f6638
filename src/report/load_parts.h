/* Reading back the parts of a report that several of its sections hold: a device and a metric
 * set (a kernel command's results and gpuprof exec's launches), the index of an exec launch's
 * or view's file in a merged report (report/load.c reads the document around them). */
#ifndef GPUPROF_REPORT_LOAD_PARTS_H
#define GPUPROF_REPORT_LOAD_PARTS_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* The device object o into *device (a gp_device_info): a gp_json_value_reader. */
int gp_report_read_device(gp_json_reader *rd, const cJSON *o, void *device);
/* o[key]: null or { key: metric }. */
int gp_report_read_metrics(gp_json_reader *rd, const cJSON *o, const char *key,
                           gp_metric_set *s);
/* o["source"] of an exec launch or view: the index of its file in r's sources (read
 * already); absent: 0 in a report not merged, GP_INPUT_UNKNOWN in a merge (of an older
 * gpuprof, which did not record it). */
int gp_report_read_input(gp_json_reader *rd, const cJSON *o, const gp_report *r,
                         size_t *input);

#endif
