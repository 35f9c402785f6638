/* gpuprof exec's GPU activities in text, as nvprof printed them: one table of kernels,
 * copies and memsets by the time they took (Time(%), Time, Calls, Avg, Min, Max, Name, and
 * for copies their bytes and throughput); the copies by host memory, with the share that was
 * pageable (copied through a staging buffer, so slower); and the unified-memory counters.
 * On --launches, each copy or memset is a row among the kernel launches, in the order the
 * program issued them. */
#include "render/text_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/status.h"
#include "render/cells.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- units ----------------------------------------------------------------------------------- */

/* "1.2345ms", "617.25us", "865.00ns": five significant digits in the unit that keeps the
 * value at least 1, as nvprof; "-" when unknown. */
static void format_time(char *buf, size_t len, double ms)
{
    static const struct {
        double per_ms;
        const char *unit;
    } units[] = {{1e-3, "s"}, {1, "ms"}, {1e3, "us"}, {1e6, "ns"}};
    if (!isfinite(ms) || ms < 0) {
        snprintf(buf, len, "-");
        return;
    }
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && ms * units[u].per_ms < 1)
        u++;
    const double v = ms * units[u].per_ms;
    const int decimals = v >= 100 ? 2 : v >= 10 ? 3 : 4;
    snprintf(buf, len, "%.*f%s", decimals, v, units[u].unit);
}

/* "4.0000MB": bytes in the binary unit that keeps the value at least 1, as nvprof. */
static void format_bytes(char *buf, size_t len, double bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    size_t u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.4f%s" : "%.0f%s", bytes, units[u]);
}

static void format_gbps(char *buf, size_t len, double gbps)
{
    if (isfinite(gbps))
        snprintf(buf, len, "%.2f", gbps);
    else
        snprintf(buf, len, "-");
}

/* ---- the GPU activities ---------------------------------------------------------------------- */

/* A row of the table: a kernel or a kind of copy or memset. */
typedef struct {
    const char *name;
    size_t calls, timed;
    double total_ms, min_ms, max_ms;
    bool moves_bytes;
    uint64_t bytes;
    double gbps;
} activity_line;

static int most_time_first(const void *a, const void *b)
{
    const activity_line *x = a, *y = b;
    const double tx = x->timed ? x->total_ms : -1, ty = y->timed ? y->total_ms : -1;
    if (tx != ty)
        return tx > ty ? -1 : 1;
    return strcmp(x->name, y->name);
}

static activity_line kernel_line(const gp_exec_kernel *k)
{
    return (activity_line){k->kernel, k->calls, k->timed, k->total_ms, k->min_ms, k->max_ms,
                           false, 0, NAN};
}

static activity_line copy_line(const gp_activity_row *row)
{
    return (activity_line){gp_activity_title(row->kind), row->calls, row->timed,
                           row->total_ms, row->min_ms, row->max_ms, true, row->bytes,
                           gp_activity_gbps(row)};
}

static void print_line(FILE *out, const activity_line *l, double all_ms)
{
    char total[32], avg[32], min[32], max[32], bytes[32] = "-", gbps[32] = "-";
    format_time(total, sizeof total, l->timed ? l->total_ms : NAN);
    format_time(avg, sizeof avg, l->timed ? l->total_ms / (double)l->timed : NAN);
    format_time(min, sizeof min, l->timed ? l->min_ms : NAN);
    format_time(max, sizeof max, l->timed ? l->max_ms : NAN);
    if (l->moves_bytes) {
        format_bytes(bytes, sizeof bytes, (double)l->bytes);
        format_gbps(gbps, sizeof gbps, l->gbps);
    }
    const double pct = l->timed && all_ms > 0 ? 100.0 * l->total_ms / all_ms : 0.0;
    fprintf(out, "%6.2f%% %10s %8zu %10s %10s %10s %12s %8s  %s\n", pct, total, l->calls, avg,
            min, max, bytes, gbps, l->name);
}

static void print_lines(FILE *out, activity_line *lines, size_t n)
{
    double all_ms = 0;
    for (size_t i = 0; i < n; i++)
        all_ms += lines[i].timed ? lines[i].total_ms : 0;
    qsort(lines, n, sizeof *lines, most_time_first);
    fprintf(out, "\nGPU activities:\n%7s %10s %8s %10s %10s %10s %12s %8s  %s\n", "Time(%)",
            "Time", "Calls", "Avg", "Min", "Max", "Bytes", "GB/s", "Name");
    for (size_t i = 0; i < n; i++)
        print_line(out, &lines[i], all_ms);
}

static int print_gpu_activities(FILE *out, const gp_exec_info *e)
{
    gp_exec_kernel *k = NULL;
    gp_activity_row *rows = NULL;
    size_t nk = 0, nr = 0;
    int rc = gp_exec_summarize(e, &k, &nk);
    if (rc == GP_OK)
        rc = gp_exec_activity_rows(e, &rows, &nr);
    activity_line *lines = rc == GP_OK && nk + nr ? malloc((nk + nr) * sizeof *lines) : NULL;
    if (rc == GP_OK && nk + nr && !lines)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (lines) {
        for (size_t i = 0; i < nk; i++)
            lines[i] = kernel_line(&k[i]);
        for (size_t i = 0; i < nr; i++)
            lines[nk + i] = copy_line(&rows[i]);
        print_lines(out, lines, nk + nr);
    }
    free(lines);
    free(rows);
    gp_exec_summary_free(k, nk);
    return rc;
}

