/* exec --source's per-line views in the text report (text_exec_lines.c), after the rest. */
#ifndef GPUPROF_RENDER_TEXT_EXEC_LINES_H
#define GPUPROF_RENDER_TEXT_EXEC_LINES_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/kernel_labels.h"

#include <stdio.h>

/* Each kernel's lines in each process, by #N, as the kernel commands show theirs; then the
 * kernels without lines and why. Nothing when --source was not asked and no view is held. */
int gp_text_exec_lines(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                        const gp_kernel_labels *kl, const gp_render_options *o);

#endif
