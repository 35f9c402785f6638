/* Matching two reports and judging each change. A row is identified by what was run (family,
 * variant, type, size, parameters, block; for exec reports the kernel and its launch shape),
 * never by its position, so that reports of different sweeps still line up where they
 * overlap. A timing change is significant only beyond the threshold and both runs' noise. */
#include "gpuprof/compare.h"

#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/stats.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- what identifies a row ------------------------------------------------------------- */

static bool utf8_continuation(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

/* A key's value: whole when it fits, else its start and its end around an ellipsis, cut
 * between characters, as the HTML page cuts long names: names that share a long start
 * (namespaces, template arguments) mostly differ at their end (the last arguments). */
static void set_value(char *dst, size_t size, const char *value)
{
    static const char ellipsis[] = "\xe2\x80\xa6";
    const size_t n = strlen(value);
    if (n < size) {
        memcpy(dst, value, n + 1);
        return;
    }
    const size_t room = size - sizeof ellipsis, tail = room / 3;
    size_t head = room - tail;
    while (head > 0 && utf8_continuation(value[head]))
        head--;
    const char *end = value + n - tail;
    while (*end && utf8_continuation(*end))
        end++;
    memcpy(dst, value, head);
    memcpy(dst + head, ellipsis, sizeof ellipsis - 1);
    memcpy(dst + head + sizeof ellipsis - 1, end, strlen(end) + 1);
}

static void add_key(gp_compare_row *row, const char *name, const char *value)
{
    if (row->n_keys >= GP_COMPARE_MAX_KEYS)
        return;
    gp_compare_key *k = &row->keys[row->n_keys++];
    snprintf(k->name, sizeof k->name, "%s", name);
    set_value(k->value, sizeof k->value, value);
}

static void result_keys(gp_compare_row *row, const gp_result *r)
{
    char v[64];
    add_key(row, "family", r->family);
    add_key(row, "variant", r->variant);
    add_key(row, "type", r->type);
    if (r->nx)
        snprintf(v, sizeof v, "%ux%u", r->nx, r->ny);
    else
        snprintf(v, sizeof v, "%llu", (unsigned long long)r->n);
    add_key(row, "size", v);
    for (size_t i = 0; i < r->n_params; i++)
        if (!isnan(r->params[i].value)) {
            snprintf(v, sizeof v, "%.10g", r->params[i].value);
            add_key(row, r->params[i].name, v);
        }
    if (r->block.x == 0)          /* a library call's own shape, not captured */
        snprintf(v, sizeof v, "-");
    else
        snprintf(v, sizeof v, "%ux%ux%u", r->block.x, r->block.y, r->block.z);
    add_key(row, "block", v);
}

static void launch_keys(gp_compare_row *row, const gp_exec_launch *l)
{
    char v[64];
    add_key(row, "kernel", l->kernel);
    snprintf(v, sizeof v, "%ux%ux%u", l->grid.x, l->grid.y, l->grid.z);
    add_key(row, "grid", v);
    snprintf(v, sizeof v, "%ux%ux%u", l->block.x, l->block.y, l->block.z);
    add_key(row, "block", v);
    if (l->code) { /* one of a kernel's codes (its variants): the code is what runs agree on */
        snprintf(v, sizeof v, "%llu", (unsigned long long)l->code);
        add_key(row, "code", v);
    }
}

static bool same_keys(const gp_compare_row *a, const gp_compare_row *b)
{
    if (a->n_keys != b->n_keys)
        return false;
    for (size_t i = 0; i < a->n_keys; i++)
        if (strcmp(a->keys[i].name, b->keys[i].name) != 0 ||
            strcmp(a->keys[i].value, b->keys[i].value) != 0)
            return false;
    return true;
}

/* ---- one side of a row --------------------------------------------------------------------- */

static int copy_metrics(gp_compare_side *s, const gp_metric_value *m, size_t n)
{
    if (n == 0)
        return GP_OK;
    s->metrics = malloc(n * sizeof *s->metrics);
    if (!s->metrics)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    memcpy(s->metrics, m, n * sizeof *m);
    s->n_metrics = n;
    return GP_OK;
}

static int result_side(gp_compare_side *s, const gp_result *r)
{
    s->present = true;
    s->time_ms = r->timing.median_ms;
    s->min_ms = r->timing.min_ms > 0 ? r->timing.min_ms : NAN;
    s->max_ms = r->timing.max_ms > 0 ? r->timing.max_ms : NAN;
    s->noise_pct = r->timing.noise_pct;
    s->gbps = r->gbps;
    return copy_metrics(s, r->metrics.metrics, r->metrics.n_metrics);
}

/* An exec kernel at one shape: the launches that match `row`'s keys. */
typedef struct {
    const gp_exec_info *e;
    bool *used;                  /* launches already in a row */
} launch_pool;

/* The same kernel, shape and code (a code not known matches none: a report without codes,
 * of an older gpuprof, has none). */
static bool launch_matches(const gp_exec_launch *a, const gp_exec_launch *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && memcmp(&a->grid, &b->grid, sizeof a->grid) == 0 &&
           memcmp(&a->block, &b->block, sizeof a->block) == 0 && a->code == b->code;
}

/* The average of each metric over the profiled launches like `like`, keyed as the first
 * profiled one has them. */
static int average_metrics(gp_compare_side *s, const gp_exec_info *e, const gp_exec_launch *like)
{
    const gp_exec_launch *first = NULL;
    for (size_t i = 0; i < e->n_launches && !first; i++)
        if (launch_matches(&e->launches[i], like) && e->launches[i].metrics.n_metrics)
            first = &e->launches[i];
    if (!first)
        return GP_OK;
    GP_TRY(copy_metrics(s, first->metrics.metrics, first->metrics.n_metrics));
    for (size_t m = 0; m < s->n_metrics; m++) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < e->n_launches; i++) {
            const gp_exec_launch *l = &e->launches[i];
            if (!launch_matches(l, like) || m >= l->metrics.n_metrics ||
                !l->metrics.metrics[m].valid ||
                strcmp(l->metrics.metrics[m].key, s->metrics[m].key) != 0)
                continue;
            sum += l->metrics.metrics[m].value;
            n++;
        }
        s->metrics[m].valid = n > 0;
        s->metrics[m].value = n ? sum / (double)n : NAN;
    }
    return GP_OK;
}

