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

/* ---- the copies and memsets by kind and host memory --------------------------------------- */

/* A row of every host memory of its kind (or of a kind without a host side). */
static bool is_kind_row(const gp_activity_row *r)
{
    return r->host == GP_MEMORY_UNKNOWN;
}

GP_PART_TEXT_GETTER(get_title, gp_activity_row, void, gp_activity_title(r->kind))
GP_PART_TEXT_GETTER(get_kind_title, gp_activity_row, void,
                    is_kind_row(r) ? gp_activity_title(r->kind) : "")
GP_PART_TEXT_GETTER(get_host, gp_activity_row, void,
                    is_kind_row(r) ? "" : gp_memory_names[r->host])
GP_PART_TEXT_GETTER(get_row, gp_activity_row, void,
                    is_kind_row(r) ? GP_ACTIVITY_ROW_TOTAL : GP_ACTIVITY_ROW_BY_HOST_MEMORY)
GP_PART_NUMBER_GETTER(get_calls, gp_activity_row, void, r->calls)
GP_PART_NUMBER_GETTER(get_total, gp_activity_row, void, gp_activity_total_ms(r))
GP_PART_NUMBER_GETTER(get_average, gp_activity_row, void, gp_activity_average_ms(r))
GP_PART_NUMBER_GETTER(get_min, gp_activity_row, void, r->min_ms)
GP_PART_NUMBER_GETTER(get_max, gp_activity_row, void, r->max_ms)
GP_PART_NUMBER_GETTER(get_bytes, gp_activity_row, void, r->bytes)
GP_PART_NUMBER_GETTER(get_gbps, gp_activity_row, void, gp_activity_gbps(r))

/* The kind's key; under its kind's row (JSON's host_memory), left out: its parent's. */
static gp_cell get_kind(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)buf, (void)len;
    if (ctx && ((const gp_copies_context *)ctx)->under_kind)
        return GP_CELL_ABSENT;
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
                     .format = GP_NUMBER_MS, .approx = a->estimated ? GP_CELL_ESTIMATED : NULL};
}

GP_PART_NUMBER_GETTER(get_activity_calls, gp_gpu_activity, void, r->calls)
GP_PART_NUMBER_GETTER(get_activity_timed, gp_gpu_activity, void, r->timed)
GP_PART_NUMBER_GETTER(get_activity_avg, gp_gpu_activity, void, timed(r) ? r->avg_ms : NAN)
GP_PART_NUMBER_GETTER(get_activity_min, gp_gpu_activity, void, timed(r) ? r->min_ms : NAN)
GP_PART_NUMBER_GETTER(get_activity_max, gp_gpu_activity, void, timed(r) ? r->max_ms : NAN)
GP_PART_NUMBER_GETTER(get_activity_bytes, gp_gpu_activity, void,
                      r->moves_bytes ? (double)r->bytes : NAN)
GP_PART_NUMBER_GETTER(get_activity_gbps, gp_gpu_activity, void, r->moves_bytes ? r->gbps : NAN)

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

