/* CSV output: one header line (unless --no-header), then one row per result of a kernel
 * command, per kernel of an exec report (per launch with --launches; per source line with
 * --source, render/csv_source.c), per variant of list, per compared result. The header of a
 * kernel command or exec report does not move with the options: its own columns, then every
 * parameter of the family, then every metric of the catalogue (render/csv_layout.h), so rows
 * of differing runs append under one header; --csv-columns chooses among them. */
#include "render/csv.h"
#include "render/csv_source.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/csv_layout.h"
#include "render/part.h"
#include "gpuprof/kernel_labels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 128

static void put_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputs(",", out);
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

/* The metric keys outside the catalogue (PerfWorks counters named in --metrics, or metrics
 * of another gpuprof version): a column each after the catalogue's, in order of appearance.
 * Each key is looked at once (an exec report may hold a million launches). */
typedef struct {
    gp_csv_layout *layout;
    gp_hashmap seen;
} other_metrics;

static int add_other_metrics(other_metrics *o, const gp_metric_set *s)
{
    for (size_t i = 0; i < s->n_metrics; i++) {
        bool added = false;
        if (!gp_hashmap_add_str(&o->seen, s->metrics[i].key, &added))
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (added && !gp_find_metric(s->metrics[i].key))
            GP_TRY(gp_csv_layout_metric(o->layout, s->metrics[i].key));
    }
    return GP_OK;
}

/* Those of the sets at `first`, one every `stride` bytes (a result's or a launch's). */
static int add_other_metrics_of(gp_csv_layout *l, const void *first, size_t n, size_t stride)
{
    other_metrics o = {.layout = l};
    gp_hashmap_init(&o.seen, 0);
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = add_other_metrics(&o, (const gp_metric_set *)((const char *)first + i * stride));
    gp_hashmap_free(&o.seen);
    return rc;
}

static bool report_has_family(const gp_report *r, const char *name)
{
    for (size_t i = 0; i < r->n_results; i++)
        if (strcmp(r->results[i].family, name) == 0)
            return true;
    return false;
}

/* A family's parameters, in the order of its descriptors. */
static int add_family_params(gp_csv_layout *l, const gp_family *f)
{
    for (size_t p = 0; p < f->n_params; p++)
        GP_TRY(gp_csv_layout_param(l, f->params[p].name));
    return GP_OK;
}

/* The columns of a report of kernel commands: its own, the parameters of every family it
 * holds (in the family table's order: a report of one family has its command's header),
 * any parameter the table does not know, the catalogue, any other metric. */
static int report_layout(gp_csv_layout *l, const gp_report *r)
{
    GP_TRY(gp_part_csv_layout(l, &gp_results_part, NULL));
    size_t n;
    const gp_family *families = gp_family_table(&n);
    for (size_t f = 0; f < n; f++)
        if (report_has_family(r, families[f].name))
            GP_TRY(add_family_params(l, &families[f]));
    for (size_t i = 0; i < r->n_results; i++)
        for (size_t p = 0; p < r->results[i].n_params; p++)
            GP_TRY(gp_csv_layout_param(l, r->results[i].params[p].name));
    GP_TRY(gp_csv_layout_catalogue(l));
    return r->n_results ? add_other_metrics_of(l, &r->results[0].metrics, r->n_results,
                                               sizeof r->results[0])
                        : GP_OK;
}

static bool writes_header(const gp_render_options *o)
{
    return !o || !o->no_header;
}

static const char *chosen_columns(const gp_render_options *o)
{
    return o ? o->csv_columns : NULL;
}

/* A kernel command's report, a row per result as it becomes final. The columns are chosen
 * at the first row: every result is described before it runs, and the metrics of the final
 * ones are those of the run's profiler, which the later ones share. */
typedef struct {
    FILE *out;
    const gp_report *r;
    gp_render_options o;
    gp_csv_layout layout;
    bool started;
    size_t next;               /* the next result to write */
} csv_stream;

static int csv_stream_open(FILE *out, const gp_report *r, const gp_render_options *o,
                           bool ahead, void **state)
{
    (void)ahead; /* the columns do not depend on the values */
    csv_stream *s = calloc(1, sizeof *s);
    if (!s)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *s = (csv_stream){.out = out, .r = r, .o = o ? *o : (gp_render_options){0}};
    *state = s;
    return GP_OK;
}

static int start(csv_stream *s)
{
    if (s->o.source_rows) { /* --source: the per-line view's rows instead */
        gp_csv_source_header(s->out, &s->o);
        s->started = true;
        return GP_OK;
    }
    GP_TRY(report_layout(&s->layout, s->r));
    GP_TRY(gp_csv_layout_choose(&s->layout, chosen_columns(&s->o)));
    if (writes_header(&s->o))
        gp_csv_layout_header(s->out, &s->layout);
    s->started = true;
    return GP_OK;
}

