/* The HTML exec page's CUDA graph kernel nodes (html_graph.c): a row per graph node and way
 * its metrics were obtained, their notes as tooltips and numbered footnotes. */
#ifndef GPUPROF_RENDER_HTML_GRAPH_H
#define GPUPROF_RENDER_HTML_GRAPH_H

#include "gpuprof/report.h"

#include <stdio.h>

/* Nothing when no launch was a graph node. */
int gp_html_graph_nodes(FILE *out, const gp_report *r);

#endif