/* A kernel's row; kl NULL: its figures only, unnamed. */
static gp_gpu_activity of_kernel(const gp_exec_kernel *k, const gp_kernel_labels *kl)
{
    return (gp_gpu_activity){.name = kl ? gp_kernel_labels_name(kl, k->kernel, k->variant) : "",
                             .number = kl ? gp_kernel_labels_number(kl, k->kernel, k->variant)
                                          : 0,
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

/* Every kernel as one row: their calls and time summed, the extremes of their launches. */
static gp_gpu_activity of_all_kernels(const gp_exec_kernel *k, size_t nk, char *name,
                                      size_t len)
{
    snprintf(name, len, "[%zu kernel%s: each in the summary]", nk, nk == 1 ? "" : "s");
    gp_gpu_activity all = {.name = name, .min_ms = NAN, .max_ms = NAN, .gbps = NAN};
    for (size_t i = 0; i < nk; i++) {
        const gp_gpu_activity one = of_kernel(&k[i], NULL);
        all.calls += one.calls;
        all.timed += one.timed;
        all.estimated = all.estimated || one.estimated;
        if (!timed(&one))
            continue;
        all.total_ms += one.total_ms;
        all.min_ms = isnan(all.min_ms) || one.min_ms < all.min_ms ? one.min_ms : all.min_ms;
        all.max_ms = isnan(all.max_ms) || one.max_ms > all.max_ms ? one.max_ms : all.max_ms;
    }
    all.avg_ms = all.timed ? all.total_ms / (double)all.timed : NAN;
    return all;
}

int gp_gpu_activities(const gp_exec_kernel *k, size_t nk, const gp_kernel_labels *kl,
                      bool kernels_as_one, const gp_activity_row *rows, size_t nr,
                      gp_gpu_activity **out, size_t *n, gp_gpu_activities_context *ctx)
{
    *out = NULL;
    *n = 0;
    *ctx = (gp_gpu_activities_context){0};
    const size_t kernel_rows = kernels_as_one ? (nk ? 1 : 0) : nk;
    if (!kernel_rows && !nr)
        return GP_OK;
    gp_gpu_activity *a = malloc((kernel_rows + nr) * sizeof *a);
    if (!a)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < kernel_rows + nr; i++) {
        if (i >= kernel_rows)
            a[i] = of_copies(&rows[i - kernel_rows]);
        else
            a[i] = kernels_as_one ? of_all_kernels(k, nk, ctx->all_kernels,
                                                   sizeof ctx->all_kernels)
                                  : of_kernel(&k[i], kl);
        ctx->all_ms += timed(&a[i]) ? a[i].total_ms : 0;
        ctx->estimated = ctx->estimated || a[i].estimated;
    }
    qsort(a, kernel_rows + nr, sizeof *a, most_time_first);
    *out = a;
    *n = kernel_rows + nr;
    return GP_OK;
}

/* ---- each copy and memset ----------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_pid, gp_exec_activity, void, r->pid)
GP_PART_NUMBER_GETTER(get_id, gp_exec_activity, void, r->id)
GP_PART_TEXT_GETTER(get_activity_kind, gp_exec_activity, void, gp_activity_keys[r->kind])
GP_PART_NUMBER_GETTER(get_device, gp_exec_activity, void, r->device)
GP_PART_NUMBER_GETTER(get_context, gp_exec_activity, void, r->context)
GP_PART_NUMBER_GETTER(get_stream, gp_exec_activity, void, r->stream)
GP_PART_TEXT_GETTER(get_src, gp_exec_activity, void, gp_memory_names[r->src])
GP_PART_TEXT_GETTER(get_dst, gp_exec_activity, void, gp_memory_names[r->dst])
GP_PART_NUMBER_GETTER(get_activity_bytes_moved, gp_exec_activity, void, r->bytes)
GP_PART_NUMBER_GETTER(get_start, gp_exec_activity, void, r->start_ns)
GP_PART_NUMBER_GETTER(get_end, gp_exec_activity, void, r->end_ns)
/* CSV's, as --launches lists a copy among the launches: its time, its label as text names it
 * ("[CUDA memcpy HtoD]"), and its host side's memory (empty where it has none). */
GP_PART_NUMBER_GETTER(get_duration, gp_exec_activity, void, gp_activity_ms(r))
GP_PART_TEXT_GETTER(get_label, gp_exec_activity, void, gp_activity_title(r->kind))
GP_PART_TEXT_GETTER(get_host_memory, gp_exec_activity, void,
                    gp_activity_host_memory(r) == GP_MEMORY_UNKNOWN
                        ? ""
                        : gp_memory_names[gp_activity_host_memory(r)])

GP_PART_WHOLE_SETTER(set_pid, gp_exec_activity, r->pid, 0, INT_MAX)
GP_PART_WHOLE_SETTER(set_id, gp_exec_activity, r->id, 0, UINT64_MAX)
GP_PART_ENUM_SETTER(set_kind, gp_exec_activity, r->kind, gp_activity_keys, GP_ACTIVITY_KINDS)
GP_PART_WHOLE_SETTER(set_device, gp_exec_activity, r->device, 0, INT_MAX)
GP_PART_WHOLE_SETTER(set_context, gp_exec_activity, r->context, 0, UINT_MAX)
GP_PART_WHOLE_SETTER(set_stream, gp_exec_activity, r->stream, 0, UINT_MAX)
GP_PART_ENUM_SETTER(set_src, gp_exec_activity, r->src, gp_memory_names, GP_MEMORY_KINDS)
GP_PART_ENUM_SETTER(set_dst, gp_exec_activity, r->dst, gp_memory_names, GP_MEMORY_KINDS)
GP_PART_WHOLE_SETTER(set_bytes, gp_exec_activity, r->bytes, 0, UINT64_MAX)
GP_PART_WHOLE_SETTER(set_start, gp_exec_activity, r->start_ns, 0, UINT64_MAX)
GP_PART_WHOLE_SETTER(set_end, gp_exec_activity, r->end_ns, 0, UINT64_MAX)

/* A whole number of JSON's, read back (`csv`: and a cell of a copy's CSV row of --launches,
 * by key under the launches' header, GP_IN_CSV; else 0). */
#define JSON_WHOLE(name, getter, setter, csv, what)                                           \
    {.key = (name), .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON | (csv), .get = (getter),     \
     .set = (setter), .legend = (what)}
/* A word of JSON's, read back. */
#define JSON_WORD(name, getter, setter, csv, what)                                            \
    {.key = (name), .in = GP_IN_JSON | (csv), .get = (getter), .set = (setter),               \
     .legend = (what)}

static const gp_part_column each_columns[] = {
    JSON_WHOLE("pid", get_pid, set_pid, GP_IN_CSV, "the process"),
    JSON_WHOLE("id", get_id, set_id, GP_IN_CSV,
               "CUPTI's correlation id: the order the program issued it among the launches"),
    JSON_WORD("kind", get_activity_kind, set_kind, GP_IN_CSV, "memcpy HtoD, ..., memset"),
    JSON_WHOLE("device", get_device, set_device, GP_IN_CSV, "the GPU"),
    JSON_WHOLE("context", get_context, set_context, GP_IN_CSV, "the CUDA context"),
    JSON_WHOLE("stream", get_stream, set_stream, GP_IN_CSV, "the stream"),
    JSON_WORD("src", get_src, set_src, 0, "the memory copied from (a memset: unknown)"),
    JSON_WORD("dst", get_dst, set_dst, 0, "the memory copied to or set"),
    JSON_WHOLE("bytes", get_activity_bytes_moved, set_bytes, GP_IN_CSV, "bytes copied or set"),
    JSON_WHOLE("start_ns", get_start, set_start, 0,
               "from the start of the run's first copy or memset; end_ns < start_ns: time "
               "unknown"),
    JSON_WHOLE("end_ns", get_end, set_end, 0, "its end, ns"),
    {.key = "duration_ms", .format = GP_NUMBER_MS, .in = GP_IN_CSV, .get = get_duration,
     .legend = "its time, ms; empty when unknown"},
    {.key = "label", .in = GP_IN_CSV, .get = get_label,
     .legend = "its kind as text names it: [CUDA memcpy HtoD], ..., [CUDA memset]"},
    {.key = "host_memory", .in = GP_IN_CSV, .get = get_host_memory,
     .legend = "the host side's memory of a copy: pageable, pinned, managed; empty for none"},
};

const gp_part gp_activities_part =
    GP_PART_DECLARE("activities", each_columns, 0, gp_exec_activity, -1);
