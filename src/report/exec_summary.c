/* The per-kernel summary of an exec report: launches, times (the total: every launch at the
 * mean of the timed ones) and each metric's minimum, average and maximum over the launches
 * that have it. Where the launches rotated over one-pass groups, a metric whose inputs no
 * single launch collected (SASS sectors over the duration, say) is derived from each input's
 * mean over the launches that collected it. */
#include "gpuprof/exec_summary.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A counter's sum over a kernel's launches that collected it. */
typedef struct {
    const char *name;            /* points into a launch's metric set */
    double sum;
    size_t launches;
} counter_sum;

/* The summary's working state beside each kernel: its counters' sums. */
typedef struct {
    counter_sum *sums;
    size_t n_sums;
} kernel_counters;

bool gp_exec_any_estimated(const gp_exec_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (k[i].total_estimated)
            return true;
    return false;
}

size_t gp_exec_profiled(const gp_exec_info *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        n += e->launches[i].profiled;
    return n;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (double)(1ull << 30);
}

bool gp_exec_describe_footprint(const gp_profiler_info *p, char *buf, size_t len)
{
    const gp_auto_footprint *f = &p->footprint;
    if (!f->known)
        return false;
    char why[96];
    if (f->held > f->free)
        snprintf(why, sizeof why, "which does not fit in the %.1f GiB free", gib(f->free));
    else
        snprintf(why, sizeof why, "over the %.1f GiB auto saves", gib(f->budget));
    if (f->replays)
        snprintf(buf, len, "--replay=auto replayed each kernel's first launch: the %.1f GiB of "
                 "device memory in use, which a replay saves, fit in the %.1f GiB free and "
                 "within the %.1f GiB auto saves", gib(f->held), gib(f->free), gib(f->budget));
    else
        snprintf(buf, len, "--replay=auto did not replay: a replay saves the %.1f GiB of device "
                 "memory in use, %s; each launch collected one pass, as under rotate, and "
                 "--replay=kernel would save and restore %.1f GiB at every profiled launch",
                 gib(f->held), why, gib(f->held));
    return true;
}

bool gp_exec_rotated(const gp_profiler_info *p)
{
    return p->pass_groups > 0 && p->has_replay;
}

void gp_exec_describe_passes(const gp_profiler_info *p, uint32_t passes, char *buf, size_t len)
{
    int n = 0;
    for (; passes; passes &= passes - 1)
        n++;
    snprintf(buf, len, "%d/%d", n, p->pass_groups);
}

void gp_exec_describe_replay(const gp_profiler_info *p, char *buf, size_t len)
{
    const int g = p->pass_groups;
    if (!gp_exec_rotated(p))
        snprintf(buf, len, "%s", p->passes == 1 ? "one pass, no replay" : "kernel replay");
    else if (p->replay == GP_EXEC_REPLAY_AUTO && p->footprint.known && !p->footprint.replays)
        snprintf(buf, len, "no replay, for the device memory held: one of %d passes per "
                 "launch", g);
    else if (p->replay == GP_EXEC_REPLAY_AUTO)
        snprintf(buf, len, "kernel replay of each kernel's first launch, one of %d passes per "
                 "later launch", g);
    else if (p->replay == GP_EXEC_REPLAY_APPLICATION)
        snprintf(buf, len, "application replay: the program run %d times, one pass each", g);
    else
        snprintf(buf, len, "no replay: one of %d passes per launch", g);
}

static gp_exec_kernel *entry_for(gp_exec_kernel *k, size_t *n, const gp_exec_launch *l)
{
    for (size_t i = 0; i < *n; i++)
        if (k[i].variant == l->variant && strcmp(k[i].kernel, l->kernel) == 0)
            return &k[i];
    gp_exec_kernel *e = &k[(*n)++];
    memset(e, 0, sizeof *e);
    e->kernel = l->kernel;
    e->variant = l->variant;
    e->variants = l->variants;
    e->code = l->code;
    e->min_ms = INFINITY;
    return e;
}

