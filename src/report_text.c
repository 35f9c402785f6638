/* Text output for people: a header with the GPU and the run's configuration, one aligned
 * row per result, per-launch rows for multi-kernel workloads, optional long metric form. */
#include "gpuprof/report.h"

#include "gpuprof/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_COLUMNS 32

/* Metric values as text, with the precision their unit deserves. */
static void format_value(char *buf, size_t len, const gp_metric_value *m)
{
    if (!m || !m->valid) {
        snprintf(buf, len, "n/a");
        return;
    }
    const char *u = m->unit;
    double v = m->value;
    if (strcmp(u, "%") == 0 || strcmp(u, "GB/s") == 0)
        snprintf(buf, len, "%.1f", v);
    else if (strcmp(u, "fraction") == 0)
        snprintf(buf, len, "%.3f", v);
    else if (strstr(u, "/request") || strstr(u, "/instruction"))
        snprintf(buf, len, "%.2f", v);
    else if (fabs(v) >= 1e15)
        snprintf(buf, len, "%.4g", v);
    else if (v == floor(v))
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

static void format_size(char *buf, size_t len, const gp_result *r)
{
    if (r->nx)
        snprintf(buf, len, "%ux%u", r->nx, r->ny);
    else
        snprintf(buf, len, "%llu", (unsigned long long)r->n);
}

static void format_dim(char *buf, size_t len, gp_dim3 d, bool two_d)
{
    if (d.x == 0)
        snprintf(buf, len, "-");
    else if (two_d || d.y > 1)
        snprintf(buf, len, "%ux%u", d.x, d.y);
    else
        snprintf(buf, len, "%u", d.x);
}

static const char *power_of_two_note(uint64_t n, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int k = 1; k < 64; k++) {
        uint64_t p = (uint64_t)1 << k;
        if (p == n)
            snprintf(buf, len, " (2^%d)", k);
        else if (n > p && n - p < 1000 && n < (p << 1))
            snprintf(buf, len, " (2^%d+%llu)", k, (unsigned long long)(n - p));
    }
    return buf;
}

static void print_header(FILE *out, const gp_report *r)
{
    const gp_device_info *d = &r->device;
    fprintf(out, "gpuprof %s  %s on GPU %d: %s (sm_%d%d, %d SMs, peak %.1f GB/s)\n",
            r->tool_version, r->command, d->index, d->name, d->cc_major, d->cc_minor,
            d->multiprocessors, d->peak_gbps);
    fprintf(out, "time: median of %u runs after %u warm-up%s, L2 flushed before each; "
                 "GB/s = minimum bytes moved / median time, 1 GB = 10^9 bytes\n",
            r->repeat, r->warmup, r->warmup == 1 ? "" : "s");
    const gp_profiler_info *p = &r->profiler;
    if (p->state == GP_PROF_OK)
        fprintf(out, "metrics: CUPTI range profiler on %s, %s set, %d passes per kernel, caches "
                     "flushed, clocks not locked\n", p->chip, p->metric_set, p->passes);
    else if (p->state == GP_PROF_UNAVAILABLE)
        fprintf(out, "metrics: unavailable (%s)\n", p->reason);
}

/* Metric columns: the table's key metrics, or every metric the user listed by name. */
static size_t metric_columns(const gp_report *r, const char **keys, const char **labels)
{
    const gp_result *first = NULL;
    for (size_t i = 0; i < r->n_results && !first; i++)
        if (r->results[i].metrics.n_metrics)
            first = &r->results[i];
    if (!first)
        return 0;
    bool listed = strcmp(r->profiler.metric_set, "list") == 0;
    size_t n = 0;
    for (size_t i = 0; i < first->metrics.n_metrics && n < MAX_COLUMNS; i++) {
        const char *key = first->metrics.metrics[i].key;
        const gp_metric_def *def = gp_find_metric(key);
        if (!listed && !(def && def->in_table))
            continue;
        keys[n] = key;
        labels[n++] = def ? def->label : key;
    }
    return n;
}

static void print_column_titles(FILE *out, const char **labels, size_t n)
{
    fprintf(out, "%-22s %12s %9s %10s %9s %6s  %-7s", "variant", "grid", "block", "time_ms",
            "GB/s", "%peak", "check");
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %*s", (int)(strlen(labels[i]) > 9 ? strlen(labels[i]) : 9), labels[i]);
    fputc('\n', out);
}

static void print_metric_cells(FILE *out, const gp_metric_set *s, const char **keys,
                               const char **labels, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gp_metric_value *m = NULL;
        for (size_t k = 0; k < s->n_metrics && !m; k++)
            if (strcmp(s->metrics[k].key, keys[i]) == 0)
                m = &s->metrics[k];
        char cell[32];
        format_value(cell, sizeof cell, m);
        fprintf(out, " %*s", (int)(strlen(labels[i]) > 9 ? strlen(labels[i]) : 9), cell);
    }
    fputc('\n', out);
}

