/* --source's per-line view in JSON (json_source.c), one object per kernel of a result, or of
 * an exec report's processes. */
#ifndef GPUPROF_RENDER_JSON_SOURCE_H
#define GPUPROF_RENDER_JSON_SOURCE_H

#include "gpuprof/report.h"

#include <cjson/cJSON.h>

/* `source_lines` on the result's object when it has them. */
void gp_json_source_lines(cJSON *result, const gp_result *res);
/* `source_lines` on the exec section when --source was asked or it has views: each kernel's
 * as a result's, with its process, patched launch (null: none), note and, in a merged report,
 * source; with warp stalls (--stalls), each line's and instruction's samples. */
void gp_json_exec_source_lines(cJSON *exec, const gp_exec_info *e, bool merged);

#endif
