/* Text output for people. Kernel reports: a header with the GPU and the run's configuration,
 * a heading per problem and one aligned row per result, per-launch rows for multi-kernel
 * workloads, optional long metric form (exec reports: text_exec.c). Compare: a row per
 * result, changed metrics under it. The catalogue commands: list, device, metrics. */
#include "render/text.h"

#include "gpuprof/group.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/status.h"
#include "render/cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void format_size(char *buf, size_t len, const gp_result *r)
{
    if (r->nx)
        snprintf(buf, len, "%ux%u", r->nx, r->ny);
    else
        snprintf(buf, len, "%llu", (unsigned long long)r->n);
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

static void print_gpu(FILE *out, const gp_device_info *d)
{
    fprintf(out, "GPU %d: %s (sm_%d%d, %d SMs, peak %.1f GB/s)\n", d->index, d->name,
            d->cc_major, d->cc_minor, d->multiprocessors, d->peak_gbps);
}

/* Merged reports: each file, numbered as the rows refer to it when they differ. */
static void print_sources(FILE *out, const gp_report *r)
{
    fprintf(out, "gpuprof %s  report of %zu files%s\n", GPUPROF_VERSION, r->n_sources,
            gp_report_sources_differ(r) ? " from different GPUs or gpuprof versions: each "
                                          "row says which [file]" : "");
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *src = &r->sources[i];
        fprintf(out, "  [%zu] %s: gpuprof %s %s on ", i + 1, src->file, src->tool_version,
                src->command);
        if (src->has_device)
            print_gpu(out, &src->device);
        else
            fputs("no GPU\n", out);
    }
}

static void print_header(FILE *out, const gp_report *r)
{
    if (r->n_sources) {
        print_sources(out, r);
    } else {
        fprintf(out, "gpuprof %s  %s on ", r->tool_version, r->command);
        print_gpu(out, &r->device);
    }
    fprintf(out, "time: median of %u runs after %u warm-up%s, L2 flushed before each; "
                 "GB/s = minimum bytes moved / median time, 1 GB = 10^9 bytes\n",
            r->repeat, r->warmup, r->warmup == 1 ? "" : "s");
    fprintf(out, "noise%%: the runs' spread, 1.4826 x median absolute deviation / median");
    if (!isnan(r->max_noise_pct))
        fprintf(out, "; repeated until at most %g %% where possible", r->max_noise_pct);
    fputc('\n', out);
    const gp_profiler_info *p = &r->profiler;
    if (p->state == GP_PROF_OK)
        fprintf(out, "metrics: CUPTI range profiler on %s, %s set, %d passes per kernel, caches "
                     "flushed, clocks not locked\n", p->chip, p->metric_set, p->passes);
    else if (p->state == GP_PROF_UNAVAILABLE)
        fprintf(out, "metrics: unavailable (%s)\n", p->reason);
}

/* Metric columns: those of the first result that has metrics. */
static size_t metric_columns(const gp_report *r, const char **keys, const char **labels)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].metrics.n_metrics)
            return gp_text_metric_columns(&r->results[i].metrics,
                                          strcmp(r->profiler.metric_set, "list") == 0, keys,
                                          labels);
    return 0;
}

static void print_column_titles(FILE *out, const char **labels, size_t n)
{
    fprintf(out, "%-22s %12s %9s %10s %6s %9s %6s  %-7s", "variant", "grid", "block",
            "time_ms", "noise%", "GB/s", "%peak", "check");
    gp_text_column_titles(out, labels, n);
}

static void print_metric_cells(FILE *out, const gp_metric_set *s, const char **keys,
                               const char **labels, size_t n)
{
    gp_text_metric_cells(out, s, keys, labels, n);
    fputc('\n', out);
}

/* ---- parameters: the same in every row of a problem go in its heading, the others in
 * each row's name ---------------------------------------------------------------------- */

static void format_number(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.10g", v);
}