/* The median duration and its spread over the timed launches like `like`; marks them used. */
static int exec_side(gp_compare_side *s, launch_pool *pool, const gp_exec_launch *like)
{
    const gp_exec_info *e = pool->e;
    double *d = malloc(2 * e->n_launches * sizeof *d);
    if (!d)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t n = 0;
    for (size_t i = 0; i < e->n_launches; i++) {
        if (!launch_matches(&e->launches[i], like))
            continue;
        pool->used[i] = true;
        if (e->launches[i].duration_ms >= 0)
            d[n++] = e->launches[i].duration_ms;
    }
    s->present = true;
    s->launches = n;
    s->gbps = NAN;
    s->noise_pct = n ? gp_relative_spread(d, n, d + e->n_launches) : NAN;
    s->time_ms = n ? gp_median(d, n) : NAN;
    s->min_ms = n ? d[0] : NAN;          /* gp_median sorted them */
    s->max_ms = n ? d[n - 1] : NAN;
    free(d);
    return average_metrics(s, e, like);
}

/* ---- the verdict ---------------------------------------------------------------------------- */

static double larger(double bound, double noise)
{
    return isnan(noise) || noise <= bound ? bound : noise;
}

static void judge(gp_compare_row *row, double threshold_pct)
{
    if (!row->next.present || !row->base.present) {
        row->verdict = row->base.present ? GP_CHANGE_ONLY_BASE : GP_CHANGE_ONLY_NEW;
        row->change_pct = row->bound_pct = NAN;
        return;
    }
    row->change_pct = 100.0 * (row->next.time_ms - row->base.time_ms) / row->base.time_ms;
    row->bound_pct = larger(larger(threshold_pct, row->base.noise_pct), row->next.noise_pct);
    if (!(fabs(row->change_pct) > row->bound_pct))
        row->verdict = GP_CHANGE_SAME;  /* also when a time is unknown (NAN) */
    else
        row->verdict = row->change_pct > 0 ? GP_CHANGE_SLOWER : GP_CHANGE_FASTER;
}

static const char *const change_names[] = {"same", "faster", "slower", "only-base", "only-new"};

const char *gp_change_name(gp_change c)
{
    return c <= GP_CHANGE_ONLY_NEW ? change_names[c] : "?";
}

/* ---- matching ------------------------------------------------------------------------------- */

