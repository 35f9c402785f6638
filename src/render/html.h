/* The HTML format's views, a self-contained page each (html_kernel.c, html_exec.c,
 * html_compare.c; what the pages share: html_page.h); it has none of list, devices or
 * metrics. */
#ifndef GPUPROF_RENDER_HTML_H
#define GPUPROF_RENDER_HTML_H

#include "render/views.h"

gp_report_view gp_html_report, gp_html_exec, gp_html_ranks;
gp_compare_view gp_html_compare;

#endif
