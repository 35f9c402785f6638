/* exec --stalls in text (text_stalls.c), called from text_exec.c after the kernel summary. */
#ifndef GPUPROF_RENDER_TEXT_STALLS_H
#define GPUPROF_RENDER_TEXT_STALLS_H

#include "gpuprof/kernel_labels.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* The section "Warp stalls" of a report whose run sampled them (nothing otherwise): a row
 * per kernel code labelled by kl, the groups' legend, each of the top kernels' lines (--sass:
 * their instructions). */
int gp_text_stalls(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                   const gp_render_options *o);

#endif
