/* exec's kernel metrics in the text report (text_exec_metrics.c), after the summary. */
#ifndef GPUPROF_RENDER_TEXT_EXEC_METRICS_H
#define GPUPROF_RENDER_TEXT_EXEC_METRICS_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* With the default set, one table, a row per profiled kernel in the summary's order: the
 * catalogue's table metrics with each per-request value's ideal beside it, averaged over the
 * kernel's profiled launches. With --metrics-detail, or a set other than the default, a block
 * per kernel, a row per metric (minimum, maximum, average: nvprof's --metrics layout; with
 * --metrics-detail what each means). Nothing when no kernel has a metric. */
int gp_text_exec_metrics(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                         const gp_kernel_labels *kl, const gp_render_options *o);

#endif
