/* --source's per-line view as CSV (csv_source.c): one row per source line of each kernel of
 * each result, or of each view of an exec report (one per instruction where the kernel's
 * code has no line information). */
#ifndef GPUPROF_RENDER_CSV_SOURCE_H
#define GPUPROF_RENDER_CSV_SOURCE_H

#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* Written by the CSV stream (csv.c) when --source asks for it: the header (unless
 * --no-header), then each result's lines as the result becomes final. */
void gp_csv_source_header(FILE *out, const gp_render_options *o);
void gp_csv_source_result(FILE *out, const gp_result *res);
/* An exec report's (--source): the header (unless --no-header), then each view's lines, by
 * its kernel's #N. */
int gp_csv_exec_source(FILE *out, const gp_report *r, const gp_render_options *o);

#endif
