/* CSV columns that do not move: each family's header is its own columns, its parameters from
 * the family table and every metric of the catalogue in catalogue order (read from the
 * tables here, so a metric added to the catalogue is checked too); exec's header has each
 * metric's _min, _avg and _max; --csv-columns checked against them. */
#include "tap.h"

#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"
#include "gpuprof/status.h"
#include "render/csv_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *csv_of(const gp_report *r, gp_render_options o)
{
    o.format = GP_OUT_CSV;
    return tap_render_report(r, o);
}

/* The header line's field at index k (no quoting: header names hold no commas). */
static bool field_is(const char *header, size_t k, const char *want)
{
    const char *p = header;
    for (size_t i = 0; i < k && p; i++) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return false;
    const size_t n = strcspn(p, ",\n");
    return n == strlen(want) && strncmp(p, want, n) == 0;
}

static size_t fields(const char *line)
{
    size_t n = 1;
    for (; *line && *line != '\n'; line++)
        n += *line == ',';
    return n;
}

/* A report of one result of the family: its header. */
static void family_header(const gp_family *f)
{
    gp_report r;
    gp_report_init(&r);
    gp_result *res;
    gp_report_add_result(&r, &res);
    snprintf(res->family, sizeof res->family, "%s", f->name);
    char *csv = csv_of(&r, (gp_render_options){0});
    tap_ok(csv != NULL, "%s: CSV renders", f->name);
    if (!csv) {
        gp_report_free(&r);
        return;
    }
    size_t n_metrics;
    const gp_metric_def *catalogue = gp_metric_catalogue(&n_metrics);
    const size_t fixed = 20;  /* family ... source */
    bool params = field_is(csv, 0, "family") && field_is(csv, fixed - 1, "source");
    for (size_t p = 0; p < f->n_params; p++) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", f->params[p].name,
                 strcmp(f->params[p].name, "grid") == 0 ? "_param" : "");
        params &= field_is(csv, fixed + p, name);
    }
    tap_ok(params, "%s: the fixed columns, then each parameter of the family in order",
           f->name);
    bool metrics = fields(csv) == fixed + f->n_params + n_metrics;
    for (size_t m = 0; m < n_metrics; m++)
        metrics &= field_is(csv, fixed + f->n_params + m, catalogue[m].key);
    tap_ok(metrics, "%s: then every metric of the catalogue (%zu), in its order, and no more",
           f->name, n_metrics);
    free(csv);
    gp_report_free(&r);
}

static void exec_header(void)
{
    gp_report r;
    gp_report_init(&r);
    r.is_exec = true;
    char *csv = csv_of(&r, (gp_render_options){0});
    size_t n_metrics;
    const gp_metric_def *catalogue = gp_metric_catalogue(&n_metrics);
    const size_t fixed = 14;  /* kind ... max_ms, then the activities' host_memory ... count */
    bool ok = csv && field_is(csv, 0, "kind") && field_is(csv, 1, "source") &&
              field_is(csv, 3, "calls") && field_is(csv, 9, "max_ms") &&
              field_is(csv, 10, "host_memory") && field_is(csv, fixed - 1, "count") &&
              fields(csv) == fixed + 3 * n_metrics + 5 &&
              field_is(csv, fixed + 3 * n_metrics, "timed") &&
              field_is(csv, fixed + 3 * n_metrics + 1, "total_estimated") &&
              field_is(csv, fixed + 3 * n_metrics + 2, "kernel_id") &&
              field_is(csv, fixed + 3 * n_metrics + 3, "row") &&
              field_is(csv, fixed + 3 * n_metrics + 4, "variant");
    for (size_t m = 0; ok && m < n_metrics; m++) {
        const char *suffix[] = {"_min", "_avg", "_max"};
        for (size_t s = 0; s < 3; s++) {
            char name[GP_NAME_LEN + 8];
            snprintf(name, sizeof name, "%s%s", catalogue[m].key, suffix[s]);
            ok &= field_is(csv, fixed + 3 * m + s, name);
        }
    }
    tap_ok(ok, "exec: kind, source, kernel, calls, ..., count, then each catalogue metric's "
           "_min, _avg, _max, then timed, total_estimated, kernel_id, row and variant");
    free(csv);
    csv = csv_of(&r, (gp_render_options){.launches = true});
    ok = csv && field_is(csv, 0, "kind") && field_is(csv, 2, "pid") &&
         fields(csv) == 16 + n_metrics + 7 && field_is(csv, 16, catalogue[0].key) &&
         field_is(csv, 16 + n_metrics, "how") && field_is(csv, 16 + n_metrics + 1, "note") &&
         field_is(csv, 16 + n_metrics + 2, "kernel_id") &&
         field_is(csv, 16 + n_metrics + 3, "variant") &&
         field_is(csv, 16 + n_metrics + 4, "label") &&
         field_is(csv, 16 + n_metrics + 5, "bytes") &&
         field_is(csv, 16 + n_metrics + 6, "host_memory");
    tap_ok(ok, "exec --launches: the launch's columns, a value per catalogue metric, then how, "
           "note, kernel_id, variant, label, bytes and host_memory");
    free(csv);
    gp_report_free(&r);
}

