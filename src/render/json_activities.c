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

static cJSON *activity_json(const gp_exec_activity *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pid", a->pid);
    cJSON_AddNumberToObject(o, "id", (double)a->id);
    cJSON_AddStringToObject(o, "kind", gp_activity_keys[a->kind]);
    cJSON_AddNumberToObject(o, "device", a->device);
    cJSON_AddNumberToObject(o, "context", a->context);
    cJSON_AddNumberToObject(o, "stream", a->stream);
    cJSON_AddStringToObject(o, "src", gp_memory_names[a->src]);
    cJSON_AddStringToObject(o, "dst", gp_memory_names[a->dst]);
    cJSON_AddNumberToObject(o, "bytes", (double)a->bytes);
    cJSON_AddNumberToObject(o, "start_ns", (double)a->start_ns);
    cJSON_AddNumberToObject(o, "end_ns", (double)a->end_ns);
    return o;
}

/* calls, total/average/min/max ms, bytes, GB/s of a row. */
static void add_row_numbers(cJSON *o, const gp_activity_row *row)
{
    cJSON_AddNumberToObject(o, "calls", (double)row->calls);
    gp_json_add_number(o, "total_ms", gp_activity_total_ms(row));
    gp_json_add_number(o, "average_ms", gp_activity_average_ms(row));
    gp_json_add_number(o, "min_ms", row->min_ms);
    gp_json_add_number(o, "max_ms", row->max_ms);
    cJSON_AddNumberToObject(o, "bytes", (double)row->bytes);
    gp_json_add_number(o, "gbps", gp_activity_gbps(row));
}

/* The summary rows by kind, each with its copies by host memory. */
static int copies_json(cJSON *exec, const gp_exec_info *e)
{
    gp_activity_tables t;
    const int rc = gp_exec_activity_tables(e, &t);
    cJSON *copies = cJSON_AddArrayToObject(exec, "copies");
    for (size_t i = 0; rc == GP_OK && i < t.n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", gp_activity_keys[t.rows[i].kind]);
        add_row_numbers(o, &t.rows[i]);
        cJSON *by_memory = cJSON_AddObjectToObject(o, "host_memory");
        for (size_t k = 0; k < t.n_host; k++)
            if (t.host[k].kind == t.rows[i].kind)
                add_row_numbers(cJSON_AddObjectToObject(by_memory,
                                                        gp_memory_names[t.host[k].host]),
                                &t.host[k]);
        cJSON_AddItemToArray(copies, o);
    }
    gp_json_add_number(exec, "pageable_percent", gp_exec_pageable_percent(e));
    gp_activity_tables_free(&t);
    return rc;
}

int gp_json_exec_activities(cJSON *exec, const gp_exec_info *e)
{
    if (e->n_activities) {
        cJSON *a = cJSON_AddArrayToObject(exec, "activities");
        for (size_t i = 0; i < e->n_activities; i++)
            cJSON_AddItemToArray(a, activity_json(&e->activities[i]));
        GP_TRY(copies_json(exec, e));
    }
    gp_um_row rows[GP_UM_COUNTERS];
    const size_t n = gp_unified_rows(e, rows);
    if (n)
        gp_part_json(exec, &gp_unified_part, rows, n, NULL);
    return GP_OK;
}
