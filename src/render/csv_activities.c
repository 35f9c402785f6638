/* gpuprof exec's GPU activities besides kernels as CSV rows (csv.c writes them under the
 * kernels' header, after the kernels' rows): one row per kind of copy or memset, one per kind
 * and host memory, one per unified-memory counter. Their cells:
 *
 *   kind         "memcpy HtoD", "memcpy DtoH", "memcpy DtoD", "memcpy PtoP", "memcpy HtoH",
 *                the array copies ("memcpy HtoA"...), "memset"; "unified_memory <counter>"
 *                with the counter's JSON key (bytes_htod, bytes_dtoh, bytes_dtod,
 *                cpu_page_faults, gpu_page_faults, thrashing, throttling, remote_map)
 *   host_memory  empty on the row of every copy of the kind; else pageable, pinned, managed
 *                (the host side's memory of the copies it sums)
 *   calls        copies or memsets; a counter's records
 *   total_ms, avg_ms, min_ms, max_ms
 *                their times (a counter: total_ms only, of the records with a duration)
 *   bytes        bytes copied or set; a byte counter's bytes
 *   gbps         bytes over total time, GB/s (1e9 bytes/s)
 *   count        a counter of faults or events: their number
 *   row          total; by_host_memory on a row per kind and host memory, a part of its
 *                kind's total row (so that summing the total rows counts each copy once)
 *
 * Unknown or not applicable: empty. */
#include "render/csv_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void from_row(gp_csv_activity_line *l, const gp_activity_row *row, bool by_memory)
{
    snprintf(l->kind, sizeof l->kind, "%s", gp_activity_keys[row->kind]);
    l->host = by_memory ? gp_memory_names[row->host] : "";
    l->row = by_memory ? GP_CSV_ROW_BY_HOST_MEMORY : GP_CSV_ROW_TOTAL;
    l->calls = row->calls;
    l->total_ms = gp_activity_total_ms(row);
    l->avg_ms = gp_activity_average_ms(row);
    l->min_ms = row->min_ms;
    l->max_ms = row->max_ms;
    l->bytes = (double)row->bytes;
    l->gbps = gp_activity_gbps(row);
    l->count = NAN;
}

static void from_counter(gp_csv_activity_line *l, gp_um_counter c, const gp_um_stats *s)
{
    const bool bytes = gp_um_is_bytes(c);
    snprintf(l->kind, sizeof l->kind, "unified_memory %s", gp_um_keys[c]);
    l->host = "";
    l->row = GP_CSV_ROW_TOTAL;
    l->calls = s->events;
    l->total_ms = s->time_ns ? (double)s->time_ns * 1e-6 : NAN;
    l->avg_ms = l->min_ms = l->max_ms = l->gbps = NAN;
    l->bytes = bytes ? (double)s->total : NAN;
    l->count = bytes ? NAN : (double)s->total;
}

int gp_csv_activity_lines(const gp_exec_info *e, gp_csv_activity_line **lines, size_t *n)
{
    *lines = NULL;
    *n = 0;
    if (!gp_exec_has_activities(e))
        return GP_OK;
    gp_activity_tables t;
    int rc = gp_exec_activity_tables(e, &t);
    gp_csv_activity_line *out = NULL;
    if (rc == GP_OK) {
        out = malloc((t.n + t.n_host + GP_UM_COUNTERS) * sizeof *out);
        rc = out ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    size_t k = 0;
    for (size_t i = 0; rc == GP_OK && i < t.n; i++)
        from_row(&out[k++], &t.rows[i], false);
    for (size_t i = 0; rc == GP_OK && i < t.n_host; i++)
        from_row(&out[k++], &t.host[i], true);
    for (int c = 1; rc == GP_OK && c < GP_UM_COUNTERS; c++)
        if (e->unified[c].events)
            from_counter(&out[k++], (gp_um_counter)c, &e->unified[c]);
    gp_activity_tables_free(&t);
    if (rc != GP_OK) {
        free(out);
        return rc;
    }
    *lines = out;
    *n = k;
    return GP_OK;
}
