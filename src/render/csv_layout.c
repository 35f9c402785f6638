/* The columns of a CSV document (render/csv_layout.h): the list every command's header is
 * made of, --csv-columns' choice among them, and the header and rows they give. */
#include "render/csv_layout.h"

#include "gpuprof/metrics.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "gpuprof/suggest.h"
#include "render/cells.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most names --csv-columns lists: more than any layout has, so a repeat is the error. */
#define MAX_CHOSEN 4096

/* The three columns of a metric under stats, in the order they are written. */
static const struct {
    gp_csv_column_kind kind;
    const char *suffix;
} stat_columns[] = {
    {GP_CSV_METRIC_MIN, "_min"}, {GP_CSV_METRIC_AVG, "_avg"}, {GP_CSV_METRIC_MAX, "_max"},
};
#define N_STATS (sizeof stat_columns / sizeof stat_columns[0])

void gp_csv_layout_free(gp_csv_layout *l)
{
    free(l->columns);
    free(l->chosen);
    memset(l, 0, sizeof *l);
}

static const gp_csv_column *find_column(const gp_csv_layout *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->columns[i].name, name) == 0)
            return &l->columns[i];
    return NULL;
}

static int add_column(gp_csv_layout *l, const char *name, gp_csv_column_kind kind, size_t fixed,
                      const char *key)
{
    gp_csv_column *c = gp_append_zeroed(&l->columns, &l->n, &l->capacity, sizeof *c);
    if (!c)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    c->fixed = fixed;
    snprintf(c->key, sizeof c->key, "%s", key ? key : "");
    return GP_OK;
}

int gp_csv_layout_fixed(gp_csv_layout *l, const char *const *names, size_t n)
{
    return gp_csv_layout_fixed_from(l, names, 0, n);
}

int gp_csv_layout_fixed_from(gp_csv_layout *l, const char *const *names, size_t first,
                             size_t end)
{
    for (size_t i = first; i < end; i++)
        GP_TRY(add_column(l, names[i], GP_CSV_FIXED, i, NULL));
    return GP_OK;
}

static bool has_key(const gp_csv_layout *l, gp_csv_column_kind kind, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->columns[i].kind == kind && strcmp(l->columns[i].key, key) == 0)
            return true;
    return false;
}

int gp_csv_layout_param(gp_csv_layout *l, const char *name)
{
    if (has_key(l, GP_CSV_PARAM, name))
        return GP_OK;
    char column[GP_NAME_LEN + 8];
    snprintf(column, sizeof column, "%s%s", name, find_column(l, name) ? "_param" : "");
    return add_column(l, column, GP_CSV_PARAM, 0, name);
}

int gp_csv_layout_metric(gp_csv_layout *l, const char *key)
{
    if (has_key(l, l->stats ? GP_CSV_METRIC_AVG : GP_CSV_METRIC, key))
        return GP_OK;
    if (!l->stats)
        return add_column(l, key, GP_CSV_METRIC, 0, key);
    for (size_t s = 0; s < N_STATS; s++) {
        char column[GP_NAME_LEN + 8];
        snprintf(column, sizeof column, "%s%s", key, stat_columns[s].suffix);
        GP_TRY(add_column(l, column, stat_columns[s].kind, 0, key));
    }
    return GP_OK;
}

int gp_csv_layout_catalogue(gp_csv_layout *l)
{
    size_t n;
    const gp_metric_def *catalogue = gp_metric_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        GP_TRY(gp_csv_layout_metric(l, catalogue[i].key));
    return GP_OK;
}

/* ---- --csv-columns --------------------------------------------------------------------- */

/* A PerfWorks counter named as a column: it holds "__", and under stats ends in a suffix. */
static bool counter_column(const gp_csv_layout *l, const char *name, gp_csv_column_kind *kind,
                           char *key, size_t key_len)
{
    const size_t len = strlen(name);
    if (!strstr(name, "__") || len >= key_len)
        return false;
    if (!l->stats) {
        *kind = GP_CSV_METRIC;
        snprintf(key, key_len, "%s", name);
        return true;
    }
    for (size_t s = 0; s < N_STATS; s++) {
        const size_t n = strlen(stat_columns[s].suffix);
        if (len > n && strcmp(name + len - n, stat_columns[s].suffix) == 0) {
            *kind = stat_columns[s].kind;
            snprintf(key, key_len, "%.*s", (int)(len - n), name);
            return true;
        }
    }
    return false;
}

/* A metric named without _min, _avg or _max where the rows have all three: its average. */
static const char *average_of(const gp_csv_layout *l, const char *name)
{
    char column[GP_NAME_LEN + 8];
    snprintf(column, sizeof column, "%s_avg", name);
    const gp_csv_column *c = l->stats ? find_column(l, column) : NULL;
    return c ? c->name : NULL;
}

