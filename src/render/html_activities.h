/* gpuprof exec's GPU activities besides kernels on the HTML page (html_activities.c), called
 * from html_exec.c. */
#ifndef GPUPROF_RENDER_HTML_ACTIVITIES_H
#define GPUPROF_RENDER_HTML_ACTIVITIES_H

#include "gpuprof/report.h"

#include <stdio.h>

/* When the program copied, set memory or used unified memory: a section with the copies and
 * memsets by kind and host memory, the pageable share, and the unified-memory counters. */
int gp_html_activities(FILE *out, const gp_report *r);

#endif