static int check(const gp_family *f, bool launches, const char *list)
{
    gp_request req;
    memset(&req, 0, sizeof req);
    req.family = f;
    req.launches = launches;
    req.csv_columns = list;
    return gp_csv_check_columns(&req);
}

/* Every catalogue key is a column name of every command, derived from the catalogue. */
static void every_metric_is_a_column(const gp_family *families, size_t n_families)
{
    size_t n_metrics;
    const gp_metric_def *catalogue = gp_metric_catalogue(&n_metrics);
    bool ok = true;
    for (size_t m = 0; m < n_metrics; m++) {
        char avg[GP_NAME_LEN + 8];
        snprintf(avg, sizeof avg, "%s_avg", catalogue[m].key);
        for (size_t f = 0; f < n_families; f++)
            ok &= check(&families[f], false, catalogue[m].key) == GP_OK;
        ok &= check(NULL, true, catalogue[m].key) == GP_OK;
        ok &= check(NULL, false, avg) == GP_OK;
        ok &= check(NULL, false, catalogue[m].key) == GP_ERR_USAGE;
    }
    tap_ok(ok, "--csv-columns: every catalogue metric of every command (exec: KEY_avg per "
               "kernel, KEY per launch)");
}

static void choose(void)
{
    gp_csv_layout l = {0};
    const char *fixed[] = {"a", "grid", "b"};
    gp_csv_layout_fixed(&l, fixed, 3);
    gp_csv_layout_param(&l, "grid");
    gp_csv_layout_param(&l, "pad");
    gp_csv_layout_param(&l, "pad");
    gp_csv_layout_metric(&l, "m");
    tap_ok(l.n == 6 && strcmp(l.columns[3].name, "grid_param") == 0 &&
               strcmp(l.columns[4].name, "pad") == 0 && strcmp(l.columns[5].name, "m") == 0,
           "layout: a parameter named as a column gets _param; each name once");
    tap_ok(gp_csv_layout_choose(&l, NULL) == GP_OK && l.n_chosen == 6 && l.chosen[5] == 5,
           "layout: no list chooses every column in order");
    tap_ok(gp_csv_layout_choose(&l, "m,a") == GP_OK && l.n_chosen == 2 && l.chosen[0] == 5 &&
               l.chosen[1] == 0,
           "layout: a list chooses its columns in its order");
    tap_ok(gp_csv_layout_choose(&l, "a,x__y.sum") == GP_OK && l.n == 7 &&
               l.columns[6].kind == GP_CSV_METRIC,
           "layout: a PerfWorks name is a metric column of its own");
    tap_ok(gp_csv_layout_choose(&l, "a,a") == GP_ERR_USAGE &&
               strstr(gp_error(), "listed twice"),
           "layout: a repeated column is a usage error");
    tap_ok(gp_csv_layout_choose(&l, "pda") == GP_ERR_USAGE && strstr(gp_error(), "'pad'"),
           "layout: an unknown column is a usage error with a suggestion");
    tap_ok(gp_csv_layout_choose(&l, ",a") == GP_ERR_USAGE && gp_csv_layout_choose(&l, "") ==
               GP_ERR_USAGE, "layout: an empty name is a usage error");
    gp_csv_layout_free(&l);
}

void test_csv(void)
{
    size_t n;
    const gp_family *families = gp_family_table(&n);
    for (size_t f = 0; f < n; f++)
        family_header(&families[f]);
    exec_header();
    every_metric_is_a_column(families, n);
    choose();
}
