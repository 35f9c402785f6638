/* The JSON format's views (json.c). Kernel and exec reports are one document, the exec
 * part in its "exec": one view renders both. */
#ifndef GPUPROF_RENDER_JSON_H
#define GPUPROF_RENDER_JSON_H

#include "render/views.h"

gp_report_view gp_json_report;
gp_compare_view gp_json_compare;
gp_list_view gp_json_list;
gp_devices_view gp_json_devices;
gp_chip_metrics_view gp_json_chip_metrics;

#endif
