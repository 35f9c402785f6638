/* --source's per-line view as CSV (csv_source.c): one row per source line of each kernel of
 * each result (one per instruction where the kernel's code has no line information). */
#ifndef GPUPROF_RENDER_CSV_SOURCE_H
#define GPUPROF_RENDER_CSV_SOURCE_H

#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

int gp_csv_source(FILE *out, const gp_report *r, const gp_render_options *o);

#endif
