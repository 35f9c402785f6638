/* exec's --launches in text (text_launches.c), called from text_exec.c: a row per launch, and
 * per copy and memset among them. */
#ifndef GPUPROF_RENDER_TEXT_LAUNCHES_H
#define GPUPROF_RENDER_TEXT_LAUNCHES_H

#include "gpuprof/kernel_labels.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* The launches in issue order, the copies and memsets among them, each row with its
 * kernel's #N and label (in every part of a table wider than the page); then one legend of
 * exactly the columns printed, and the launches' notes. */
int gp_text_launches(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                     const gp_render_options *o);

#endif