static int csv_stream_result(void *state, size_t i)
{
    csv_stream *s = state;
    for (; s->next <= i; s->next++) {
        if (!s->started)
            GP_TRY(start(s));
        const gp_result *res = &s->r->results[s->next];
        if (s->o.source_rows) {
            gp_csv_source_result(s->out, res);
            continue;
        }
        const gp_result_row row = {.result = res};
        const gp_results_context ctx = {.r = s->r};
        gp_part_csv_layout_row_with(s->out, &s->layout, &gp_results_part, &row, &ctx,
                                    &(gp_csv_row){.result = res, .metrics = &res->metrics});
    }
    fflush(s->out); /* kept by a run cut short, in a pipe or a file too */
    return GP_OK;
}

static int csv_stream_close(void *state, bool complete)
{
    csv_stream *s = state;
    const int rc = complete && !s->started ? start(s) : GP_OK; /* no result: the header */
    gp_csv_layout_free(&s->layout);
    free(s);
    return rc;
}

const gp_stream_view gp_csv_stream = {csv_stream_open, csv_stream_result, csv_stream_close};

int gp_csv_list(FILE *out, const gp_render_options *o)
{
    gp_variant_row *rows;
    size_t n;
    GP_TRY(gp_variant_rows(&rows, &n));
    if (!o || !o->no_header)
        gp_part_csv_header(out, &gp_variant_part, NULL);
    for (size_t i = 0; i < n; i++)
        gp_part_csv_row(out, &gp_variant_part, &rows[i], NULL);
    free(rows);
    return GP_OK;
}

/* ---- compare: a row per result, both sides' every metric ------------------------------- */

/* Every metric key over both sides of every row, in order of first appearance. */
/* compare's metric columns: every metric of the catalogue, in its order, so the header is
 * the same whatever the two reports measured; then any other key they hold (PerfWorks
 * counters), in order of appearance. */
static size_t compare_metric_keys(const gp_comparison *c, const char **keys)
{
    size_t n = 0, n_cat;
    const gp_metric_def *cat = gp_metric_catalogue(&n_cat);
    for (size_t i = 0; i < n_cat; i++)
        n = add_unique(keys, n, cat[i].key);
    for (size_t r = 0; r < c->n_rows; r++) {
        const gp_compare_side *sides[2] = {&c->rows[r].base, &c->rows[r].next};
        for (size_t s = 0; s < 2; s++)
            n = add_metric_keys(keys, n, sides[s]->metrics, sides[s]->n_metrics);
    }
    return n;
}

static void put_csv_row(FILE *out, const gp_comparison *c, const gp_compare_row *row,
                        const char **keys, size_t n)
{
    gp_part_csv_cells(out, &gp_compare_part, row, c);
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
        gp_part_csv_keys(out, &gp_compare_part, c);
        for (size_t k = 0; k < n; k++)
            fprintf(out, ",base_%s,new_%s", keys[k], keys[k]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < c->n_rows; i++)
        put_csv_row(out, c, &c->rows[i], keys, n);
    return GP_OK;
}

/* ---- gpuprof exec: a row per kernel of each program, or per launch --------------------- */

/* The columns of exec's rows: a launch's part's or a kernel's, and between them a value per
 * metric (per kernel: each metric's minimum, average and maximum over its profiled launches),
 * then any metric outside the catalogue (PerfWorks counters named in --metrics). The kernels'
 * columns are also the copies', memsets' and unified memory's. */
static int exec_layout(gp_csv_layout *l, bool per_launch, const gp_exec_info *e)
{
    const gp_part *t = per_launch ? &gp_launch_part : &gp_kernels_part;
    const size_t at = per_launch ? GP_LAUNCH_CSV_METRICS_AT : GP_KERNELS_CSV_METRICS_AT;
    l->stats = !per_launch;
    GP_TRY(gp_part_csv_layout_from(l, t, NULL, 0, at));
    GP_TRY(gp_csv_layout_catalogue(l));
    if (e && e->n_launches)
        GP_TRY(add_other_metrics_of(l, &e->launches[0].metrics, e->n_launches,
                                    sizeof e->launches[0]));
    return gp_part_csv_layout_from(l, t, NULL, at, SIZE_MAX);
}

/* The programs the rows came from: the report's own, or each source's of a merged report
 * (the last: launches whose source a merge of an older gpuprof did not record). */
typedef struct {
    char **text;
    size_t n;
} programs;

static void programs_free(programs *p)
{
    for (size_t i = 0; p->text && i < p->n; i++)
        free(p->text[i]);
    free(p->text);
}

