/* Output of gpuprof compare: text for people (a row per result, changed metrics under it),
 * CSV with every metric's two values, and JSON (schemas/gpuprof-compare-v1.schema.json). */
#include "gpuprof/render.h"

#include "gpuprof/status.h"
#include "report/json_out.h"
#include "render/cells.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#define MAX_METRIC_KEYS 128

/* The value of a side's metric, NAN when it has none. */
static double side_metric(const gp_compare_side *s, const char *key)
{
    for (size_t i = 0; i < s->n_metrics; i++)
        if (strcmp(s->metrics[i].key, key) == 0)
            return s->metrics[i].valid ? s->metrics[i].value : NAN;
    return NAN;
}

static double change_pct(double base, double next)
{
    return base != 0 ? 100.0 * (next - base) / fabs(base) : NAN;
}

/* Every metric key over both sides of every row, in order of first appearance. */
static size_t metric_keys(const gp_comparison *c, const char **keys)
{
    size_t n = 0;
    for (size_t r = 0; r < c->n_rows; r++) {
        const gp_compare_side *sides[2] = {&c->rows[r].base, &c->rows[r].next};
        for (size_t s = 0; s < 2; s++)
            for (size_t m = 0; m < sides[s]->n_metrics; m++) {
                const char *key = sides[s]->metrics[m].key;
                size_t k = 0;
                while (k < n && strcmp(keys[k], key) != 0)
                    k++;
                if (k == n && n < MAX_METRIC_KEYS)
                    keys[n++] = key;
            }
    }
    return n;
}

static void describe_side(char *buf, size_t len, const char *file, const gp_report *r)
{
    if (r->has_device)
        snprintf(buf, len, "%s: gpuprof %s %s on %s", file, r->tool_version, r->command,
                 r->device.name);
    else
        snprintf(buf, len, "%s: gpuprof %s %s", file, r->tool_version, r->command);
}

/* ---- text ----------------------------------------------------------------------------------- */

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
        const double b = side_metric(&row->base, v->key), n = side_metric(&row->next, v->key);
        const double ch = change_pct(b, n);
        if (!(fabs(ch) > threshold_pct) && !(b == 0 && n != 0))
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

int gp_render_compare_text(FILE *out, const gp_comparison *c)
{
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

/* ---- CSV ------------------------------------------------------------------------------------ */

static void put_csv_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputc(',', out);
}

static void put_csv_row(FILE *out, const gp_compare_row *row, const char **keys, size_t n)
{
    char label[GP_COMPARE_LABEL_LEN];
    gp_compare_label(row, label, sizeof label);
    gp_csv_field(out, label, true);
    fprintf(out, ",%s", gp_change_name(row->verdict));
    put_csv_number(out, row->change_pct);
    put_csv_number(out, row->bound_pct);
    const gp_compare_side *sides[2] = {&row->base, &row->next};
    for (size_t s = 0; s < 2; s++) {
        put_csv_number(out, sides[s]->present ? sides[s]->time_ms : NAN);
        put_csv_number(out, sides[s]->present ? sides[s]->noise_pct : NAN);
        put_csv_number(out, sides[s]->present ? sides[s]->gbps : NAN);
    }
    for (size_t k = 0; k < n; k++) {
        put_csv_number(out, side_metric(&row->base, keys[k]));
        put_csv_number(out, side_metric(&row->next, keys[k]));
    }
    fputc('\n', out);
}

int gp_render_compare_csv(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    const char *keys[MAX_METRIC_KEYS];
    const size_t n = metric_keys(c, keys);
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

/* ---- JSON ----------------------------------------------------------------------------------- */

static cJSON *side_json(const gp_compare_side *s)
{
    if (!s->present)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    gp_json_add_number(o, "median_ms", s->time_ms);
    gp_json_add_number(o, "noise_pct", s->noise_pct);
    gp_json_add_number(o, "bandwidth_gbps", s->gbps);
    cJSON_AddNumberToObject(o, "launches", (double)s->launches);
    cJSON *m = cJSON_AddObjectToObject(o, "metrics");
    for (size_t i = 0; i < s->n_metrics; i++)
        gp_json_add_number(m, s->metrics[i].key, s->metrics[i].valid ? s->metrics[i].value : NAN);
    return o;
}

static cJSON *row_json(const gp_compare_row *row)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *key = cJSON_AddObjectToObject(o, "key");
    for (size_t i = 0; i < row->n_keys; i++)
        cJSON_AddStringToObject(key, row->keys[i].name, row->keys[i].value);
    cJSON_AddStringToObject(o, "verdict", gp_change_name(row->verdict));
    gp_json_add_number(o, "change_pct", row->change_pct);
    gp_json_add_number(o, "bound_pct", row->bound_pct);
    cJSON_AddItemToObject(o, "base", side_json(&row->base));
    cJSON_AddItemToObject(o, "new", side_json(&row->next));
    return o;
}

static cJSON *report_side_json(const char *file, const gp_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "tool_version", r->tool_version);
    cJSON_AddStringToObject(o, "command", r->command);
    if (r->has_device)
        cJSON_AddStringToObject(o, "device", r->device.name);
    else
        cJSON_AddNullToObject(o, "device");
    return o;
}

static cJSON *summary_json(const gp_comparison *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "same", (double)c->n_same);
    cJSON_AddNumberToObject(o, "faster", (double)c->n_faster);
    cJSON_AddNumberToObject(o, "slower", (double)c->n_slower);
    cJSON_AddNumberToObject(o, "only_base", (double)c->n_only_base);
    cJSON_AddNumberToObject(o, "only_new", (double)c->n_only_new);
    return o;
}

int gp_render_compare_json(FILE *out, const gp_comparison *c)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", GP_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "gpuprof");
    cJSON_AddStringToObject(tool, "version", GPUPROF_VERSION);
    cJSON_AddStringToObject(root, "command", "compare");
    cJSON_AddNumberToObject(root, "threshold_pct", c->threshold_pct);
    cJSON_AddItemToObject(root, "base", report_side_json(c->base_file, c->base));
    cJSON_AddItemToObject(root, "new", report_side_json(c->next_file, c->next));
    cJSON_AddBoolToObject(root, "same_device", c->same_device);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < c->n_rows; i++)
        cJSON_AddItemToArray(rows, row_json(&c->rows[i]));
    cJSON_AddItemToObject(root, "summary", summary_json(c));
    return gp_json_print(out, root);
}
