/* The exec section's copies, memsets and unified memory in JSON, beside its launches and
 * kernels (render/json.c calls it). */
#ifndef GPUPROF_RENDER_JSON_ACTIVITIES_H
#define GPUPROF_RENDER_JSON_ACTIVITIES_H

#include "gpuprof/report.h"

#include <cjson/cJSON.h>

/* `activities`, `copies`, `pageable_percent` when the program copied or set memory;
 * `unified_memory` when a counter counted. */
int gp_json_exec_activities(cJSON *exec, const gp_exec_info *e);

#endif