static int programs_of(const gp_report *r, programs *p)
{
    p->n = r->n_sources ? r->n_sources + 1 : 1;
    p->text = calloc(p->n, sizeof *p->text);
    if (!p->text)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < p->n; i++) {
        const gp_report_source *s = i < r->n_sources ? &r->sources[i] : NULL;
        p->text[i] = !r->n_sources ? gp_command_line_text(r->exec.argv, r->exec.argc)
                     : s           ? gp_command_line_text(s->program, s->program_len)
                                   : gp_command_line_text(NULL, 0);
        if (!p->text[i])
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    return GP_OK;
}

/* A row of a part under another's header (exec's copies and unified memory under the
 * kernels', a copy among the launches): each of its CSV columns in the header's column of its
 * key, the others empty; the program in source. */
static void write_part_row(FILE *out, const gp_csv_layout *l, const gp_part *header,
                           const gp_part *t, const void *part_row, const char *program)
{
    size_t cols[GP_PART_MAX_COLUMNS];
    const size_t n = gp_part_columns(header, GP_VIEW_CSV, NULL, cols);
    const char *text[GP_PART_MAX_COLUMNS];
    char buf[GP_PART_MAX_COLUMNS][GP_PART_CELL_LEN], number[GP_PART_MAX_COLUMNS][64];
    for (size_t k = 0; k < n; k++) {
        const char *key = header->columns[cols[k]].key;
        text[k] = strcmp(key, "source") == 0
                      ? program
                      : gp_part_csv_cell(t, key, part_row, NULL, buf[k], &number[k]);
        text[k] = text[k] ? text[k] : "";
    }
    gp_csv_layout_row(out, l, &(gp_csv_row){.fixed = text});
}

/* The program of the rows not kept per source (copies, memsets, unified memory): the
 * report's, or the one all a merged report's sources ran; else none. */
static const char *activities_program(const gp_report *r, const programs *p)
{
    return r->n_sources <= 1 ? p->text[0] : "";
}

/* A row per launch, and per copy and memset among them in the order the program issued them,
 * as the text lists them (kind says which). */
static void write_launches(FILE *out, const gp_csv_layout *l, const gp_report *r,
                           const programs *p, const gp_kernel_labels *kl)
{
    const gp_launches_context ctx = {.r = r, .labels = kl,
                                     .programs = (const char *const *)p->text};
    const gp_exec_info *e = &r->exec;
    size_t next = 0;
    for (size_t i = 0; i <= e->n_launches; i++) {
        const gp_exec_launch *launch = i < e->n_launches ? &e->launches[i] : NULL;
        for (; next < e->n_activities && gp_activity_issued_before(&e->activities[next], launch);
             next++)
            write_part_row(out, l, &gp_launch_part, &gp_activities_part, &e->activities[next],
                           activities_program(r, p));
        if (launch)
            gp_part_csv_layout_row_with(out, l, &gp_launch_part, launch, &ctx,
                                        &(gp_csv_row){.metrics = &launch->metrics});
    }
}

/* One program's kernels, the most time first: summarized over its own launches. */
static int write_program_kernels(FILE *out, const gp_csv_layout *l, const programs *p,
                                 size_t program, const gp_exec_info *own,
                                 const gp_kernel_labels *kl)
{
    if (own->n_launches == 0)
        return GP_OK;
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    GP_TRY(gp_exec_summarize(own, &k, &nk));
    const gp_kernels_context ctx = {.kernels = k, .labels = kl, .program = p->text[program]};
    for (size_t i = 0; i < nk; i++)
        gp_part_csv_layout_row_with(out, l, &gp_kernels_part, &k[i], &ctx,
                                    &(gp_csv_row){.kernel = &k[i]});
    gp_exec_summary_free(k, nk);
    return GP_OK;
}

/* The copies and memsets by kind, then by kind and host memory, then the unified-memory
 * counters, after the kernels as nvprof listed them. Their program: the report's, or the one
 * all a merged report's sources ran, else none (activities are not kept per source). */
static int write_activities(FILE *out, const gp_csv_layout *l, const gp_report *r,
                            const programs *p)
{
    const char *program = activities_program(r, p);
    gp_activity_tables t;
    const int rc = gp_exec_activity_tables(&r->exec, &t);
    for (size_t i = 0; rc == GP_OK && i < t.n + t.n_host; i++)
        write_part_row(out, l, &gp_kernels_part, &gp_copies_part,
                       i < t.n ? &t.rows[i] : &t.host[i - t.n], program);
    gp_activity_tables_free(&t);
    gp_um_row um[GP_UM_COUNTERS];
    const size_t n_um = rc == GP_OK ? gp_unified_rows(&r->exec, um) : 0;
    for (size_t i = 0; i < n_um; i++)
        write_part_row(out, l, &gp_kernels_part, &gp_unified_part, &um[i], program);
    return rc;
}

