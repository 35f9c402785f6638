/* --source's per-line view in the text report (text_source.c). */
#ifndef GPUPROF_RENDER_TEXT_SOURCE_H
#define GPUPROF_RENDER_TEXT_SOURCE_H

#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* Each result's kernels' lines, after the report's tables; nothing when no result has lines. */
int gp_text_source(FILE *out, const gp_report *r, const gp_render_options *o);

#endif