/* " pad=1 grid=4": the parameters that vary within the problem, where they apply. */
static void row_params(const gp_problem *pr, const gp_result *res, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < res->n_params; i++) {
        const gp_param *p = &res->params[i];
        if (isnan(p->value) || !gp_problem_param_varies(pr, p->name))
            continue;
        char v[32];
        format_number(v, sizeof v, p->value);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, " %s=%s", p->name, v);
    }
}

static void format_noise(char *buf, size_t len, double noise_pct)
{
    if (isnan(noise_pct))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f", noise_pct);
}

static void print_row(FILE *out, const gp_problem *pr, bool label_sources,
                      const gp_result *res, const char **keys, const char **labels, size_t n)
{
    bool two_d = res->nx != 0;
    char grid[32], block[32], name[128], params[96], source[24] = "", noise[16];
    gp_text_format_dim(grid, sizeof grid, res->grid, two_d);
    gp_text_format_dim(block, sizeof block, res->block, two_d);
    row_params(pr, res, params, sizeof params);
    if (label_sources)
        snprintf(source, sizeof source, " [%zu]", res->source + 1);
    snprintf(name, sizeof name, "%.60s%s%s", res->variant, params, source);
    format_noise(noise, sizeof noise, res->timing.noise_pct);
    fprintf(out, "%-22s %12s %9s %10.4f %6s %9.1f %6.1f  %-7s", name, grid, block,
            res->timing.median_ms, noise, res->gbps, res->percent_of_peak,
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
        gp_text_format_dim(grid, sizeof grid, l->grid, two_d);
        gp_text_format_dim(block, sizeof block, l->block, two_d);
        if (l->median_ms >= 0)
            fprintf(out, "%-22s %12s %9s %10.4f %6s %9s %6s  %-7s", lname, grid, block,
                    l->median_ms, "", "", "", "");
        else
            fprintf(out, "%-22s %12s %9s %10s %6s %9s %6s  %-7s", lname, grid, block, "-", "",
                    "", "", "");
        print_metric_cells(out, &l->metrics, keys, labels, n);
    }
}

/* The heading of a problem, with the parameters every one of its rows shares. */
static void print_problem(FILE *out, const gp_problem *pr)
{
    const gp_result *res = &pr->report->results[pr->first];
    char size[64], note[32];
    format_size(size, sizeof size, res);
    double mib = (double)res->bytes_moved / (1024.0 * 1024.0);
    fprintf(out, "\n%s %s, %s%s, %.1f MiB moved at least", res->family, res->type, size,
            res->nx ? "" : power_of_two_note(res->n, note, sizeof note), mib);
    for (size_t i = 0; i < res->n_params; i++) {
        const gp_param *p = &res->params[i];
        if (isnan(p->value) || gp_problem_param_varies(pr, p->name))
            continue;
        char v[32];
        format_number(v, sizeof v, p->value);
        fprintf(out, ", %s %s", p->name, v);
    }
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
                gp_text_format_value(cell, sizeof cell, v);
                fprintf(out, "    %-38s %-62s %14s %s\n", v->key,
                        def ? def->description : "PerfWorks metric", cell, v->unit);
                if (v->note[0])
                    fprintf(out, "    %38s * %s\n", "", v->note);
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
        fprintf(out, "FAILED %s %s block %u: %s%s\n", res->family, res->variant, res->block.x,
                res->check.detail,
                res->check.rechecked && res->check.after_profile == GP_CHECK_FAILED
                    ? " (after profiling)" : "");
    }
}

int gp_text_report(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const char *keys[GP_TEXT_MAX_COLUMNS], *labels[GP_TEXT_MAX_COLUMNS];
    size_t n = metric_columns(r, keys, labels);
    print_header(out, r);
    const bool label_sources = gp_report_sources_differ(r);
    for (size_t i = 0; i < r->n_results;) {
        const gp_problem pr = gp_problem_at(r, i);
        print_problem(out, &pr);
        print_column_titles(out, labels, n);
        for (; i < pr.end; i++)
            print_row(out, &pr, label_sources, &r->results[i], keys, labels, n);
    }
    print_failures(out, r);
    if (o && o->metrics_detail)
        print_detail(out, r);
    return GP_OK;
}

