/* Reading back the exec section's copies, memsets and unified memory (report/load_exec.c
 * reads the rest of the section). All of it is optional: reports of a gpuprof before GPU
 * activities have none. */
#ifndef GPUPROF_REPORT_LOAD_ACTIVITIES_H
#define GPUPROF_REPORT_LOAD_ACTIVITIES_H

#include "gpuprof/report.h"
#include "report/json_in.h"

/* The exec object's `activities` and `unified_memory` into e, when present; `copies` and
 * `pageable_percent` are derived from the activities, so only checked. */
int gp_report_read_activities(gp_json_reader *rd, const cJSON *exec, gp_exec_info *e);

#endif
