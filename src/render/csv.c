/* CSV output: one header line (unless --no-header), one row per result; then a column per
 * parameter and per metric key the results carry, so runs with the same options append
 * cleanly. Likewise a row per compared result (both sides' every metric), per launch of an
 * exec report, per variant of list. */
#include "render/csv.h"

#include "gpuprof/registry.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/csv_activities.h"

#include <math.h>
#include <string.h>

#define MAX_KEYS 128

/* The columns every row has, before the parameters and the metrics. */
static const char *const fixed_columns[] = {
    "family", "variant", "type", "n", "nx", "ny", "grid", "block", "shared_bytes",
    "median_ms", "min_ms", "max_ms", "noise_pct", "repeats", "bytes_moved", "bandwidth_gbps",
    "percent_of_peak", "check", "device", "source",
};
#define N_FIXED (sizeof fixed_columns / sizeof fixed_columns[0])
/* Where the parameters' columns go: after the launch shape, as they describe the launch. */
#define PARAMS_AFTER 9

static void put_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

static void put_text(FILE *out, const char *s)
{
    gp_csv_field(out, s, false);
}

/* The first time each name appears over the results, in order. */
static size_t add_unique(const char **names, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return n;
    if (n < MAX_KEYS)
        names[n++] = name;
    return n;
}

/* The keys of metrics[0..count) not yet among keys[0..n), added in order; the new count. */
static size_t add_metric_keys(const char **keys, size_t n, const gp_metric_value *metrics,
                              size_t count)
{
    for (size_t m = 0; m < count; m++)
        n = add_unique(keys, n, metrics[m].key);
    return n;
}

static size_t metric_keys(const gp_report *r, const char **keys)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_results; i++)
        n = add_metric_keys(keys, n, r->results[i].metrics.metrics,
                            r->results[i].metrics.n_metrics);
    return n;
}

static size_t param_names(const gp_report *r, const char **names)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_results; i++)
        for (size_t p = 0; p < r->results[i].n_params; p++)
            n = add_unique(names, n, r->results[i].params[p].name);
    return n;
}

/* A parameter's column: its name, with "_param" where a fixed column has that name (saxpy's
 * grid, not the launch grid). */
static void put_param_column(FILE *out, const char *name)
{
    bool taken = false;
    for (size_t k = 0; k < N_FIXED; k++)
        taken |= strcmp(fixed_columns[k], name) == 0;
    fprintf(out, ",%s%s", name, taken ? "_param" : "");
}

static void put_header(FILE *out, const char **params, size_t n_params, const char **keys,
                       size_t n_keys)
{
    for (size_t k = 0; k < N_FIXED; k++) {
        if (k == PARAMS_AFTER)
            for (size_t p = 0; p < n_params; p++)
                put_param_column(out, params[p]);
        gp_csv_field(out, fixed_columns[k], k == 0);
    }
    for (size_t k = 0; k < n_keys; k++)
        fprintf(out, ",%s", keys[k]);
    fputc('\n', out);
}

static void put_row(FILE *out, const gp_report *r, const gp_result *res, const char **params,
                    size_t n_params, const char **keys, size_t n_keys)
{
    char grid[48], block[48];
    snprintf(grid, sizeof grid, "%ux%ux%u", res->grid.x, res->grid.y, res->grid.z);
    snprintf(block, sizeof block, "%ux%ux%u", res->block.x, res->block.y, res->block.z);
    gp_csv_field(out, res->family, true);
    put_text(out, res->variant);
    put_text(out, res->type);
    fprintf(out, ",%llu,%u,%u,%s,%s,%zu", (unsigned long long)res->n, res->nx, res->ny, grid,
            block, res->shared_bytes);
    for (size_t p = 0; p < n_params; p++) {
        const gp_param *param = gp_result_param(res, params[p]);
        put_number(out, param ? param->value : NAN);
    }
    put_number(out, res->timing.median_ms);
    put_number(out, res->timing.min_ms);
    put_number(out, res->timing.max_ms);
    put_number(out, res->timing.noise_pct);
    fprintf(out, ",%u,%llu", res->timing.repeats, (unsigned long long)res->bytes_moved);
    put_number(out, res->gbps);
    put_number(out, res->percent_of_peak);
    put_text(out, gp_check_status_name(res->check.status));
    /* merged reports: the result's own file and GPU */
    const gp_report_source *src = r->n_sources ? &r->sources[res->source] : NULL;
    const bool has_device = src ? src->has_device : r->has_device;
    put_text(out, has_device ? (src ? src->device.name : r->device.name) : "");
    put_text(out, src ? src->file : "");
    for (size_t k = 0; k < n_keys; k++) {
        const gp_metric_value *m = gp_result_metric(res, keys[k]);
        put_number(out, m && m->valid ? m->value : NAN);
    }
    fputc('\n', out);
}

int gp_csv_report(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const char *keys[MAX_KEYS], *params[MAX_KEYS];
    const size_t n_keys = metric_keys(r, keys), n_params = param_names(r, params);
    if (!o || !o->no_header)
        put_header(out, params, n_params, keys, n_keys);
    for (size_t i = 0; i < r->n_results; i++)
        put_row(out, r, &r->results[i], params, n_params, keys, n_keys);
    return GP_OK;
}

