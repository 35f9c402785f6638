/* One function per command; main() dispatches, prints errors and exits. Commands write
 * their results to `out` and return a status; they never exit. */
#ifndef GPUPROF_COMMANDS_H
#define GPUPROF_COMMANDS_H

#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdio.h>

int gp_cmd_kernel(const gp_request *req, FILE *out, gp_report *report);
int gp_cmd_list(const gp_request *req, FILE *out);
int gp_cmd_device(const gp_request *req, FILE *out);
int gp_cmd_metrics(const gp_request *req, FILE *out, gp_report *notes);
int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report);

/* Render a report in the request's format. */
int gp_render(const gp_request *req, FILE *out, const gp_report *report);

/* JSON documents of the catalogue commands (written by report_json.c). */
int gp_render_list_json(FILE *out);
int gp_render_devices_json(FILE *out, const gp_device_info *devices, size_t n);
int gp_render_metrics_json(FILE *out, const char *chip, const bool *available,
                           const char *const *missing, int passes_default, int passes_all);

#endif
