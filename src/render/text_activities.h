/* gpuprof exec's GPU activities in text (text_activities.c), called from text_exec.c: nvprof's
 * "GPU activities" table and unified-memory section, and the copies among --launches' rows. */
#ifndef GPUPROF_RENDER_TEXT_ACTIVITIES_H
#define GPUPROF_RENDER_TEXT_ACTIVITIES_H

#include "gpuprof/report.h"
#include "gpuprof/kernel_labels.h"
#include "render/text_layout.h"

#include <stddef.h>
#include <stdio.h>

/* When the program copied, set memory or used unified memory: the GPU activities (kernels,
 * copies and memsets by time), the copies by host memory with the pageable share, and the
 * unified-memory counters. Nothing otherwise. */
int gp_text_activities(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                       const gp_render_options *o);

/* --launches: the copies and memsets from *next on that were issued before `before` (same
 * pid, smaller correlation id, or an earlier pid), or all that are left when before is NULL,
 * as rows of the launch table t (its n_metrics metric columns empty); *next moves past
 * them. */
void gp_text_launch_activities(gp_text_table *t, const gp_report *r, size_t *next,
                               const gp_exec_launch *before, size_t n_metrics);

#endif
