/* --source's per-line view in the text report (text_source.c): the kernel commands' whole, and
 * the parts an exec report's (text_exec_lines.c) shares. */
#ifndef GPUPROF_RENDER_TEXT_SOURCE_H
#define GPUPROF_RENDER_TEXT_SOURCE_H

#include "gpuprof/exec_stalls.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdio.h>

/* Each result's kernels' lines, after the report's tables; nothing when no result has lines. */
int gp_text_source(FILE *out, const gp_report *r, const gp_render_options *o);

/* The view's legend, after a blank line: what its columns say (stalls: the columns of a
 * kernel's warp stalls too). */
void gp_text_source_legend(FILE *out, bool stalls, const gp_render_options *o);
/* One kernel's lines that move memory, the worst first (with --sass their instructions),
 * under a paragraph that begins with `heading` (which kernel, of what) and says its global
 * sectors over the ideal; with its kernel code's warp stalls (NULL: none), each line's share
 * of them and its top group beside, and the lines that hold samples listed too. */
int gp_text_source_kernel(FILE *out, const char *heading, const gp_source_kernel *k,
                          const gp_stall_kernel *stalls, const gp_render_options *o);

#endif
