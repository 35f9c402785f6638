/* The text format's views, for people (text.c; exec reports: text_exec.c; rank views:
 * text_ranks.c). */
#ifndef GPUPROF_RENDER_TEXT_H
#define GPUPROF_RENDER_TEXT_H

#include "render/views.h"

gp_report_view gp_text_report, gp_text_exec, gp_text_ranks;
gp_compare_view gp_text_compare;
gp_list_view gp_text_list;
extern const gp_stream_view gp_text_stream;
gp_devices_view gp_text_devices;
gp_chip_metrics_view gp_text_chip_metrics;

/* Merged exec reports: a line per file with the program it profiled (text_exec_sources.c). */
void gp_text_exec_sources(FILE *out, const gp_report *r);

#endif
