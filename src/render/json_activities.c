/* The exec section's GPU activities besides kernels in JSON (render/json_activities.h):
 * every copy and memset (`activities`, read back), their summary by kind (`copies`, derived
 * whenever a report is written, like `kernels`) and the unified-memory counters
 * (`unified_memory`, read back). Each is written only when the program had some, so a
 * report without them is as before. */
#include "render/json_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/json_out.h"
#include "render/part.h"

#include <math.h>

/* The rows by kind, each with its rows by host memory (an object keyed by the memory). */
static int copies_json(cJSON *exec, const gp_exec_info *e)
{
    gp_activity_tables t;
    const int rc = gp_exec_activity_tables(e, &t);
    const gp_copies_context under_kind = {.under_kind = true};
    cJSON *copies = cJSON_AddArrayToObject(exec, "copies");
    for (size_t i = 0; rc == GP_OK && i < t.n; i++) {
        cJSON *o = gp_part_json_row(&gp_copies_part, &t.rows[i], NULL);
        size_t first;
        const size_t n = gp_copies_by_host(&t, i, &first);
        gp_part_json(o, &gp_host_memory_part, n ? t.host + first : NULL, n, &under_kind);
        cJSON_AddItemToArray(copies, o);
    }
    gp_json_add_number(exec, "pageable_percent", gp_exec_pageable_percent(e));
    gp_activity_tables_free(&t);
    return rc;
}

int gp_json_exec_activities(cJSON *exec, const gp_exec_info *e)
{
    if (e->n_activities) {
        gp_part_json(exec, &gp_activities_part, e->activities, e->n_activities, NULL);
        GP_TRY(copies_json(exec, e));
    }
    gp_um_row rows[GP_UM_COUNTERS];
    const size_t n = gp_unified_rows(e, rows);
    if (n)
        gp_part_json(exec, &gp_unified_part, rows, n, NULL);
    return GP_OK;
}
