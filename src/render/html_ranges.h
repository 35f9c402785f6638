/* exec's --by-range on the page (html_ranges.c), called from html_exec.c. */
#ifndef GPUPROF_RENDER_HTML_RANGES_H
#define GPUPROF_RENDER_HTML_RANGES_H

#include "gpuprof/report.h"

#include <stdio.h>

/* The section "Ranges": a table of the range tree, each range's label indented by its depth
 * (its path on hover), and its note. */
int gp_html_ranges(FILE *out, const gp_report *r);

#endif
