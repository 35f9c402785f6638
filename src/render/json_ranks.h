/* A rank view's `ranks` section in JSON (render/json.c calls it): the ranks, and each
 * kernel's spread over them and its value on each (schemas/gpuprof-report-v1.schema.json,
 * $defs/rank_view). */
#ifndef GPUPROF_RENDER_JSON_RANKS_H
#define GPUPROF_RENDER_JSON_RANKS_H

#include "gpuprof/ranks.h"

#include <cjson/cJSON.h>

cJSON *gp_json_ranks(const gp_rank_view *v);

#endif
