/* Reading back the exec section's GPU activities besides kernels (report/load_activities.h):
 * each copy and memset with its kinds by name, and the unified-memory counters by key. */
#include "report/load_activities.h"

#include "gpuprof/activity_names.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/part_load.h"

#include <stdint.h>
#include <stdlib.h>

/* Each copy and memset, read by the activities part's declaration. */
static int read_each(gp_json_reader *rd, const cJSON *exec, gp_exec_info *e)
{
    void *rows;
    size_t n;
    GP_TRY(gp_part_load(rd, exec, &gp_activities_part, &rows, &n));
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        gp_exec_activity *a;
        rc = gp_exec_add_activity(e, &a);
        if (rc == GP_OK)
            *a = *(const gp_exec_activity *)gp_part_row_at(&gp_activities_part, rows, i);
    }
    free(rows);
    return rc;
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
    GP_TRY(read_each(rd, exec, e));
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