static gp_metric_stats *stats_for(gp_exec_kernel *k, const gp_metric_value *m)
{
    for (size_t i = 0; i < k->n_metrics; i++)
        if (strcmp(k->metrics[i].average.key, m->key) == 0)
            return &k->metrics[i];
    gp_metric_stats *grown = realloc(k->metrics, (k->n_metrics + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    k->metrics = grown;
    gp_metric_stats *s = &k->metrics[k->n_metrics++];
    memset(s, 0, sizeof *s);
    for (gp_metric_value *v = &s->min; v <= &s->max; v++) {
        snprintf(v->key, sizeof v->key, "%s", m->key);
        snprintf(v->unit, sizeof v->unit, "%s", m->unit);
        snprintf(v->why, sizeof v->why, "%s", m->why);
    }
    return s;
}

static int add_metrics(gp_exec_kernel *k, const gp_metric_set *set)
{
    for (size_t i = 0; i < set->n_metrics; i++) {
        const gp_metric_value *m = &set->metrics[i];
        gp_metric_stats *s = stats_for(k, m);
        if (!s)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (m->note[0] && !s->average.note[0]) /* the kernel's: any launch's note says it */
            for (gp_metric_value *v = &s->min; v <= &s->max; v++)
                snprintf(v->note, sizeof v->note, "%s", m->note);
        if (!m->valid) {
            s->undefined = s->undefined || strcmp(m->why, GP_NOT_IN_THIS_PASS) != 0;
            continue;
        }
        s->min.value = s->launches ? fmin(s->min.value, m->value) : m->value;
        s->max.value = s->launches ? fmax(s->max.value, m->value) : m->value;
        s->average.value += m->value; /* the sum until finish() */
        s->launches++;
        s->min.valid = s->average.valid = s->max.valid = true;
    }
    return GP_OK;
}

static int add_counters(kernel_counters *kc, const gp_metric_set *set)
{
    for (size_t i = 0; i < set->n_counters; i++) {
        const gp_counter *c = &set->counters[i];
        if (isnan(c->value))
            continue;
        size_t j = 0;
        while (j < kc->n_sums && strcmp(kc->sums[j].name, c->name) != 0)
            j++;
        if (j == kc->n_sums) {
            counter_sum *grown = realloc(kc->sums, (kc->n_sums + 1) * sizeof *grown);
            if (!grown)
                return gp_fail(GP_ERR_RUNTIME, "out of host memory");
            kc->sums = grown;
            kc->sums[kc->n_sums++] = (counter_sum){c->name, 0.0, 0};
        }
        kc->sums[j].sum += c->value;
        kc->sums[j].launches++;
    }
    return GP_OK;
}

static int add_launch(gp_exec_kernel *k, kernel_counters *kc, const gp_exec_launch *l)
{
    k->calls++;
    if (l->duration_ms >= 0) {
        k->timed++;
        k->total_ms += l->duration_ms; /* the timed launches' sum until finish_times() */
        k->min_ms = fmin(k->min_ms, l->duration_ms);
        k->max_ms = fmax(k->max_ms, l->duration_ms);
    }
    if (!l->profiled)
        return GP_OK;
    k->profiled++;
    k->passes |= l->passes;
    GP_TRY(add_metrics(k, &l->metrics));
    return l->passes ? add_counters(kc, &l->metrics) : GP_OK;
}

/* ---- metrics of launches of different passes ----------------------------------------------- */

/* A catalogue metric no launch had whole, from its inputs' means; false when an input was
 * collected by none of the kernel's launches. */
static bool combine(gp_metric_stats *s, const kernel_counters *kc)
{
    const gp_metric_def *m = gp_find_metric(s->average.key);
    if (!m || kc->n_sums == 0)
        return false;
    const char *names[GP_METRIC_MAX_INPUTS];
    double means[GP_METRIC_MAX_INPUTS];
    size_t fewest = SIZE_MAX;
    for (size_t k = 0; k < m->n_inputs; k++) {
        size_t j = 0;
        while (j < kc->n_sums && strcmp(kc->sums[j].name, m->inputs[k]) != 0)
            j++;
        if (j == kc->n_sums)
            return false;
        names[k] = m->inputs[k];
        means[k] = kc->sums[j].sum / (double)kc->sums[j].launches;
        fewest = kc->sums[j].launches < fewest ? kc->sums[j].launches : fewest;
    }
    const char *why = NULL;
    double v = NAN;
    const bool valid = gp_metric_derive(m, names, means, m->n_inputs, &v, &why);
    s->combined = true;
    s->launches = fewest;
    s->average.valid = valid;
    s->average.value = valid ? v : 0.0;
    snprintf(s->average.why, sizeof s->average.why, "%s", valid ? "" : why ? why : "undefined");
    snprintf(s->min.why, sizeof s->min.why, "combined over launches of different passes");
    snprintf(s->max.why, sizeof s->max.why, "combined over launches of different passes");
    return true;
}

/* Whether a metric's inputs are all counted from the kernel's instructions (SASS
 * counters): equal for every launch of one code with the same arguments. */
static bool instruction_determined(const char *key)
{
    const gp_metric_def *m = gp_find_metric(key);
    for (size_t k = 0; m && k < m->n_inputs; k++)
        if (!gp_counter_is_sass(m->inputs[k]))
            return false;
    return m != NULL;
}

/* An instruction-determined metric of a kernel whose counts vary says so: its range is the
 * point, not noise. */
static void note_varying(const gp_exec_kernel *k, gp_metric_stats *s)
{
    if (!k->varying[0] || !s->launches || !instruction_determined(s->average.key) ||
        s->average.note[0])
        return;
    for (gp_metric_value *v = &s->min; v <= &s->max; v++)
        snprintf(v->note, sizeof v->note, "%s from %.0f to %.0f %s", k->varying,
                 k->varying_min, k->varying_max, GP_VARYING_NOTE);
}

static void finish_metrics(gp_exec_kernel *k, const kernel_counters *kc)
{
    for (size_t m = 0; m < k->n_metrics; m++) {
        gp_metric_stats *s = &k->metrics[m];
        if (s->launches)
            s->average.value /= (double)s->launches;
        else if (k->passes && !s->undefined)
            combine(s, kc);
        note_varying(k, s);
    }
}

/* ---- counts that vary between launches of one code and shape --------------------------- */

static bool has_sass(const gp_exec_launch *l)
{
    for (size_t i = 0; i < l->metrics.n_counters; i++) {
        const gp_counter *c = &l->metrics.counters[i];
        if (gp_counter_is_sass(c->name) && !isnan(c->value))
            return true;
    }
    return false;
}

static double counter_of(const gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return s->counters[i].value;
    return NAN;
}

/* The first instruction-determined counter two launches of one shape both have and differ
 * in becomes the kernel's `varying`, its range widened by both values. */
static void compare_counts(gp_exec_kernel *k, const gp_exec_launch *first,
                           const gp_exec_launch *l)
{
    for (size_t i = 0; i < l->metrics.n_counters; i++) {
        const gp_counter *c = &l->metrics.counters[i];
        const double was = counter_of(&first->metrics, c->name);
        if (!gp_counter_is_sass(c->name) || isnan(c->value) || isnan(was) || was == c->value ||
            (k->varying[0] && strcmp(k->varying, c->name) != 0))
            continue;
        if (!k->varying[0]) {
            snprintf(k->varying, sizeof k->varying, "%s", c->name);
            k->varying_min = k->varying_max = was;
        }
        k->varying_min = fmin(k->varying_min, fmin(was, c->value));
        k->varying_max = fmax(k->varying_max, fmax(was, c->value));
    }
}

/* What launches of one kernel entry and shape share. */
typedef struct {
    size_t entry;
    unsigned grid[3], block[3];
    size_t smem;
} shape_key;

/* Each entry's launches with instruction-determined counters, against the first of their
 * shape: one code and shape counts the same instructions unless its arguments change its
 * work. */
static int find_varying(const gp_exec_info *e, gp_exec_kernel *k, const size_t *entry_of)
{
    gp_hashmap first;
    gp_hashmap_init(&first, sizeof(size_t));
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        if (!l->profiled || !has_sass(l))
            continue;
        shape_key key;
        memset(&key, 0, sizeof key);
        key.entry = entry_of[i];
        key.grid[0] = l->grid.x, key.grid[1] = l->grid.y, key.grid[2] = l->grid.z;
        key.block[0] = l->block.x, key.block[1] = l->block.y, key.block[2] = l->block.z;
        key.smem = l->shared_bytes;
        bool added = false;
        size_t *at = gp_hashmap_add(&first, &key, sizeof key, &added);
        if (!at)
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        else if (added)
            *at = i;
        else
            compare_counts(&k[entry_of[i]], &e->launches[*at], l);
    }
    gp_hashmap_free(&first);
    return rc;
}

/* The kernel's times from its timed launches' sum. Under rotation a launch whose group lacks
 * the duration is untimed, and kernels lose different shares of their launches that way: the
 * timed ones' sum would understate each by its own fraction and skew the shares, so every
 * launch counts at the timed ones' mean (an estimate where some were untimed). */
static void finish_times(gp_exec_kernel *k)
{
    if (!k->timed) {
        k->total_ms = k->average_ms = k->min_ms = k->max_ms = NAN;
        return;
    }
    k->average_ms = k->total_ms / (double)k->timed;
    k->total_ms = (double)k->calls * k->average_ms;
    k->total_estimated = k->timed < k->calls;
}

/* The kernels by their time over all variants, the most first (those of none last), a
 * kernel's variants together in their order. */
static int most_time_first(const void *a, const void *b)
{
    const gp_exec_kernel *x = a, *y = b;
    const double tx = x->kernel_ms, ty = y->kernel_ms;
    if (tx != ty)
        return (tx < ty) - (tx > ty);
    if (x->variants || y->variants) {
        const int name = strcmp(x->kernel, y->kernel);
        if (name)
            return name;
    }
    return (x->variant > y->variant) - (x->variant < y->variant);
}

/* Each entry's kernel_ms: its kernel's total over its variants' timed totals (-1: none). */
static void kernel_totals(gp_exec_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        k[i].kernel_ms = k[i].timed ? k[i].total_ms : -1.0;
        for (size_t j = 0; k[i].variants && j < n; j++)
            if (j != i && k[j].variants && k[j].timed && strcmp(k[j].kernel, k[i].kernel) == 0)
                k[i].kernel_ms = fmax(k[i].kernel_ms, 0.0) + k[j].total_ms;
    }
}

