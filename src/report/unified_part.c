/* The unified-memory counters as a part (gpuprof/report_parts.h): text shows each counter's
 * records, average, least, most and total, and its time, then its name (nvprof's "Unified
 * Memory profiling result"); HTML and JSON the records, total, least and most (JSON keyed by
 * the counter's key, its time in ns); CSV a row under the kernels' header (its kind, calls,
 * time, and bytes or count). */
#include "gpuprof/report_parts.h"

#include "gpuprof/activity_names.h"

#include <math.h>
#include <string.h>

/* An amount of the counter: bytes for the transfers, a count for the others. */
static gp_cell amount(const gp_um_row *r, double v)
{
    return (gp_cell){.number = v,
                     .format = gp_um_is_bytes(r->counter) ? GP_NUMBER_BYTES : GP_NUMBER_WHOLE};
}

GP_PART_TEXT_GETTER(get_key, gp_um_row, void, gp_um_keys[r->counter])

static const char *set_key(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_um_row *r = row;
    for (int c = 1; c < GP_UM_COUNTERS; c++)
        if (strcmp(v->text, gp_um_keys[c]) == 0) {
            r->counter = (gp_um_counter)c;
            return NULL;
        }
    snprintf(why, len, "not a counter this gpuprof knows");
    return why;
}

GP_PART_TEXT_GETTER(get_title, gp_um_row, void, gp_um_title(r->counter))
GP_PART_NUMBER_GETTER(get_events, gp_um_row, void, r->stats.events)
GP_PART_WHOLE_SETTER(set_events, gp_um_row, r->stats.events, 1, UINT64_MAX)
GP_PART_GETTER(get_average, gp_um_row, void,
               amount(r, (double)r->stats.total / (double)r->stats.events))
GP_PART_GETTER(get_total, gp_um_row, void, amount(r, (double)r->stats.total))
GP_PART_WHOLE_SETTER(set_total, gp_um_row, r->stats.total, 0, UINT64_MAX)
GP_PART_GETTER(get_min, gp_um_row, void, amount(r, (double)r->stats.min))
GP_PART_WHOLE_SETTER(set_min, gp_um_row, r->stats.min, 0, UINT64_MAX)
GP_PART_GETTER(get_max, gp_um_row, void, amount(r, (double)r->stats.max))
/* After min (the columns are read in order): at least the least. */
GP_PART_WHOLE_SETTER(set_max, gp_um_row, r->stats.max, r->stats.min, UINT64_MAX)
GP_PART_NUMBER_GETTER(get_time_ms, gp_um_row, void,
                      r->stats.time_ns ? (double)r->stats.time_ns * 1e-6 : NAN)
GP_PART_NUMBER_GETTER(get_time_ns, gp_um_row, void, r->stats.time_ns)
GP_PART_WHOLE_SETTER(set_time_ns, gp_um_row, r->stats.time_ns, 0, UINT64_MAX)

/* CSV's row of the counter under the kernels' header: its kind "unified_memory <key>", its
 * total as bytes or as a count, the row a total. */
static gp_cell get_csv_kind(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    snprintf(buf, len, "unified_memory %s", gp_um_keys[((const gp_um_row *)row)->counter]);
    return GP_CELL_TEXT(buf);
}

GP_PART_GETTER(get_csv_bytes, gp_um_row, void,
               gp_um_is_bytes(r->counter) ? get_total(r, c, buf, len) : GP_CELL_NUMBER(NAN))
GP_PART_GETTER(get_csv_count, gp_um_row, void,
               gp_um_is_bytes(r->counter) ? GP_CELL_NUMBER(NAN) : get_total(r, c, buf, len))
GP_PART_TEXT_GETTER(get_csv_row, void, void, GP_ACTIVITY_ROW_TOTAL)

/* A column of CSV's row alone. */
#define CSV_COLUMN(name, number_format, getter)                                               \
    {.key = (name), .format = (number_format), .in = GP_IN_CSV, .get = (getter)}