/* ---- compare: a row per result, changed metrics under it ------------------------------- */

static void describe_side(char *buf, size_t len, const char *file, const gp_report *r)
{
    if (r->has_device)
        snprintf(buf, len, "%s: gpuprof %s %s on %s", file, r->tool_version, r->command,
                 r->device.name);
    else
        snprintf(buf, len, "%s: gpuprof %s %s", file, r->tool_version, r->command);
}

static void print_text_header(FILE *out, const gp_comparison *c)
{
    char base[2 * GP_TEXT_LEN], next[2 * GP_TEXT_LEN];
    describe_side(base, sizeof base, c->base_file, c->base);
    describe_side(next, sizeof next, c->next_file, c->next);
    fprintf(out, "gpuprof %s  compare\nbase: %s\nnew:  %s\n", GPUPROF_VERSION, base, next);
    if (!c->same_device)
        fputs("different GPUs: the changes compare the GPUs as much as the code\n", out);
    fprintf(out, "a change is significant beyond %g %% and beyond both runs' noise (the "
                 "bound column); metrics are shown where they changed by more than %g %%\n\n",
            c->threshold_pct, c->threshold_pct);
    fprintf(out, "%-10s %8s %7s %11s %11s %9s %9s  %s\n", "verdict", "change%", "bound%",
            "base_ms", "new_ms", "base_GB/s", "new_GB/s", "result");
}

static void put_cell(FILE *out, const char *fmt, int width, double v)
{
    if (isfinite(v))
        fprintf(out, fmt, width, v);
    else
        fprintf(out, "%*s", width, "-");
}

static void print_text_metrics(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    if (!row->base.present || !row->next.present)
        return;
    for (size_t m = 0; m < row->base.n_metrics; m++) {
        const gp_metric_value *v = &row->base.metrics[m];
        double b, n;
        if (!gp_compare_metric_changed(row, v->key, threshold_pct, &b, &n))
            continue;
        fprintf(out, "%-10s %8s %7s %11.4g %11.4g %9s %9s    %s (%s)\n", "", "", "", b, n, "",
                "", v->key, v->unit);
    }
}

static void print_text_row(FILE *out, const gp_compare_row *row, double threshold_pct)
{
    char label[GP_COMPARE_LABEL_LEN];
    gp_compare_label(row, label, sizeof label);
    fprintf(out, "%-10s ", gp_change_name(row->verdict));
    put_cell(out, "%+*.1f", 8, row->change_pct);
    put_cell(out, " %*.1f", 7, row->bound_pct);
    put_cell(out, " %*.4f", 11, row->base.present ? row->base.time_ms : NAN);
    put_cell(out, " %*.4f", 11, row->next.present ? row->next.time_ms : NAN);
    put_cell(out, " %*.1f", 9, row->base.present ? row->base.gbps : NAN);
    put_cell(out, " %*.1f", 9, row->next.present ? row->next.gbps : NAN);
    fprintf(out, "  %s\n", label);
    print_text_metrics(out, row, threshold_pct);
}

int gp_text_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    (void)o;
    print_text_header(out, c);
    for (size_t i = 0; i < c->n_rows; i++)
        print_text_row(out, &c->rows[i], c->threshold_pct);
    fprintf(out, "\n%zu matched: %zu slower, %zu faster, %zu within the bound; %zu only in "
                 "base, %zu only in new\n",
            c->n_same + c->n_faster + c->n_slower, c->n_slower, c->n_faster, c->n_same,
            c->n_only_base, c->n_only_new);
    if (c->n_slower)
        fprintf(out, "REGRESSION: %zu result%s significantly slower\n", c->n_slower,
                c->n_slower == 1 ? "" : "s");
    return GP_OK;
}

/* ---- the catalogue commands ---------------------------------------------------------- */