/* ---- host memory ------------------------------------------------------------------------------ */

static void print_host_row(FILE *out, const gp_activity_row *row)
{
    char total[32], bytes[32], gbps[32];
    format_time(total, sizeof total, row->timed ? row->total_ms : NAN);
    format_bytes(bytes, sizeof bytes, (double)row->bytes);
    format_gbps(gbps, sizeof gbps, gp_activity_gbps(row));
    fprintf(out, "%8zu %12s %10s %8s  %-18s %s\n", row->calls, bytes, total, gbps,
            gp_activity_title(row->kind), gp_memory_names[row->host]);
}

static int print_host_memory(FILE *out, const gp_exec_info *e)
{
    gp_activity_row *rows = NULL;
    size_t n = 0;
    GP_TRY(gp_exec_host_memory_rows(e, &rows, &n));
    if (n) {
        fprintf(out, "\nHost memory of the copies:\n%8s %12s %10s %8s  %-18s %s\n", "Calls",
                "Bytes", "Time", "GB/s", "Copy", "Host memory");
        for (size_t i = 0; i < n; i++)
            print_host_row(out, &rows[i]);
        const double pageable = gp_exec_pageable_percent(e);
        if (pageable > 0)
            fprintf(out, "pageable: %.1f%% of the bytes copied between host and device; "
                         "pageable copies go through a staging buffer and do not overlap "
                         "kernels (pin the memory: cudaMallocHost, cudaHostRegister)\n",
                    pageable);
    }
    free(rows);
    return GP_OK;
}

/* ---- unified memory ------------------------------------------------------------------------------ */

static void format_amount(char *buf, size_t len, gp_um_counter c, double v)
{
    if (gp_um_is_bytes(c))
        format_bytes(buf, len, v);
    else
        snprintf(buf, len, "%.0f", v);
}

static void print_unified(FILE *out, const gp_exec_info *e)
{
    if (!gp_exec_has_unified(e))
        return;
    fprintf(out, "\nUnified memory:\n%8s %12s %12s %12s %12s %10s  %s\n", "Count", "Avg",
            "Min", "Max", "Total", "Time", "Name");
    for (int c = 1; c < GP_UM_COUNTERS; c++) {
        const gp_um_stats *s = &e->unified[c];
        if (!s->events)
            continue;
        char avg[32], min[32], max[32], total[32], time[32];
        format_amount(avg, sizeof avg, (gp_um_counter)c, (double)s->total / (double)s->events);
        format_amount(min, sizeof min, (gp_um_counter)c, (double)s->min);
        format_amount(max, sizeof max, (gp_um_counter)c, (double)s->max);
        format_amount(total, sizeof total, (gp_um_counter)c, (double)s->total);
        format_time(time, sizeof time, s->time_ns ? (double)s->time_ns * 1e-6 : NAN);
        fprintf(out, "%8llu %12s %12s %12s %12s %10s  %s\n", (unsigned long long)s->events, avg,
                min, max, total, time, gp_um_title((gp_um_counter)c));
    }
}

int gp_text_activities(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    if (!gp_exec_has_activities(e))
        return GP_OK;
    GP_TRY(print_gpu_activities(out, e));
    GP_TRY(print_host_memory(out, e));
    print_unified(out, e);
    return GP_OK;
}

/* ---- --launches ---------------------------------------------------------------------------------- */

static bool issued_before(const gp_exec_activity *a, const gp_exec_launch *l)
{
    return !l || a->pid < l->pid || (a->pid == l->pid && a->id < l->id);
}

/* The copy as the launch table's row: no grid, block or shared memory; its name, bytes and
 * host memory where the kernel's name stands. */
static void print_activity_row(FILE *out, const gp_exec_activity *a, const char **keys,
                               const char **labels, size_t n)
{
    char ms[32], bytes[32];
    const double t = gp_activity_ms(a);
    if (isfinite(t))
        snprintf(ms, sizeof ms, "%.4f", t);
    else
        snprintf(ms, sizeof ms, "-");
    format_bytes(bytes, sizeof bytes, (double)a->bytes);
    fprintf(out, "%8d %8llu %4d %7u %14s %12s %7s %10s %8s", a->pid, (unsigned long long)a->id,
            a->device, a->stream, "-", "-", "-", ms, "-");
    const gp_metric_set none = {0};
    gp_text_metric_cells(out, &none, keys, labels, n);
    const gp_memory_kind host = gp_activity_host_memory(a);
    fprintf(out, "  %s %s%s%s\n", gp_activity_title(a->kind), bytes,
            host != GP_MEMORY_UNKNOWN ? " " : "",
            host != GP_MEMORY_UNKNOWN ? gp_memory_names[host] : "");
}

void gp_text_launch_activities(FILE *out, const gp_report *r, size_t *next,
                               const gp_exec_launch *before, const char **keys,
                               const char **labels, size_t n)
{
    const gp_exec_info *e = &r->exec;
    for (; *next < e->n_activities && issued_before(&e->activities[*next], before); ++*next)
        print_activity_row(out, &e->activities[*next], keys, labels, n);
}
