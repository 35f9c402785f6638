/* Text output of gpuprof exec, for people: what ran and how it ended, then nvprof's summary,
 * one row per kernel (its launches, times, and the average of each table metric over its
 * profiled launches), or with --launches one row per launch; --metrics-detail adds, per
 * kernel, every metric's minimum, maximum and average. */
#include "gpuprof/exec_summary.h"
#include "gpuprof/metrics.h"
#include "render/text.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/text_activities.h"

#include <math.h>
#include <string.h>

static void print_program(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    fprintf(out, "gpuprof %s  exec", r->tool_version);
    for (size_t i = 0; i < e->argc && i < 8; i++)
        fprintf(out, " %s", e->argv[i]);
    if (e->argc > 8)
        fprintf(out, " ...");
    if (e->signal)
        fprintf(out, ": killed by signal %d (exit status %d)", e->signal, e->exit_status);
    else
        fprintf(out, ": exit status %d", e->exit_status);
    fprintf(out, ", %zu kernel%s in %zu process%s\n", e->n_launches,
            e->n_launches == 1 ? "" : "s", e->processes, e->processes == 1 ? "" : "es");
    for (size_t i = 0; i < e->n_devices; i++) {
        const gp_device_info *d = &e->devices[i];
        fprintf(out, "GPU %d: %s (sm_%d%d, %d SMs, peak %.1f GB/s)\n", d->index, d->name,
                d->cc_major, d->cc_minor, d->multiprocessors, d->peak_gbps);
    }
}

static void print_profiler(FILE *out, const gp_report *r)
{
    const gp_profiler_info *p = &r->profiler;
    const size_t profiled = gp_exec_profiled(&r->exec);
    char replay[160];
    gp_exec_describe_replay(p, replay, sizeof replay);
    if (p->state == GP_PROF_OK && gp_exec_rotated(p))
        fprintf(out, "metrics: CUPTI range profiler on %s, %s set, --replay=%s (%s), %zu of %zu "
                     "kernels profiled; times from CUPTI's activity records, of a profiled "
                     "kernel from its counters where it ran without SASS instrumentation; "
                     "passes: the one-pass groups a kernel's launches collected\n",
                p->chip, p->metric_set, p->replay, replay, profiled, r->exec.n_launches);
    else if (p->state == GP_PROF_OK)
        fprintf(out, "metrics: CUPTI range profiler on %s, %s set, %s (%d pass%s), %zu of %zu "
                     "kernels profiled; times from CUPTI's activity records, of a profiled "
                     "kernel from its counters\n",
                p->chip, p->metric_set, replay, p->passes,
                p->passes == 1 ? "" : "es", profiled, r->exec.n_launches);
    else if (p->state == GP_PROF_UNAVAILABLE)
        fprintf(out, "metrics: unavailable (%s); times from CUPTI's activity records\n",
                p->reason);
    else
        fprintf(out, "metrics: none; times from CUPTI's activity records\n");
}

static size_t metric_columns(const gp_report *r, const char **keys, const char **labels)
{
    const gp_exec_info *e = &r->exec;
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].profiled)
            return gp_text_metric_columns(&e->launches[i].metrics,
                                          strcmp(r->profiler.metric_set, "list") == 0, keys,
                                          labels);
    return 0;
}

static void format_ms(char *buf, size_t len, double ms)
{
    if (isfinite(ms) && ms >= 0)
        snprintf(buf, len, "%.4f", ms);
    else
        snprintf(buf, len, "-");
}

/* ---- one row per kernel ---------------------------------------------------------------- */

/* The averages of a kernel's metrics, as a metric set the cells can print. */
static void averages(const gp_exec_kernel *k, gp_metric_value *values, gp_metric_set *set)
{
    for (size_t i = 0; i < k->n_metrics; i++)
        values[i] = k->metrics[i].average;
    *set = (gp_metric_set){NULL, 0, values, k->n_metrics};
}

/* "2/2": of the report's one-pass groups, how many the kernel's launches collected. */
static void print_passes(FILE *out, const gp_report *r, uint32_t passes)
{
    if (!gp_exec_rotated(&r->profiler))
        return;
    char text[16];
    gp_exec_describe_passes(&r->profiler, passes, text, sizeof text);
    fprintf(out, " %6s", text);
}

static void print_kernel_row(FILE *out, const gp_report *r, const gp_exec_kernel *k,
                             const char **keys, const char **labels, size_t n)
{
    char total[32], avg[32], min[32], max[32];
    format_ms(total, sizeof total, k->timed ? k->total_ms : NAN);
    format_ms(avg, sizeof avg, k->timed ? k->total_ms / (double)k->timed : NAN);
    format_ms(min, sizeof min, k->min_ms);
    format_ms(max, sizeof max, k->max_ms);
    fprintf(out, "%7zu %8zu", k->calls, k->profiled);
    print_passes(out, r, k->passes);
    fprintf(out, " %6.1f %10s %10s %10s %10s",
            isfinite(k->time_percent) ? k->time_percent : 0.0, total, avg, min, max);
    gp_metric_value values[GP_TEXT_MAX_COLUMNS * 2];
    gp_metric_set set = {0};
    if (k->n_metrics <= sizeof values / sizeof values[0])
        averages(k, values, &set);
    gp_text_metric_cells(out, &set, keys, labels, n);
    fprintf(out, "  %s\n", k->kernel);
}

