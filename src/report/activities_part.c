/* exec's GPU activities besides kernels as parts (gpuprof/report_parts.h): each copy and
 * memset (JSON's "activities", read back), the copies and memsets by kind and by kind and
 * host memory (JSON's "copies", HTML's table, CSV's rows under the kernels', text's table of
 * the host memory), and text's GPU activities, nvprof's table of the kernels, copies and
 * memsets by the time they took. */
#include "gpuprof/report_parts.h"

#include "gpuprof/activity_names.h"
#include "gpuprof/status.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A getter of a row of type T (r) whose cell is one expression: a number or a word. */
#define CELL_OF(T, name, cell)                                                                \
    static gp_cell name(const void *row, const void *ctx, char *buf, size_t len)              \
    {                                                                                         \
        (void)ctx, (void)buf, (void)len;                                                      \
        const T *r = row;                                                                     \
        return cell;                                                                          \
    }
#define NUMBER_OF(T, name, value) CELL_OF(T, name, GP_CELL_NUMBER(value))
#define WORD_OF(T, name, value) CELL_OF(T, name, GP_CELL_TEXT(value))

/* ---- the copies and memsets by kind and host memory --------------------------------------- */

/* A row of every host memory of its kind (or of a kind without a host side). */
static bool is_kind_row(const gp_activity_row *r)
{
    return r->host == GP_MEMORY_UNKNOWN;
}

WORD_OF(gp_activity_row, get_title, gp_activity_title(r->kind))
WORD_OF(gp_activity_row, get_kind_title, is_kind_row(r) ? gp_activity_title(r->kind) : "")
WORD_OF(gp_activity_row, get_host, is_kind_row(r) ? "" : gp_memory_names[r->host])
WORD_OF(gp_activity_row, get_row,
        is_kind_row(r) ? GP_ACTIVITY_ROW_TOTAL : GP_ACTIVITY_ROW_BY_HOST_MEMORY)
NUMBER_OF(gp_activity_row, get_calls, (double)r->calls)
NUMBER_OF(gp_activity_row, get_total, gp_activity_total_ms(r))
NUMBER_OF(gp_activity_row, get_average, gp_activity_average_ms(r))
NUMBER_OF(gp_activity_row, get_min, r->min_ms)
NUMBER_OF(gp_activity_row, get_max, r->max_ms)
NUMBER_OF(gp_activity_row, get_bytes, (double)r->bytes)
NUMBER_OF(gp_activity_row, get_gbps, gp_activity_gbps(r))

/* The kind's key; under its kind's row (JSON's host_memory), left out: its parent's. */
static gp_cell get_kind(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    if (ctx && ((const gp_copies_context *)ctx)->under_kind)
        return (gp_cell){.number = NAN, .format = GP_NUMBER_ABSENT};
    return GP_CELL_TEXT(gp_activity_keys[((const gp_activity_row *)row)->kind]);
}

enum { KIND, ACTIVITY, HOST, CALLS, TOTAL, AVERAGE, AVERAGE_CSV, MIN, MAX, BYTES, GBPS, COPY, ROW };

/* In HTML's order (the kind's title, host memory, calls, the times, bytes, GB/s) and JSON's;
 * text's table of the host memory has its own. CSV's rows take theirs by key under the
 * kernels' header (render/csv.c), whose average is avg_ms. */
