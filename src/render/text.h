/* The text format's views, for people (text.c; exec reports: text_exec.c; rank views:
 * text_ranks.c). */
#ifndef GPUPROF_RENDER_TEXT_H
#define GPUPROF_RENDER_TEXT_H

#include "render/views.h"

gp_report_view gp_text_exec, gp_text_ranks;
gp_compare_view gp_text_compare;
gp_list_view gp_text_list;
extern const gp_stream_view gp_text_stream;
gp_devices_view gp_text_devices;
gp_chip_metrics_view gp_text_chip_metrics;

/* The exec header's lines (text_exec_header.c), an exec report's and a rank view's: into
 * line, its first words ("gpuprof 0.1.0  exec ./app arg", the program's first 8 words, then
 * "..."), or its GPUs ("GPU 0: NAME (sm_90, 3352.3 GB/s peak); GPU 1: ...", "no GPU
 * recorded"); the bytes written (below len). Merged exec reports: a line per file with the
 * program it profiled, wrapped within `width`. */
size_t gp_text_exec_program(char *line, size_t len, const gp_report *r);
size_t gp_text_exec_gpus(char *line, size_t len, const gp_exec_info *e);
void gp_text_exec_sources(FILE *out, const gp_report *r, size_t width);

#endif
