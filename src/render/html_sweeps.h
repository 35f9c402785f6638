/* The parameter sweeps of a kernel command's HTML page (html_sweeps.c). */
#ifndef GPUPROF_RENDER_HTML_SWEEPS_H
#define GPUPROF_RENDER_HTML_SWEEPS_H

#include "gpuprof/report.h"

#include <stdio.h>

/* A line chart per family and parameter its variants' results sweep, each with its table;
 * nothing where none does. */
int gp_html_sweeps(FILE *out, const gp_report *r);

#endif