static const gp_part_column copy_columns[] = {
    [KIND] = {.key = "kind", .in = GP_IN_JSON | GP_IN_CSV, .get = get_kind,
              .legend = "the kind of copy or memset: memcpy HtoD, memcpy DtoH, ..., memset"},
    [ACTIVITY] = {.key = "activity", .in = GP_IN_HTML, .get = get_kind_title},
    [HOST] = {.key = "host_memory", .header = "Host memory", .html = "host memory",
              .align = GP_ALIGN_LEFT, .gap = 1, .in = GP_IN_TEXT | GP_IN_HTML | GP_IN_CSV,
              .get = get_host,
              .legend = "the host side's memory of the copies: pageable, pinned, managed"},
    [CALLS] = {.key = "calls", .header = "Calls", .format = GP_NUMBER_COUNT, .in = GP_IN_ALL,
               .get = get_calls, .legend = "copies or memsets"},
    [TOTAL] = {.key = "total_ms", .header = "Time", .format = GP_NUMBER_MS, .gap = 1,
               .in = GP_IN_ALL, .get = get_total, .legend = "the time of the timed ones, ms"},
    [AVERAGE] = {.key = "average_ms", .html = "avg_ms", .format = GP_NUMBER_MS,
                 .in = GP_IN_HTML | GP_IN_JSON, .get = get_average},
    [AVERAGE_CSV] = {.key = "avg_ms", .format = GP_NUMBER_MS, .in = GP_IN_CSV,
                     .get = get_average},
    [MIN] = {.key = "min_ms", .format = GP_NUMBER_MS, .in = GP_IN_HTML | GP_IN_JSON | GP_IN_CSV,
             .get = get_min},
    [MAX] = {.key = "max_ms", .format = GP_NUMBER_MS, .in = GP_IN_HTML | GP_IN_JSON | GP_IN_CSV,
             .get = get_max},
    [BYTES] = {.key = "bytes", .header = "Bytes", .format = GP_NUMBER_BYTES, .gap = 1,
               .in = GP_IN_ALL, .get = get_bytes, .legend = "bytes copied or set"},
    [GBPS] = {.key = "gbps", .header = "GB/s", .html = "GB/s", .format = GP_NUMBER_FIXED2,
              .gap = 1, .in = GP_IN_ALL, .get = get_gbps,
              .legend = "the timed ones' bytes over their time, GB/s (10^9 bytes/s)"},
    [COPY] = {.key = "copy", .header = "Copy", .align = GP_ALIGN_LEFT, .gap = 2,
              .in = GP_IN_TEXT, .get = get_title},
    [ROW] = {.key = "row", .in = GP_IN_CSV, .get = get_row,
             .legend = "total, or by_host_memory: a share of its kind's total row"},
};

/* Text's order, nvprof's: calls, bytes, time, GB/s, the copy, its host memory. JSON's object
 * of the rows by host memory is keyed by their memory. */
#define COPIES_PART(name, keyed_by)                                                           \
    {.key = (name), .columns = copy_columns,                                                  \
     .n_columns = sizeof copy_columns / sizeof *copy_columns, .n_key = 1,                     \
     .row_size = sizeof(gp_activity_row), .json_keyed_by = (keyed_by),                        \
     .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(CALLS, BYTES, TOTAL, GBPS, COPY, HOST)}}

const gp_part gp_copies_part = COPIES_PART("copies", -1);
const gp_part gp_host_memory_part = COPIES_PART("host_memory", HOST);

size_t gp_copies_by_host(const gp_activity_tables *t, size_t i, size_t *first)
{
    size_t n = 0;
    *first = 0;
    for (size_t k = 0; k < t->n_host; k++)
        if (t->host[k].kind == t->rows[i].kind && n++ == 0)
            *first = k;
    return n;
}

int gp_copies_rows(const gp_activity_tables *t, gp_activity_row **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!t->n)
        return GP_OK;
    gp_activity_row *rows = malloc((t->n + t->n_host) * sizeof *rows);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < t->n; i++) {
        size_t first;
        const size_t by_host = gp_copies_by_host(t, i, &first);
        rows[(*n)++] = t->rows[i];
        for (size_t k = 0; k < by_host; k++)
            rows[(*n)++] = t->host[first + k];
    }
    *out = rows;
    return GP_OK;
}

/* ---- the GPU activities: kernels, copies and memsets by time ------------------------------ */

static bool timed(const gp_gpu_activity *a)
{
    return a->timed > 0;
}

static gp_cell get_percent(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    const gp_gpu_activity *a = row;
    const double all_ms = ((const gp_gpu_activities_context *)ctx)->all_ms;
    return GP_CELL_NUMBER(timed(a) && all_ms > 0 ? 100.0 * a->total_ms / all_ms : 0.0);
}

/* A kernel's estimated total is marked ("~"). */
static gp_cell get_activity_total(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_gpu_activity *a = row;
    return (gp_cell){.number = timed(a) ? a->total_ms : NAN,
                     .format = a->estimated ? GP_NUMBER_MS_ESTIMATED : GP_NUMBER_MS};
}

NUMBER_OF(gp_gpu_activity, get_activity_calls, (double)r->calls)
NUMBER_OF(gp_gpu_activity, get_activity_timed, (double)r->timed)
NUMBER_OF(gp_gpu_activity, get_activity_avg, timed(r) ? r->avg_ms : NAN)
NUMBER_OF(gp_gpu_activity, get_activity_min, timed(r) ? r->min_ms : NAN)
NUMBER_OF(gp_gpu_activity, get_activity_max, timed(r) ? r->max_ms : NAN)
NUMBER_OF(gp_gpu_activity, get_activity_bytes, r->moves_bytes ? (double)r->bytes : NAN)
NUMBER_OF(gp_gpu_activity, get_activity_gbps, r->moves_bytes ? r->gbps : NAN)