static gp_compare_row *new_row(gp_comparison *c)
{
    gp_compare_row *rows = realloc(c->rows, (c->n_rows + 1) * sizeof *rows);
    if (!rows)
        return NULL;
    c->rows = rows;
    memset(&rows[c->n_rows], 0, sizeof *rows);
    return &rows[c->n_rows++];
}

/* The first result of `next` not matched yet with the row's keys, or SIZE_MAX. */
static size_t find_result(const gp_report *next, const bool *used, const gp_compare_row *row)
{
    gp_compare_row probe;   /* only its keys are set: its 12 values of GP_COMPARE_VALUE_LEN
                               are not cleared for each candidate */
    for (size_t i = 0; i < next->n_results; i++) {
        if (used[i])
            continue;
        probe.n_keys = 0;
        result_keys(&probe, &next->results[i]);
        if (same_keys(&probe, row))
            return i;
    }
    return SIZE_MAX;
}

static int match_results(gp_comparison *c, bool *used)
{
    for (size_t i = 0; i < c->base->n_results; i++) {
        gp_compare_row *row = new_row(c);
        if (!row)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        result_keys(row, &c->base->results[i]);
        GP_TRY(result_side(&row->base, &c->base->results[i]));
        const size_t j = find_result(c->next, used, row);
        if (j != SIZE_MAX) {
            used[j] = true;
            GP_TRY(result_side(&row->next, &c->next->results[j]));
        }
    }
    for (size_t j = 0; j < c->next->n_results; j++) {
        if (used[j])
            continue;
        gp_compare_row *row = new_row(c);
        if (!row)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        result_keys(row, &c->next->results[j]);
        GP_TRY(result_side(&row->next, &c->next->results[j]));
    }
    return GP_OK;
}

/* Exec reports: one row per kernel and launch shape, in the order of first launch. */
static int add_exec_rows(gp_comparison *c, launch_pool *own, launch_pool *other, bool base)
{
    for (size_t i = 0; i < own->e->n_launches; i++) {
        if (own->used[i])
            continue;
        const gp_exec_launch *l = &own->e->launches[i];
        gp_compare_row *row = new_row(c);
        if (!row)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        launch_keys(row, l);
        GP_TRY(exec_side(base ? &row->base : &row->next, own, l));
        bool any = false;
        for (size_t k = 0; k < other->e->n_launches && !any; k++)
            any = !other->used[k] && launch_matches(&other->e->launches[k], l);
        if (any)
            GP_TRY(exec_side(base ? &row->next : &row->base, other, l));
    }
    return GP_OK;
}

static int match_launches(gp_comparison *c)
{
    const gp_exec_info *b = &c->base->exec, *n = &c->next->exec;
    launch_pool pb = {b, calloc(b->n_launches + 1, sizeof(bool))};
    launch_pool pn = {n, calloc(n->n_launches + 1, sizeof(bool))};
    int rc = pb.used && pn.used ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (rc == GP_OK)
        rc = add_exec_rows(c, &pb, &pn, true);
    if (rc == GP_OK)
        rc = add_exec_rows(c, &pn, &pb, false);
    free(pb.used);
    free(pn.used);
    return rc;
}

/* A kernel's place in a summary, from 1 (its #N in that report's views), by its name as a
 * row's key holds it (cut where it is long) and code (a variant's); 0: not there. */
static size_t number_in(const gp_exec_kernel *k, size_t nk, const char *kernel, uint64_t code)
{
    char key[GP_COMPARE_VALUE_LEN];
    for (size_t i = 0; i < nk; i++) {
        set_value(key, sizeof key, k[i].kernel);
        if (strcmp(key, kernel) == 0 && (!k[i].variants || k[i].code == code))
            return i + 1;
    }
    return 0;
}

/* The row's code key (0 when it has none). */
static uint64_t code_of(const gp_compare_row *row)
{
    for (size_t i = 0; i < row->n_keys; i++)
        if (strcmp(row->keys[i].name, "code") == 0)
            return strtoull(row->keys[i].value, NULL, 10);
    return 0;
}

/* A report's kernels, in its summary's order, and their labels. */
typedef struct {
    gp_exec_kernel *k;
    size_t nk;
    gp_kernel_labels kl;
} side_kernels;

