/* --source's per-line view in JSON (json_source.c), one object per kernel of a result. */
#ifndef GPUPROF_RENDER_JSON_SOURCE_H
#define GPUPROF_RENDER_JSON_SOURCE_H

#include "gpuprof/report.h"

#include <cjson/cJSON.h>

/* `source_lines` on the result's object when it has them. */
void gp_json_source_lines(cJSON *result, const gp_result *res);

#endif