/* A kernel's name after its number ("#3 "), kept whole where text cuts the name. */
static gp_cell get_activity_name(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_gpu_activity *a = row;
    if (a->number)
        snprintf(buf, len, "#%zu ", a->number);
    return (gp_cell){.text = a->name, .tag = buf};
}

static bool any_estimated(const void *ctx)
{
    return ((const gp_gpu_activities_context *)ctx)->estimated;
}

/* A number column of text's, a space after the one before. */
#define TEXT_NUMBER(name, heading, number_format, getter)                                     \
    {.key = (name), .header = (heading), .format = (number_format), .gap = 1,                 \
     .in = GP_IN_TEXT, .get = (getter)}

static const gp_part_column activity_columns[] = {
    {.key = "gpu_percent", .header = "%GPU", .format = GP_NUMBER_PERCENT2, .in = GP_IN_TEXT,
     .get = get_percent},
    TEXT_NUMBER("total_ms", "Time", GP_NUMBER_MS, get_activity_total),
    TEXT_NUMBER("calls", "Calls", GP_NUMBER_WHOLE, get_activity_calls),
    {.key = "timed", .header = "Timed", .format = GP_NUMBER_WHOLE, .gap = 1, .in = GP_IN_TEXT,
     .get = get_activity_timed, .when = any_estimated},
    TEXT_NUMBER("avg_ms", "Avg", GP_NUMBER_MS, get_activity_avg),
    TEXT_NUMBER("min_ms", "Min", GP_NUMBER_MS, get_activity_min),
    TEXT_NUMBER("max_ms", "Max", GP_NUMBER_MS, get_activity_max),
    TEXT_NUMBER("bytes", "Bytes", GP_NUMBER_BYTES, get_activity_bytes),
    TEXT_NUMBER("gbps", "GB/s", GP_NUMBER_FIXED2, get_activity_gbps),
    {.key = "name", .header = "Name", .align = GP_ALIGN_NAME, .gap = 2, .in = GP_IN_TEXT,
     .get = get_activity_name},
};

const gp_part gp_gpu_activities_part =
    GP_PART_DECLARE("gpu_activities", activity_columns, 1, gp_gpu_activity, -1);

static gp_gpu_activity of_kernel(const gp_exec_kernel *k, const gp_kernel_labels *kl)
{
    return (gp_gpu_activity){.name = gp_kernel_labels_name(kl, k->kernel, k->variant),
                             .number = gp_kernel_labels_number(kl, k->kernel, k->variant),
                             .calls = k->calls, .timed = k->timed, .total_ms = k->total_ms,
                             .avg_ms = k->average_ms, .min_ms = k->min_ms,
                             .max_ms = k->max_ms, .estimated = k->total_estimated,
                             .gbps = NAN};
}

static gp_gpu_activity of_copies(const gp_activity_row *row)
{
    return (gp_gpu_activity){.name = gp_activity_title(row->kind), .calls = row->calls,
                             .timed = row->timed, .total_ms = row->total_ms,
                             .avg_ms = gp_activity_average_ms(row), .min_ms = row->min_ms,
                             .max_ms = row->max_ms, .moves_bytes = true, .bytes = row->bytes,
                             .gbps = gp_activity_gbps(row)};
}

static int most_time_first(const void *a, const void *b)
{
    const gp_gpu_activity *x = a, *y = b;
    const double tx = timed(x) ? x->total_ms : -1, ty = timed(y) ? y->total_ms : -1;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return x->number != y->number ? (x->number < y->number ? -1 : 1)
                                  : strcmp(x->name, y->name);
}

int gp_gpu_activities(const gp_exec_kernel *k, size_t nk, const gp_kernel_labels *kl,
                      const gp_activity_row *rows, size_t nr, gp_gpu_activity **out,
                      gp_gpu_activities_context *ctx)
{
    *out = NULL;
    *ctx = (gp_gpu_activities_context){0};
    if (!nk && !nr)
        return GP_OK;
    gp_gpu_activity *a = malloc((nk + nr) * sizeof *a);
    if (!a)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < nk + nr; i++) {
        a[i] = i < nk ? of_kernel(&k[i], kl) : of_copies(&rows[i - nk]);
        ctx->all_ms += timed(&a[i]) ? a[i].total_ms : 0;
        ctx->estimated = ctx->estimated || a[i].estimated;
    }
    qsort(a, nk + nr, sizeof *a, most_time_first);
    *out = a;
    return GP_OK;
}

