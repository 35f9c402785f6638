/* exec's --by-range in text (text_ranges.c), called from text_exec.c: the range tree. */
#ifndef GPUPROF_RENDER_TEXT_RANGES_H
#define GPUPROF_RENDER_TEXT_RANGES_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* A row per range, each followed by the ranges within it indented under it, siblings the most
 * time first; then its legend and the estimates' notes. k (nk) and kl: the report's kernel
 * summary and labels. */
int gp_text_ranges(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                   const gp_kernel_labels *kl, const gp_render_options *o);

#endif
