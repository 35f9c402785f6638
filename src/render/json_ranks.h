/* A rank view's `ranks` section in JSON (render/json.c calls it): the ranks, and each
 * kernel's spread over them and its value on each (schemas/gpuprof-report-v1.schema.json,
 * $defs/rank_view). */
#ifndef GPUPROF_RENDER_JSON_RANKS_H
#define GPUPROF_RENDER_JSON_RANKS_H

#include "gpuprof/ranks.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* The report's document `root` (without its ranks, freed here) with the view's `ranks` as its
 * last key, printed as gp_json_print prints a document, but the ranks a piece at a time: a
 * view of a thousand ranks is never a tree in memory. */
int gp_json_print_with_ranks(FILE *out, cJSON *root, const gp_rank_view *v);

#endif