static void finish(gp_exec_kernel *k, const kernel_counters *kc, size_t n)
{
    double all = 0.0;
    for (size_t i = 0; i < n; i++) {
        finish_times(&k[i]);
        all += k[i].timed ? k[i].total_ms : 0.0;
    }
    for (size_t i = 0; i < n; i++) {
        k[i].time_percent = all > 0 && k[i].timed ? 100.0 * k[i].total_ms / all : NAN;
        finish_metrics(&k[i], &kc[i]);
    }
    kernel_totals(k, n);
    qsort(k, n, sizeof *k, most_time_first);
}

static void free_counters(kernel_counters *kc, size_t n)
{
    for (size_t i = 0; kc && i < n; i++)
        free(kc[i].sums);
    free(kc);
}

int gp_exec_summarize(const gp_exec_info *e, gp_exec_kernel **out, size_t *n)
{
    *n = 0;
    const size_t most = e->n_launches ? e->n_launches : 1;
    *out = calloc(most, sizeof **out);
    kernel_counters *kc = calloc(most, sizeof *kc);
    int rc = *out && kc ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t *entry_of = malloc(most * sizeof *entry_of);
    if (!entry_of && rc == GP_OK)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++) {
        gp_exec_kernel *k = entry_for(*out, n, &e->launches[i]);
        entry_of[i] = (size_t)(k - *out);
        rc = add_launch(k, &kc[k - *out], &e->launches[i]);
    }
    if (rc == GP_OK)
        rc = find_varying(e, *out, entry_of);
    free(entry_of);
    if (rc == GP_OK)
        finish(*out, kc, *n);
    free_counters(kc, *n);
    if (rc != GP_OK) {
        gp_exec_summary_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void gp_exec_summary_free(gp_exec_kernel *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++)
        free(k[i].metrics);
    free(k);
}

int gp_exec_kernel_averages(const gp_exec_kernel *k, size_t nk, gp_metric_set **sets,
                            gp_metric_value **values)
{
    size_t total = 1;
    for (size_t i = 0; i < nk; i++)
        total += k[i].n_metrics;
    *sets = calloc(nk + 1, sizeof **sets);
    *values = calloc(total, sizeof **values);
    if (!*sets || !*values) {
        free(*sets);
        free(*values);
        *sets = NULL;
        *values = NULL;
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    gp_metric_value *next = *values;
    for (size_t i = 0; i < nk; i++) {
        (*sets)[i] = (gp_metric_set){NULL, 0, next, k[i].n_metrics};
        for (size_t m = 0; m < k[i].n_metrics; m++)
            *next++ = k[i].metrics[m].average;
    }
    return GP_OK;
}

void gp_exec_describe_rank(const gp_exec_rank *k, const char *lead, char *buf, size_t len)
{
    if (k->size)
        snprintf(buf, len, "%srank %d of %d (from %s)", lead, k->rank, k->size, k->from);
    else
        snprintf(buf, len, "%srank %d (from %s)", lead, k->rank, k->from);
}