int gp_csv_list(FILE *out, const gp_render_options *o)
{
    if (!o || !o->no_header)
        fputs("family,variant,default_block,blocks,origin,summary\n", out);
    size_t n;
    const gp_family *families = gp_family_table(&n);
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < families[f].n_variants; i++) {
            const gp_variant *v = &families[f].variants[i];
            char blocks[96], def[32];
            gp_describe_blocks(&families[f], v, blocks, sizeof blocks);
            gp_format_block(v->default_block, families[f].two_d, def, sizeof def);
            gp_csv_field(out, families[f].name, true);
            put_text(out, v->name);
            put_text(out, def);
            put_text(out, blocks);
            put_text(out, v->origin);
            put_text(out, v->summary);
            fputc('\n', out);
        }
    return GP_OK;
}

/* ---- compare: a row per result, both sides' every metric ------------------------------- */

/* Every metric key over both sides of every row, in order of first appearance. */
static size_t compare_metric_keys(const gp_comparison *c, const char **keys)
{
    size_t n = 0;
    for (size_t r = 0; r < c->n_rows; r++) {
        const gp_compare_side *sides[2] = {&c->rows[r].base, &c->rows[r].next};
        for (size_t s = 0; s < 2; s++)
            n = add_metric_keys(keys, n, sides[s]->metrics, sides[s]->n_metrics);
    }
    return n;
}

static void put_csv_row(FILE *out, const gp_compare_row *row, const char **keys, size_t n)
{
    char label[GP_COMPARE_LABEL_LEN];
    gp_compare_label(row, label, sizeof label);
    gp_csv_field(out, label, true);
    fprintf(out, ",%s", gp_change_name(row->verdict));
    put_number(out, row->change_pct);
    put_number(out, row->bound_pct);
    const gp_compare_side *sides[2] = {&row->base, &row->next};
    for (size_t s = 0; s < 2; s++) {
        put_number(out, sides[s]->present ? sides[s]->time_ms : NAN);
        put_number(out, sides[s]->present ? sides[s]->noise_pct : NAN);
        put_number(out, sides[s]->present ? sides[s]->gbps : NAN);
    }
    for (size_t k = 0; k < n; k++) {
        put_number(out, gp_compare_side_value(&row->base, keys[k]));
        put_number(out, gp_compare_side_value(&row->next, keys[k]));
    }
    fputc('\n', out);
}

int gp_csv_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    const char *keys[MAX_KEYS];
    const size_t n = compare_metric_keys(c, keys);
    if (!o || !o->no_header) {
        fputs("result,verdict,change_pct,bound_pct,base_ms,base_noise_pct,base_gbps,new_ms,"
              "new_noise_pct,new_gbps", out);
        for (size_t k = 0; k < n; k++)
            fprintf(out, ",base_%s,new_%s", keys[k], keys[k]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < c->n_rows; i++)
        put_csv_row(out, &c->rows[i], keys, n);
    return GP_OK;
}

/* ---- gpuprof exec: one row per launch --------------------------------------------------- */

static size_t exec_metric_keys(const gp_exec_info *e, const char **keys)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        n = add_metric_keys(keys, n, e->launches[i].metrics.metrics,
                            e->launches[i].metrics.n_metrics);
    return n;
}

static void put_launch(FILE *out, const gp_exec_launch *l, const char **keys, size_t n_keys)
{
    fprintf(out, "%d,%llu", l->pid, (unsigned long long)l->id);
    put_text(out, l->kernel);
    put_text(out, l->mangled ? l->mangled : "");
    fprintf(out, ",%d,%u,%u,%ux%ux%u,%ux%ux%u,%zu", l->device, l->context, l->stream, l->grid.x,
            l->grid.y, l->grid.z, l->block.x, l->block.y, l->block.z, l->shared_bytes);
    put_number(out, l->duration_ms >= 0 ? l->duration_ms : NAN);
    fprintf(out, ",%s,%llu,%llu", l->profiled ? "yes" : "no", (unsigned long long)l->graph,
            (unsigned long long)l->graph_node);
    for (size_t k = 0; k < n_keys; k++) {
        const gp_metric_value *m = NULL;
        for (size_t i = 0; i < l->metrics.n_metrics && !m; i++)
            if (strcmp(l->metrics.metrics[i].key, keys[k]) == 0)
                m = &l->metrics.metrics[i];
        put_number(out, m && m->valid ? m->value : NAN);
    }
    fputc('\n', out);
}

int gp_csv_exec(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const char *keys[MAX_KEYS];
    const size_t n_keys = exec_metric_keys(&r->exec, keys);
    if (!o || !o->no_header) {
        fputs("pid,id,kernel,mangled,device,context,stream,grid,block,shared_bytes,"
              "duration_ms,profiled,graph,graph_node", out);
        for (size_t k = 0; k < n_keys; k++)
            fprintf(out, ",%s", keys[k]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < r->exec.n_launches; i++)
        put_launch(out, &r->exec.launches[i], keys, n_keys);
    return gp_csv_activities(out, r, o);
}
