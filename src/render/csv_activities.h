/* gpuprof exec's copies, memsets and unified memory in CSV (csv_activities.c), called from
 * csv.c's exec view. */
#ifndef GPUPROF_RENDER_CSV_ACTIVITIES_H
#define GPUPROF_RENDER_CSV_ACTIVITIES_H

#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdio.h>

/* When the program copied, set memory or used unified memory: an empty line, then the
 * activities' own table (its header unless --no-header; columns in csv_activities.c). */
int gp_csv_activities(FILE *out, const gp_report *r, const gp_render_options *o);

#endif
