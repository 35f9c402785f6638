/* CSV output: one header line (unless --no-header), one row per result; metric columns are
 * the metric keys of the results, so runs with the same options append cleanly. */
#include "gpuprof/report.h"

#include <math.h>
#include <string.h>

#define MAX_KEYS 128

static void put_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
}

/* RFC 4180: quote a field that holds a comma, quote or newline. */
static void put_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fprintf(out, ",%s", s);
        return;
    }
    fputs(",\"", out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static size_t metric_keys(const gp_report *r, const char **keys)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_results; i++)
        for (size_t m = 0; m < r->results[i].metrics.n_metrics; m++) {
            const char *key = r->results[i].metrics.metrics[m].key;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = strcmp(keys[k], key) == 0;
            if (!seen && n < MAX_KEYS)
                keys[n++] = key;
        }
    return n;
}

int gp_render_csv(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const char *keys[MAX_KEYS];
    size_t n = metric_keys(r, keys);
    if (!o || !o->no_header) {
        fputs("family,variant,type,n,nx,ny,grid,block,shared_bytes,pad,group,grid_param,"
              "median_ms,min_ms,max_ms,repeats,bytes_moved,bandwidth_gbps,percent_of_peak,"
              "check,device", out);
        for (size_t k = 0; k < n; k++)
            fprintf(out, ",%s", keys[k]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        char grid[48], block[48];
        snprintf(grid, sizeof grid, "%ux%ux%u", res->grid.x, res->grid.y, res->grid.z);
        snprintf(block, sizeof block, "%ux%ux%u", res->block.x, res->block.y, res->block.z);
        fputs(res->family, out);
        put_text(out, res->variant);
        put_text(out, res->type);
        fprintf(out, ",%llu,%u,%u,%s,%s,%zu", (unsigned long long)res->n, res->nx, res->ny, grid,
                block, res->shared_bytes);
        if (res->pad >= 0)
            fprintf(out, ",%d", res->pad);
        else
            fputs(",", out);
        fprintf(out, ",%u,%u", res->group, res->grid_param);
        put_number(out, res->timing.median_ms);
        put_number(out, res->timing.min_ms);
        put_number(out, res->timing.max_ms);
        fprintf(out, ",%u,%llu", res->timing.repeats, (unsigned long long)res->bytes_moved);
        put_number(out, res->gbps);
        put_number(out, res->percent_of_peak);
        put_text(out, gp_check_status_name(res->check.status));
        put_text(out, r->has_device ? r->device.name : "");
        for (size_t k = 0; k < n; k++) {
            const gp_metric_value *m = gp_result_metric(res, keys[k]);
            put_number(out, m && m->valid ? m->value : NAN);
        }
        fputc('\n', out);
    }
    return ferror(out) ? 1 : 0;
}