int gp_text_list(FILE *out, const gp_render_options *o)
{
    (void)o;
    size_t n;
    const gp_family *families = gp_family_table(&n);
    for (size_t f = 0; f < n; f++) {
        const gp_family *fam = &families[f];
        fprintf(out, "%s: %s\n", fam->name, fam->summary);
        fprintf(out, "  %-22s %-9s %-36s %s\n", "variant", "default", "blocks", "summary");
        for (size_t i = 0; i < fam->n_variants; i++) {
            const gp_variant *v = &fam->variants[i];
            char blocks[96], def[32];
            gp_describe_blocks(fam, v, blocks, sizeof blocks);
            gp_format_block(v->default_block, fam->two_d, def, sizeof def);
            fprintf(out, "  %-22s %-9s %-36s %s\n", v->name, def, blocks, v->summary);
        }
        fputc('\n', out);
    }
    return GP_OK;
}

static void print_device(FILE *out, const gp_device_info *d)
{
    fprintf(out, "GPU %d: %s\n", d->index, d->name);
    fprintf(out, "  compute capability    %d.%d\n", d->cc_major, d->cc_minor);
    fprintf(out, "  multiprocessors       %d\n", d->multiprocessors);
    fprintf(out, "  memory                %.1f GiB, %d-bit bus at %.0f MHz\n",
            d->memory_bytes / 1073741824.0, d->memory_bus_bits, d->memory_clock_mhz);
    fprintf(out, "  L2 cache              %.1f MiB\n", d->l2_bytes / 1048576.0);
    fprintf(out, "  SM clock (maximum)    %.0f MHz\n", d->sm_clock_mhz);
    fprintf(out, "  peak DRAM bandwidth   %.1f GB/s (2 x memory clock x bus width)\n",
            d->peak_gbps);
    fprintf(out, "  copy bandwidth        %.1f GB/s measured (device-to-device, bytes read + "
                 "written), %.1f%% of peak\n", d->copy_gbps, 100.0 * d->copy_gbps / d->peak_gbps);
    fprintf(out, "  driver / runtime      %d.%d / %d.%d\n", d->driver_version / 1000,
            d->driver_version % 1000 / 10, d->runtime_version / 1000,
            d->runtime_version % 1000 / 10);
}

int gp_text_devices(FILE *out, const gp_device_info *devices, size_t n,
                    const gp_render_options *o)
{
    (void)o;
    for (size_t i = 0; i < n; i++)
        print_device(out, &devices[i]);
    return GP_OK;
}

int gp_text_chip_metrics(FILE *out, const gp_chip_metrics *c, const gp_render_options *o)
{
    (void)o;
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    if (c->chip) {
        fprintf(out, "chip %s: passes per kernel:", c->chip);
        for (unsigned g = 0; g < GP_GROUP_ALL_ONLY; g++)
            fprintf(out, " %s %d,", gp_metric_group_name((gp_metric_group)g), c->group_passes[g]);
        fprintf(out, " all %d\n", c->passes_all);
        fprintf(out, "smsp__sass_* counters are counted by instrumenting the kernel's code, in "
                     "passes of their own; the others are hardware counters\n\n");
    }
    for (size_t i = 0; i < n; i++) {
        const gp_metric_def *m = &cat[i];
        const bool available = c->chip && c->availability[i].available;
        fprintf(out, "%-38s %-22s %s%s\n", m->key, m->unit, gp_metric_group_name(m->group),
                c->chip ? (available ? ", available" : ", NOT AVAILABLE") : "");
        fprintf(out, "    %s\n    = %s\n", m->description, m->formula);
        for (size_t k = 0; k < m->n_inputs; k++)
            fprintf(out, "      %s\n", m->inputs[k]);
        if (m->ncu_metric)
            fprintf(out, "    ncu: %s\n", m->ncu_metric);
        else
            fprintf(out, "    ncu: no single metric; compare the counters above\n");
        if (c->chip && !available)
            fprintf(out, "    missing on %s: %s\n", c->chip, c->availability[i].missing);
    }
    return GP_OK;
}
