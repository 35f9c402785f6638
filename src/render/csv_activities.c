/* gpuprof exec's GPU activities besides kernels in CSV: a table of its own after the
 * launches' (an empty line between), one row per kind of copy or memset, one per kind and
 * host memory, one per unified-memory counter. Its columns:
 *
 *   kind         "memcpy HtoD", "memcpy DtoH", "memcpy DtoD", "memcpy PtoP", "memcpy HtoH",
 *                the array copies ("memcpy HtoA"...), "memset"; "unified_memory <counter>"
 *                with the counter's JSON key (bytes_htod, bytes_dtoh, bytes_dtod,
 *                cpu_page_faults, gpu_page_faults, thrashing, throttling, remote_map)
 *   host_memory  empty on the row of every copy of the kind; else pageable, pinned, managed
 *                (the host side's memory of the copies it sums)
 *   calls        copies or memsets; a counter's records
 *   total_ms, average_ms, min_ms, max_ms
 *                their times (a counter: total_ms only, of the records with a duration)
 *   bytes        bytes copied or set; a byte counter's bytes
 *   gbps         bytes over total time, GB/s (1e9 bytes/s)
 *   count        a counter of faults or events: their number
 *
 * Unknown or not applicable: empty. */
#include "render/csv_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/status.h"
#include "render/cells.h"

#include <math.h>

static const char header[] =
    "kind,host_memory,calls,total_ms,average_ms,min_ms,max_ms,bytes,gbps,count\n";

static void put_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

static void put_row(FILE *out, const gp_activity_row *row, bool by_memory)
{
    gp_csv_field(out, gp_activity_keys[row->kind], true);
    gp_csv_field(out, by_memory ? gp_memory_names[row->host] : "", false);
    fprintf(out, ",%zu", row->calls);
    put_number(out, row->timed ? row->total_ms : NAN);
    put_number(out, row->timed ? row->total_ms / (double)row->timed : NAN);
    put_number(out, row->min_ms);
    put_number(out, row->max_ms);
    fprintf(out, ",%llu", (unsigned long long)row->bytes);
    put_number(out, gp_activity_gbps(row));
    fputs(",\n", out);
}

static void put_counter(FILE *out, gp_um_counter c, const gp_um_stats *s)
{
    const bool bytes = gp_um_is_bytes(c);
    fprintf(out, "unified_memory %s,,%llu", gp_um_keys[c], (unsigned long long)s->events);
    put_number(out, s->time_ns ? (double)s->time_ns * 1e-6 : NAN);
    fputs(",,,", out);
    put_number(out, bytes ? (double)s->total : NAN);
    fputs(",", out);
    put_number(out, bytes ? NAN : (double)s->total);
    fputc('\n', out);
}

int gp_csv_activities(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const gp_exec_info *e = &r->exec;
    if (!gp_exec_has_activities(e))
        return GP_OK;
    gp_activity_tables t;
    const int rc = gp_exec_activity_tables(e, &t);
    if (rc == GP_OK) {
        fprintf(out, "\n%s", o && o->no_header ? "" : header);
        for (size_t i = 0; i < t.n; i++)
            put_row(out, &t.rows[i], false);
        for (size_t i = 0; i < t.n_host; i++)
            put_row(out, &t.host[i], true);
        for (int c = 1; c < GP_UM_COUNTERS; c++)
            if (e->unified[c].events)
                put_counter(out, (gp_um_counter)c, &e->unified[c]);
    }
    gp_activity_tables_free(&t);
    return rc;
}