enum {
    KEY, EVENTS, AVERAGE, MIN, MAX, TOTAL, TIME_MS, TIME_NS, NAME,
    /* CSV's, under the kernels' header: */
    CSV_KIND, CSV_CALLS, CSV_TIME, CSV_BYTES, CSV_COUNT, CSV_ROW
};

/* In text's order (nvprof's listing); HTML and JSON have theirs (gpuprof's page since
 * before: the name first, the total before the least). */
static const gp_part_column columns[] = {
    [KEY] = {.key = "counter", .in = GP_IN_JSON, .get = get_key, .set = set_key,
             .legend = "the counter: bytes_htod, bytes_dtoh, bytes_dtod, cpu_page_faults, "
                       "gpu_page_faults, thrashing, throttling, remote_map"},
    [EVENTS] = {.key = "events", .header = "Count", .html = "records",
                .format = GP_NUMBER_WHOLE, .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON,
                .get = get_events, .set = set_events, .legend = "the counter's records"},
    [AVERAGE] = {.key = "average", .header = "Avg", .format = GP_NUMBER_WHOLE, .gap = 1,
                 .in = GP_IN_TEXT, .get = get_average},
    [MIN] = {.key = "min", .header = "Min", .format = GP_NUMBER_WHOLE, .gap = 1,
             .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON, .get = get_min, .set = set_min},
    [MAX] = {.key = "max", .header = "Max", .format = GP_NUMBER_WHOLE, .gap = 1,
             .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON, .get = get_max, .set = set_max},
    [TOTAL] = {.key = "total", .header = "Total", .format = GP_NUMBER_WHOLE, .gap = 1,
               .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_JSON, .get = get_total,
               .set = set_total,
               .legend = "bytes for the transfers; faults, fault groups or events for the "
                         "others"},
    [TIME_MS] = {.key = "time_ms", .header = "Time", .format = GP_NUMBER_MS, .gap = 1,
                 .in = GP_IN_TEXT | GP_IN_HTML, .get = get_time_ms},
    [TIME_NS] = {.key = "time_ns", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
                 .get = get_time_ns, .set = set_time_ns,
                 .legend = "the time of the records with a duration, ns"},
    [NAME] = {.key = "name", .header = "Name", .html = "counter", .align = GP_ALIGN_LEFT,
              .gap = 2, .in = GP_IN_TEXT | GP_IN_HTML, .get = get_title},
    [CSV_KIND] = CSV_COLUMN("kind", GP_NUMBER_COLUMN, get_csv_kind),
    [CSV_CALLS] = CSV_COLUMN("calls", GP_NUMBER_COUNT, get_events),
    [CSV_TIME] = CSV_COLUMN("total_ms", GP_NUMBER_MS, get_time_ms),
    [CSV_BYTES] = CSV_COLUMN("bytes", GP_NUMBER_BYTES, get_csv_bytes),
    [CSV_COUNT] = CSV_COLUMN("count", GP_NUMBER_WHOLE, get_csv_count),
    [CSV_ROW] = CSV_COLUMN("row", GP_NUMBER_COLUMN, get_csv_row),
};

const gp_part gp_unified_part = {
    .key = "unified_memory", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .n_key = 1, .row_size = sizeof(gp_um_row), .json_keyed_by = KEY,
    .order = {[GP_VIEW_HTML] = GP_PART_ORDER(NAME, EVENTS, TOTAL, MIN, MAX, TIME_MS),
              [GP_VIEW_JSON] = GP_PART_ORDER(KEY, EVENTS, TOTAL, MIN, MAX, TIME_NS)},
};

size_t gp_unified_rows(const gp_exec_info *e, gp_um_row *rows)
{
    size_t n = 0;
    for (int c = 1; c < GP_UM_COUNTERS; c++)
        if (e->unified[c].events)
            rows[n++] = (gp_um_row){(gp_um_counter)c, e->unified[c]};
    return n;
}
