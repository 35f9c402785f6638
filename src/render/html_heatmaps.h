/* The two-parameter sweeps of a kernel command's HTML page (html_heatmaps.c). */
#ifndef GPUPROF_RENDER_HTML_HEATMAPS_H
#define GPUPROF_RENDER_HTML_HEATMAPS_H

#include "gpuprof/report.h"

#include <stdio.h>

/* A heatmap of GB/s per variant whose results differ in exactly two parameters (pad ×
 * block), those of a family side by side on one colour scale; nothing where none does. */
int gp_html_heatmaps(FILE *out, const gp_report *r);

#endif