/* ---- each copy and memset ----------------------------------------------------------------- */

NUMBER_OF(gp_exec_activity, get_pid, (double)r->pid)
NUMBER_OF(gp_exec_activity, get_id, (double)r->id)
WORD_OF(gp_exec_activity, get_activity_kind, gp_activity_keys[r->kind])
NUMBER_OF(gp_exec_activity, get_device, (double)r->device)
NUMBER_OF(gp_exec_activity, get_context, (double)r->context)
NUMBER_OF(gp_exec_activity, get_stream, (double)r->stream)
WORD_OF(gp_exec_activity, get_src, gp_memory_names[r->src])
WORD_OF(gp_exec_activity, get_dst, gp_memory_names[r->dst])
NUMBER_OF(gp_exec_activity, get_activity_bytes_moved, (double)r->bytes)
NUMBER_OF(gp_exec_activity, get_start, (double)r->start_ns)
NUMBER_OF(gp_exec_activity, get_end, (double)r->end_ns)

/* A setter of a whole number from 0 to max into a field of the activity. */
#define WHOLE_INTO(name, field, max)                                                          \
    static const char *name(void *row, const gp_cell *v, char *why, size_t len)               \
    {                                                                                         \
        uint64_t x;                                                                           \
        const char *bad = gp_part_whole(v, 0, (max), &x, why, len);                           \
        if (!bad)                                                                             \
            ((gp_exec_activity *)row)->field = x;                                             \
        return bad;                                                                           \
    }
/* The same of one of names[0..n), its index into a field of enum type T. */
#define ENUM_INTO(name, field, T, names, n)                                                   \
    static const char *name(void *row, const gp_cell *v, char *why, size_t len)               \
    {                                                                                         \
        int i;                                                                                \
        const char *bad = gp_part_enum(v, (names), (n), &i, why, len);                        \
        if (!bad)                                                                             \
            ((gp_exec_activity *)row)->field = (T)i;                                          \
        return bad;                                                                           \
    }

WHOLE_INTO(set_pid, pid, INT_MAX)
WHOLE_INTO(set_id, id, UINT64_MAX)
ENUM_INTO(set_kind, kind, gp_activity_kind, gp_activity_keys, GP_ACTIVITY_KINDS)
WHOLE_INTO(set_device, device, INT_MAX)
WHOLE_INTO(set_context, context, UINT_MAX)
WHOLE_INTO(set_stream, stream, UINT_MAX)
ENUM_INTO(set_src, src, gp_memory_kind, gp_memory_names, GP_MEMORY_KINDS)
ENUM_INTO(set_dst, dst, gp_memory_kind, gp_memory_names, GP_MEMORY_KINDS)
WHOLE_INTO(set_bytes, bytes, UINT64_MAX)
WHOLE_INTO(set_start, start_ns, UINT64_MAX)
WHOLE_INTO(set_end, end_ns, UINT64_MAX)

/* A whole number of JSON's, read back. */
#define JSON_WHOLE(name, getter, setter, what)                                                \
    {.key = (name), .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = (getter),             \
     .set = (setter), .legend = (what)}
/* A word of JSON's, read back. */
#define JSON_WORD(name, getter, setter, what)                                                 \
    {.key = (name), .in = GP_IN_JSON, .get = (getter), .set = (setter), .legend = (what)}

static const gp_part_column each_columns[] = {
    JSON_WHOLE("pid", get_pid, set_pid, "the process"),
    JSON_WHOLE("id", get_id, set_id,
               "CUPTI's correlation id: the order the program issued it among the launches"),
    JSON_WORD("kind", get_activity_kind, set_kind, "memcpy HtoD, ..., memset"),
    JSON_WHOLE("device", get_device, set_device, "the GPU"),
    JSON_WHOLE("context", get_context, set_context, "the CUDA context"),
    JSON_WHOLE("stream", get_stream, set_stream, "the stream"),
    JSON_WORD("src", get_src, set_src, "the memory copied from (a memset: unknown)"),
    JSON_WORD("dst", get_dst, set_dst, "the memory copied to or set"),
    JSON_WHOLE("bytes", get_activity_bytes_moved, set_bytes, "bytes copied or set"),
    JSON_WHOLE("start_ns", get_start, set_start,
               "from the start of the run's first copy or memset; end_ns < start_ns: time "
               "unknown"),
    JSON_WHOLE("end_ns", get_end, set_end, "its end, ns"),
};

const gp_part gp_activities_part =
    GP_PART_DECLARE("activities", each_columns, 0, gp_exec_activity, -1);
