/* Reading back the exec section's GPU activities besides kernels (report/load_activities.h):
 * each copy and memset with its kinds by name, and the unified-memory counters by key. */
#include "report/load_activities.h"

#include "gpuprof/activity_names.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/part_load.h"

#include <stdint.h>
#include <stdlib.h>

static int get_memory(gp_json_reader *rd, const cJSON *o, const char *key, gp_memory_kind *m)
{
    int i;
    GP_TRY(gp_json_get_enum(rd, o, key, gp_memory_names, GP_MEMORY_KINDS, false, &i));
    *m = (gp_memory_kind)i;
    return GP_OK;
}

static int read_activity(gp_json_reader *rd, const cJSON *o, void *exec)
{
    gp_exec_activity *a;
    uint64_t id;
    int kind;
    GP_TRY(gp_exec_add_activity(exec, &a));
    GP_TRY(gp_json_get_int(rd, o, "pid", 0, &a->pid));
    GP_TRY(gp_json_get_integer(rd, o, "id", 0, UINT64_MAX, &id));
    a->id = id;
    GP_TRY(gp_json_get_enum(rd, o, "kind", gp_activity_keys, GP_ACTIVITY_KINDS, false, &kind));
    a->kind = (gp_activity_kind)kind;
    GP_TRY(gp_json_get_int(rd, o, "device", 0, &a->device));
    GP_TRY(gp_json_get_uint(rd, o, "context", 0, &a->context));
    GP_TRY(gp_json_get_uint(rd, o, "stream", 0, &a->stream));
    GP_TRY(get_memory(rd, o, "src", &a->src));
    GP_TRY(get_memory(rd, o, "dst", &a->dst));
    GP_TRY(gp_json_get_integer(rd, o, "bytes", 0, UINT64_MAX, &a->bytes));
    GP_TRY(gp_json_get_integer(rd, o, "start_ns", 0, UINT64_MAX, &a->start_ns));
    return gp_json_get_integer(rd, o, "end_ns", 0, UINT64_MAX, &a->end_ns);
}

/* The counters, each read by the unified-memory part's declaration. */
static int read_unified(gp_json_reader *rd, const cJSON *exec, gp_exec_info *e)
{
    void *rows;
    size_t n;
    GP_TRY(gp_part_load(rd, exec, &gp_unified_part, &rows, &n));
    for (size_t i = 0; i < n; i++) {
        const gp_um_row *r = gp_part_row_at(&gp_unified_part, rows, i);
        e->unified[r->counter] = r->stats;
    }
    free(rows);
    return GP_OK;
}

int gp_report_read_activities(gp_json_reader *rd, const cJSON *exec, gp_exec_info *e)
{
    if (gp_json_field(exec, "activities"))
        GP_TRY(gp_json_read_objects(rd, exec, "activities", read_activity, e));
    /* The summary rows are derived from the activities: checked to be objects, not kept. */
    if (gp_json_field(exec, "copies"))
        GP_TRY(gp_json_read_objects(rd, exec, "copies", NULL, NULL));
    if (gp_json_field(exec, "pageable_percent")) {
        double pageable;
        GP_TRY(gp_json_get_number(rd, exec, "pageable_percent", 0, true, &pageable));
    }
    GP_TRY(read_unified(rd, exec, e));
    return GP_OK;
}