static int side_open(side_kernels *s, const gp_report *r)
{
    *s = (side_kernels){0};
    GP_TRY(gp_exec_summarize(&r->exec, &s->k, &s->nk));
    return gp_kernel_labels_init(&s->kl, s->k, s->nk, GP_KERNEL_NAME_SHORT);
}

static void side_close(side_kernels *s)
{
    gp_kernel_labels_free(&s->kl);
    gp_exec_summary_free(s->k, s->nk);
}

/* Each exec row's kernel numbered and labelled as the reports' own views do (the base's
 * first), so that a compared row is found in either report. */
static int number_rows(gp_comparison *c)
{
    side_kernels b = {0}, n = {0};
    int rc = side_open(&b, c->base);
    if (rc == GP_OK)
        rc = side_open(&n, c->next);
    for (size_t i = 0; rc == GP_OK && i < c->n_rows; i++) {
        gp_compare_row *row = &c->rows[i];
        const char *kernel = row->n_keys ? row->keys[0].value : "";
        const uint64_t code = code_of(row);
        row->number = number_in(b.k, b.nk, kernel, code);
        row->number_is_new = row->number == 0;
        if (row->number_is_new)
            row->number = number_in(n.k, n.nk, kernel, code);
        if (row->number)
            snprintf(row->label, sizeof row->label, "%s",
                     gp_kernel_labels_label(row->number_is_new ? &n.kl : &b.kl, row->number));
    }
    side_close(&b);
    side_close(&n);
    return rc;
}

static void count_verdicts(gp_comparison *c)
{
    for (size_t i = 0; i < c->n_rows; i++) {
        judge(&c->rows[i], c->threshold_pct);
        size_t *counts[] = {&c->n_same, &c->n_faster, &c->n_slower, &c->n_only_base,
                            &c->n_only_new};
        (*counts[c->rows[i].verdict])++;
    }
}

int gp_compare_reports(const gp_report *base, const char *base_file, const gp_report *next,
                       const char *next_file, double threshold_pct, gp_comparison *out)
{
    memset(out, 0, sizeof *out);
    if (base->is_exec != next->is_exec)
        return gp_fail(GP_ERR_USAGE, "%s is %s report and %s is not: compare needs two of a "
                                     "kind", base->is_exec ? base_file : next_file,
                       "an exec", base->is_exec ? next_file : base_file);
    /* A rank view keeps each kernel's time per rank, not the launches compare matches. */
    if (base->ranks || next->ranks)
        return gp_fail(GP_ERR_USAGE, "%s is a rank view (several ranks' reports in one): "
                                     "compare two runs' reports of one rank",
                       base->ranks ? base_file : next_file);
    *out = (gp_comparison){.base = base, .next = next, .base_file = base_file,
                           .next_file = next_file, .threshold_pct = threshold_pct,
                           .exec = base->is_exec};
    out->same_device = base->has_device == next->has_device &&
                       strcmp(base->device.name, next->device.name) == 0;
    int rc;
    if (out->exec) {
        rc = match_launches(out);
        if (rc == GP_OK)
            rc = number_rows(out);
    } else {
        bool *used = calloc(next->n_results + 1, sizeof *used);
        rc = used ? match_results(out, used) : gp_fail(GP_ERR_RUNTIME, "out of host memory");
        free(used);
    }
    if (rc == GP_OK)
        count_verdicts(out);
    return rc;
}

void gp_comparison_free(gp_comparison *c)
{
    for (size_t i = 0; i < c->n_rows; i++) {
        free(c->rows[i].base.metrics);
        free(c->rows[i].next.metrics);
    }
    free(c->rows);
    memset(c, 0, sizeof *c);
}

double gp_compare_side_value(const gp_compare_side *s, const char *key)
{
    for (size_t i = 0; i < s->n_metrics; i++)
        if (strcmp(s->metrics[i].key, key) == 0)
            return s->metrics[i].valid ? s->metrics[i].value : NAN;
    return NAN;
}

bool gp_compare_metric_changed(const gp_compare_row *row, const char *key,
                               double threshold_pct, double *base, double *next)
{
    const double b = gp_compare_side_value(&row->base, key);
    const double n = gp_compare_side_value(&row->next, key);
    const double change_pct = b != 0 ? 100.0 * (n - b) / fabs(b) : NAN;
    *base = b;
    *next = n;
    return fabs(change_pct) > threshold_pct || (b == 0 && n != 0);
}