static int unknown_column(const gp_csv_layout *l, const char *name)
{
    const char **names = malloc((l->n ? l->n : 1) * sizeof *names);
    if (!names)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < l->n; i++)
        names[i] = l->columns[i].name;
    char hint[GP_SUGGEST_MAX_LEN + 32];
    const char *average = average_of(l, name);
    gp_suggest_hint(hint, sizeof hint, "", name, average ? &average : names,
                    average ? 1 : l->n);
    free(names);
    return gp_fail(GP_ERR_USAGE, "unknown column '%s' in --csv-columns%s (the names are those "
                                 "of the full CSV header)", name, hint);
}

/* One name of the list: its column's index, added for a PerfWorks counter. */
static int choose_one(gp_csv_layout *l, const char *name, size_t *index)
{
    const gp_csv_column *c = find_column(l, name);
    if (!c) {
        gp_csv_column_kind kind;
        char key[GP_NAME_LEN];
        if (!counter_column(l, name, &kind, key, sizeof key))
            return unknown_column(l, name);
        GP_TRY(add_column(l, name, kind, 0, key));
        c = &l->columns[l->n - 1];
    }
    *index = (size_t)(c - l->columns);
    for (size_t i = 0; i < l->n_chosen; i++)
        if (l->chosen[i] == *index)
            return gp_fail(GP_ERR_USAGE, "column '%s' is listed twice in --csv-columns", name);
    return GP_OK;
}

static int choose_all(gp_csv_layout *l)
{
    l->chosen = malloc((l->n ? l->n : 1) * sizeof *l->chosen);
    if (!l->chosen)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < l->n; i++)
        l->chosen[i] = i;
    l->n_chosen = l->n;
    return GP_OK;
}

int gp_csv_layout_choose(gp_csv_layout *l, const char *list)
{
    free(l->chosen);
    l->chosen = NULL;
    l->n_chosen = 0;
    if (!list)
        return choose_all(l);
    const size_t list_len = strlen(list);
    if (list_len == 0 || list[0] == ',' || list[list_len - 1] == ',' || strstr(list, ",,"))
        return gp_fail(GP_ERR_USAGE, "empty column name in --csv-columns=%s", list);
    l->chosen = malloc(MAX_CHOSEN * sizeof *l->chosen);
    if (!l->chosen)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[GP_NAME_LEN + 8];
        if (len >= sizeof name)
            return gp_fail(GP_ERR_USAGE, "column name %zu of --csv-columns is too long",
                           l->n_chosen + 1);
        if (l->n_chosen == MAX_CHOSEN)
            return gp_fail(GP_ERR_USAGE, "too many columns in --csv-columns (at most %d)",
                           MAX_CHOSEN);
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        GP_TRY(choose_one(l, name, &l->chosen[l->n_chosen]));
        l->n_chosen++;
        if (!comma)
            return GP_OK;
        p = comma + 1;
    }
}

/* ---- header and rows ------------------------------------------------------------------- */

void gp_csv_number(char *buf, size_t len, double v)
{
    if (isfinite(v))
        snprintf(buf, len, "%.10g", v);
    else
        snprintf(buf, len, "%s", "");
}

void gp_csv_layout_header(FILE *out, const gp_csv_layout *l)
{
    for (size_t i = 0; i < l->n_chosen; i++)
        gp_csv_field(out, l->columns[l->chosen[i]].name, i == 0);
    fputc('\n', out);
}

static const gp_metric_value *stat_of(const gp_exec_kernel *k, gp_csv_column_kind kind,
                                      const char *key)
{
    const gp_metric_stats *s = k ? gp_kernel_metric(k, key) : NULL;
    if (!s)
        return NULL;
    return kind == GP_CSV_METRIC_MIN ? &s->min : kind == GP_CSV_METRIC_MAX ? &s->max : &s->average;
}

/* A computed cell's text: a number, or "" where the row has none. */
static void computed_cell(char *buf, size_t len, const gp_csv_column *c, const gp_csv_row *row)
{
    double v = NAN;
    if (c->kind == GP_CSV_PARAM) {
        const gp_param *p = row->result ? gp_result_param(row->result, c->key) : NULL;
        v = p ? p->value : NAN;
    } else {
        const gp_metric_value *m = c->kind == GP_CSV_METRIC
                                       ? gp_metric_set_value(row->metrics, c->key)
                                       : stat_of(row->kernel, c->kind, c->key);
        v = m && m->valid ? m->value : NAN;
    }
    gp_csv_number(buf, len, v);
}

void gp_csv_layout_row(FILE *out, const gp_csv_layout *l, const gp_csv_row *row)
{
    for (size_t i = 0; i < l->n_chosen; i++) {
        const gp_csv_column *c = &l->columns[l->chosen[i]];
        char number[48];
        if (c->kind == GP_CSV_FIXED) {
            gp_csv_field(out, row->fixed[c->fixed], i == 0);
            continue;
        }
        computed_cell(number, sizeof number, c, row);
        gp_csv_field(out, number, i == 0);
    }
    fputc('\n', out);
}
