/* --source's per-line view on the kernel commands' and exec's pages (html_source.c): each
 * kernel's lines that move memory, in source order, each with its text and a heat colour for
 * its share of the kernel's waste. */
#ifndef GPUPROF_RENDER_HTML_SOURCE_H
#define GPUPROF_RENDER_HTML_SOURCE_H

#include "gpuprof/report.h"

#include <stdio.h>

/* Nothing when no result has a per-line view. */
int gp_html_source(FILE *out, const gp_report *r);
/* An exec report's views, by #N, then the kernels without lines; nothing when --source was
 * not asked and no view is held. */
int gp_html_exec_source(FILE *out, const gp_report *r);

#endif
