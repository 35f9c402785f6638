/* exec --stalls on the page (html_stalls.c), called from html_exec.c. */
#ifndef GPUPROF_RENDER_HTML_STALLS_H
#define GPUPROF_RENDER_HTML_STALLS_H

#include "gpuprof/report.h"

#include <stdio.h>

/* The section "Warp stalls" of a report whose run sampled them (nothing otherwise): a table
 * of the kernels and one of each kernel's lines, each row with a bar of its groups' shares,
 * the kernels labelled as the kernel table labels them; the groups' legend below. */
int gp_html_stalls(FILE *out, const gp_report *r);

#endif