/* The launches grouped by program, in one pass, in their order within each program (shallow
 * copies: read, never freed); first[g] is where program g's begin, first[p->n] the end. */
static void group_by_program(const gp_report *r, const programs *p, gp_exec_launch *grouped,
                             size_t *first)
{
    memset(first, 0, (p->n + 1) * sizeof *first);
    for (size_t i = 0; i < r->exec.n_launches; i++)
        first[gp_launch_program(r, &r->exec.launches[i]) + 1]++;
    for (size_t g = 0; g < p->n; g++)
        first[g + 1] += first[g];
    size_t *next = first + p->n + 1;  /* the second half of the caller's array */
    memcpy(next, first, p->n * sizeof *first);
    for (size_t i = 0; i < r->exec.n_launches; i++)
        grouped[next[gp_launch_program(r, &r->exec.launches[i])]++] = r->exec.launches[i];
}

static int write_kernels(FILE *out, const gp_csv_layout *l, const gp_report *r,
                         const programs *p, const gp_kernel_labels *kl)
{
    gp_exec_launch *grouped = malloc((r->exec.n_launches ? r->exec.n_launches : 1) *
                                     sizeof *grouped);
    size_t *first = malloc((2 * p->n + 1) * sizeof *first);
    int rc = grouped && first ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (rc == GP_OK)
        group_by_program(r, p, grouped, first);
    for (size_t g = 0; rc == GP_OK && g < p->n; g++) {
        const gp_exec_info own = {.launches = grouped + first[g],
                                  .n_launches = first[g + 1] - first[g]};
        rc = write_program_kernels(out, l, p, g, &own, kl);
    }
    free(first);
    free(grouped);
    return rc;
}

int gp_csv_exec(FILE *out, const gp_report *r, const gp_render_options *o)
{
    if (o && o->source_rows) /* the per-line view's rows instead */
        return gp_csv_exec_source(out, r, o);
    if (o && o->by_range) /* or the ranges' */
        return gp_csv_exec_ranges(out, r, o);
    if (o && o->stall_rows) /* or the warp stalls' */
        return gp_csv_exec_stalls(out, r, o);
    const bool per_launch = o && o->launches;
    gp_csv_layout l = {0};
    programs p = {0};
    int rc = exec_layout(&l, per_launch, &r->exec);
    if (rc == GP_OK)
        rc = gp_csv_layout_choose(&l, chosen_columns(o));
    if (rc == GP_OK)
        rc = programs_of(r, &p);
    if (rc == GP_OK && writes_header(o))
        gp_csv_layout_header(out, &l);
    /* Kernels are numbered by the report's whole summary, per program rows or not, as the
     * text numbers them. */
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    gp_kernel_labels kl = {0};
    if (rc == GP_OK)
        rc = gp_exec_summarize(&r->exec, &k, &nk);
    if (rc == GP_OK)
        rc = gp_kernel_labels_init(&kl, k, nk, GP_KERNEL_NAME_SHORT);
    if (rc == GP_OK && per_launch)
        write_launches(out, &l, r, &p, &kl);
    else if (rc == GP_OK)
        rc = write_kernels(out, &l, r, &p, &kl);
    if (rc == GP_OK && !per_launch)
        rc = write_activities(out, &l, r, &p);
    gp_kernel_labels_free(&kl);
    gp_exec_summary_free(k, nk);
    programs_free(&p);
    gp_csv_layout_free(&l);
    return rc;
}

/* ---- --csv-columns checked before anything runs --------------------------------------- */

/* PerfWorks counters the request names: their columns follow the catalogue's. */
static int add_requested_counters(gp_csv_layout *l, const gp_metrics_request *m)
{
    for (size_t i = 0; m->kind == GP_METRICS_LIST && i < m->n_names; i++)
        if (!gp_find_metric(m->names[i]))
            GP_TRY(gp_csv_layout_metric(l, m->names[i]));
    return GP_OK;
}

int gp_csv_check_columns(const gp_request *req)
{
    if (!req->csv_columns)
        return GP_OK;
    gp_csv_layout l = {0};
    int rc = GP_OK;
    if (req->family) {
        rc = gp_part_csv_layout(&l, &gp_results_part, NULL);
        if (rc == GP_OK)
            rc = add_family_params(&l, req->family);
        if (rc == GP_OK)
            rc = gp_csv_layout_catalogue(&l);
    } else if (req->by_range)
        rc = gp_part_csv_layout(&l, &gp_ranges_part, NULL);
    else
        rc = exec_layout(&l, req->launches, NULL);
    if (rc == GP_OK)
        rc = add_requested_counters(&l, &req->metrics);
    if (rc == GP_OK)
        rc = gp_csv_layout_choose(&l, req->csv_columns);
    gp_csv_layout_free(&l);
    return rc;
}
