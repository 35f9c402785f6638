/* Reading back the parts of a report that both a kernel command's results and gpuprof exec's
 * launches hold: a device and a metric set (report/load.c reads the document around them). */
#ifndef GPUPROF_REPORT_LOAD_PARTS_H
#define GPUPROF_REPORT_LOAD_PARTS_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* The device object o into *device (a gp_device_info): a gp_json_value_reader. */
int gp_report_read_device(gp_json_reader *rd, const cJSON *o, void *device);
/* o[key]: null or { key: metric }. */
int gp_report_read_metrics(gp_json_reader *rd, const cJSON *o, const char *key,
                           gp_metric_set *s);

#endif
