/* --source's per-line view on the kernel commands' page (html_source.c): each kernel's lines
 * that move memory, in source order, each with its text and a heat colour for its share of
 * the kernel's waste. */
#ifndef GPUPROF_RENDER_HTML_SOURCE_H
#define GPUPROF_RENDER_HTML_SOURCE_H

#include "gpuprof/report.h"

#include <stdio.h>

/* Nothing when no result has a per-line view. */
void gp_html_source(FILE *out, const gp_report *r);

#endif