static void print_row(FILE *out, const gp_result *res, const char **keys, const char **labels,
                      size_t n)
{
    bool two_d = res->nx != 0;
    char grid[32], block[32], name[96];
    format_dim(grid, sizeof grid, res->grid, two_d);
    format_dim(block, sizeof block, res->block, two_d);
    if (res->pad >= 0)
        snprintf(name, sizeof name, "%.60s pad=%d", res->variant, res->pad);
    else if (res->grid_param)
        snprintf(name, sizeof name, "%.60s grid=%u", res->variant, res->grid_param);
    else
        snprintf(name, sizeof name, "%s", res->variant);
    fprintf(out, "%-22s %12s %9s %10.4f %9.1f %6.1f  %-7s", name, grid, block,
            res->timing.median_ms, res->gbps, res->percent_of_peak,
            gp_check_status_name(res->check.status));
    print_metric_cells(out, &res->metrics, keys, labels, n);
    if (res->n_launches <= 1)
        return;
    for (size_t i = 0; i < res->n_launches; i++) {
        const gp_launch_record *l = &res->launches[i];
        char lname[64], shape[40] = "";
        if (l->in_nx)
            snprintf(shape, sizeof shape, " %ux%u->%ux%u", l->in_nx, l->in_ny, l->out_nx,
                     l->out_ny);
        snprintf(lname, sizeof lname, "  #%zu%s", i + 1, shape);
        format_dim(grid, sizeof grid, l->grid, two_d);
        format_dim(block, sizeof block, l->block, two_d);
        if (l->median_ms >= 0)
            fprintf(out, "%-22s %12s %9s %10.4f %9s %6s  %-7s", lname, grid, block, l->median_ms,
                    "", "", "");
        else
            fprintf(out, "%-22s %12s %9s %10s %9s %6s  %-7s", lname, grid, block, "-", "", "",
                    "");
        print_metric_cells(out, &l->metrics, keys, labels, n);
    }
}

static bool same_problem(const gp_result *a, const gp_result *b)
{
    return a->n == b->n && a->nx == b->nx && a->ny == b->ny && strcmp(a->type, b->type) == 0 &&
           a->group == b->group;
}

static void print_problem(FILE *out, const gp_result *res)
{
    char size[64], note[32];
    format_size(size, sizeof size, res);
    double mib = (double)res->bytes_moved / (1024.0 * 1024.0);
    fprintf(out, "\n%s %s, %s%s, %.1f MiB moved at least", res->family, res->type, size,
            res->nx ? "" : power_of_two_note(res->n, note, sizeof note), mib);
    if (res->group)
        fprintf(out, ", group %u", res->group);
    fputc('\n', out);
}

/* nvprof's --metrics long form: kernel, metric, description, value, unit. */
static void print_detail(FILE *out, const gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        for (size_t l = 0; l < res->n_launches; l++) {
            const gp_launch_record *lr = &res->launches[l];
            fprintf(out, "\nKernel: %s (%s %s, launch %zu of %zu)\n", lr->kernel, res->family,
                    res->variant, l + 1, res->n_launches);
            for (size_t m = 0; m < lr->metrics.n_metrics; m++) {
                const gp_metric_value *v = &lr->metrics.metrics[m];
                const gp_metric_def *def = gp_find_metric(v->key);
                char cell[32];
                format_value(cell, sizeof cell, v);
                fprintf(out, "    %-38s %-62s %14s %s\n", v->key,
                        def ? def->description : "PerfWorks metric", cell, v->unit);
            }
        }
    }
}

static void print_failures(FILE *out, const gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        if (res->check.status != GP_CHECK_FAILED)
            continue;
        fprintf(out, "FAILED %s %s block %u%s: %s%s\n", res->family, res->variant, res->block.x,
                "", res->check.detail,
                res->check.rechecked && res->check.after_profile == GP_CHECK_FAILED
                    ? " (after profiling)" : "");
    }
}

int gp_render_text(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const char *keys[MAX_COLUMNS], *labels[MAX_COLUMNS];
    size_t n = metric_columns(r, keys, labels);
    print_header(out, r);
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        if (i == 0 || !same_problem(res, &r->results[i - 1])) {
            print_problem(out, res);
            print_column_titles(out, labels, n);
        }
        print_row(out, res, keys, labels, n);
    }
    print_failures(out, r);
    if (o && o->metrics_detail)
        print_detail(out, r);
    return ferror(out) ? 1 : 0;
}