static int print_kernels(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk)
{
    const char *keys[GP_TEXT_MAX_COLUMNS], *labels[GP_TEXT_MAX_COLUMNS];
    const size_t n = metric_columns(r, keys, labels);
    fprintf(out, "\n%7s %8s", "calls", "profiled");
    if (gp_exec_rotated(&r->profiler))
        fprintf(out, " %6s", "passes");
    fprintf(out, " %6s %10s %10s %10s %10s", "time%", "total_ms", "avg_ms", "min_ms",
            "max_ms");
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %*s", gp_text_column_width(labels[i]), labels[i]);
    fprintf(out, "  %s\n", "kernel");
    for (size_t i = 0; i < nk; i++)
        print_kernel_row(out, r, &k[i], keys, labels, n);
    return GP_OK;
}

/* ---- one row per launch ---------------------------------------------------------------- */

/* "yes", or with rotation the passes a launch carries: "p0", "p1", "all". */
static void profiled_cell(char *buf, size_t len, const gp_report *r, const gp_exec_launch *l)
{
    const int groups = r->profiler.pass_groups;
    if (!l->profiled || !gp_exec_rotated(&r->profiler) || !l->passes)
        snprintf(buf, len, "%s", l->profiled ? "yes" : l->graph_node ? "graph" : "no");
    else if (l->passes == (uint32_t)((1ull << groups) - 1))
        snprintf(buf, len, "all");
    else
        for (int g = 0, used = 0; g < groups && used < (int)len; g++)
            if (l->passes & (1u << g))
                used += snprintf(buf + used, len - (size_t)used, "%sp%d", used ? "," : "", g);
}

static void print_launch_row(FILE *out, const gp_report *r, const gp_exec_launch *l,
                             const char **keys, const char **labels, size_t n)
{
    char grid[48], block[48], ms[32], profiled[32];
    gp_text_format_dim(grid, sizeof grid, l->grid, l->grid.y > 1 || l->grid.z > 1);
    gp_text_format_dim(block, sizeof block, l->block, l->block.y > 1 || l->block.z > 1);
    format_ms(ms, sizeof ms, l->duration_ms);
    profiled_cell(profiled, sizeof profiled, r, l);
    fprintf(out, "%8d %8llu %4d %7u %14s %12s %7zu %10s %8s", l->pid,
            (unsigned long long)l->id, l->device, l->stream, grid, block, l->shared_bytes, ms,
            profiled);
    gp_text_metric_cells(out, &l->metrics, keys, labels, n);
    fprintf(out, "  %s\n", l->kernel);
}

static int print_launches(FILE *out, const gp_report *r)
{
    const char *keys[GP_TEXT_MAX_COLUMNS], *labels[GP_TEXT_MAX_COLUMNS];
    const size_t n = metric_columns(r, keys, labels);
    fprintf(out, "\n%8s %8s %4s %7s %14s %12s %7s %10s %8s", "pid", "id", "dev", "stream",
            "grid", "block", "smem", "time_ms", "profiled");
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %*s", gp_text_column_width(labels[i]), labels[i]);
    fprintf(out, "  %s\n", "kernel");
    size_t copies = 0; /* the copies and memsets among the launches, in issue order */
    for (size_t i = 0; i < r->exec.n_launches; i++) {
        gp_text_launch_activities(out, r, &copies, &r->exec.launches[i], keys, labels, n);
        print_launch_row(out, r, &r->exec.launches[i], keys, labels, n);
    }
    gp_text_launch_activities(out, r, &copies, NULL, keys, labels, n);
    return GP_OK;
}

/* ---- nvprof's long form ------------------------------------------------------------------- */

static void print_detail(FILE *out, const gp_exec_kernel *k, size_t nk)
{
    for (size_t i = 0; i < nk; i++) {
        if (!k[i].profiled)
            continue;
        fprintf(out, "\nKernel: %s (%zu invocation%s profiled)\n", k[i].kernel, k[i].profiled,
                k[i].profiled == 1 ? "" : "s");
        fprintf(out, "    %-38s %-62s %12s %12s %12s %s\n", "metric", "description", "min",
                "max", "avg", "unit");
        for (size_t m = 0; m < k[i].n_metrics; m++) {
            const gp_metric_stats *s = &k[i].metrics[m];
            const gp_metric_def *def = gp_find_metric(s->average.key);
            char min[32], max[32], avg[32];
            gp_text_format_value(min, sizeof min, &s->min);
            gp_text_format_value(max, sizeof max, &s->max);
            gp_text_format_value(avg, sizeof avg, &s->average);
            fprintf(out, "    %-38s %-62s %12s %12s %12s %s%s\n", s->average.key,
                    def ? def->description : "PerfWorks metric", min, max, avg,
                    s->average.unit, s->combined ? " (inputs of different launches)" : "");
            if (s->average.note[0])
                fprintf(out, "    %38s * %s\n", "", s->average.note);
        }
    }
}

int gp_text_exec(FILE *out, const gp_report *r, const gp_render_options *o)
{
    print_program(out, r);
    gp_text_exec_sources(out, r);
    print_profiler(out, r);
    if (o && o->launches)
        return print_launches(out, r);
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    GP_TRY(gp_exec_summarize(&r->exec, &k, &nk));
    int rc = print_kernels(out, r, k, nk);
    if (rc == GP_OK && o && o->metrics_detail)
        print_detail(out, k, nk);
    if (rc == GP_OK)
        rc = gp_text_activities(out, r);
    gp_exec_summary_free(k, nk);
    return rc;
}
