/* The rank view as plain data (gpuprof/ranks.h): its ranks, kernels and cells owned, and what
 * is derived from them, computed the same way whether the view was just merged or read back,
 * so that a view written as JSON and read again renders the same. */
#include "gpuprof/ranks.h"

#include "gpuprof/collectives.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ownership ------------------------------------------------------------------------- */

gp_rank_view *gp_rank_view_new(void)
{
    return calloc(1, sizeof(gp_rank_view));
}

void gp_rank_view_free(gp_rank_view *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n_ranks; i++)
        free(v->ranks[i].file);
    for (size_t i = 0; i < v->n_kernels; i++) {
        free(v->kernels[i].kernel);
        free(v->kernels[i].mangled);
        free(v->kernels[i].cells);
    }
    for (size_t i = 0; i < v->n_ranges; i++) {
        free(v->ranges[i].path);
        free(v->ranges[i].cells);
    }
    free(v->ranks);
    free(v->kernels);
    free(v->ranges);
    free(v);
}

gp_rank_entry *gp_rank_view_add_rank(gp_rank_view *v, const char *file)
{
    char *copy;
    gp_rank_entry *e = gp_append_named(&v->ranks, &v->n_ranks, &v->rank_capacity, sizeof *e,
                                       file, &copy);
    if (e) {
        e->file = copy;
        e->kernel_ms = NAN;
    }
    return e;
}

gp_rank_kernel *gp_rank_view_add_kernel(gp_rank_view *v, const char *kernel,
                                        const char *mangled, uint64_t code)
{
    char *name = strdup(kernel), *identity = mangled ? strdup(mangled) : NULL;
    gp_rank_kernel *k = name && (identity || !mangled)
                            ? gp_append_zeroed(&v->kernels, &v->n_kernels, &v->kernel_capacity,
                                               sizeof *k)
                            : NULL;
    if (!k) {
        free(name);
        free(identity);
        return NULL;
    }
    k->kernel = name;
    k->mangled = identity;
    k->code = code;
    k->slowest = k->fastest = SIZE_MAX;
    return k;
}

gp_rank_cell *gp_rank_kernel_add_cell(gp_rank_kernel *k)
{
    return gp_append_zeroed(&k->cells, &k->n_cells, &k->cell_capacity, sizeof(gp_rank_cell));
}

const char *gp_rank_kernel_identity(const gp_rank_kernel *k)
{
    return k->mangled ? k->mangled : k->kernel;
}

/* ---- what is derived ------------------------------------------------------------------- */

static int ascending(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gp_rank_spread_of(double *values, size_t n, gp_rank_spread *s)
{
    s->ranks = n;
    if (!n) {
        s->min = s->median = s->max = NAN;
        return;
    }
    qsort(values, n, sizeof *values, ascending);
    s->min = values[0];
    s->max = values[n - 1];
    s->median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

void gp_rank_extremes(const void *cells, size_t n, size_t size, size_t at, size_t *slowest,
                      size_t *fastest)
{
    const unsigned char *most = NULL, *least = NULL;
    double most_ms = 0, least_ms = 0;
    for (size_t c = 0; c < n; c++) {
        const unsigned char *cell = (const unsigned char *)cells + c * size;
        double ms;
        memcpy(&ms, cell + at, sizeof ms);
        if (!isfinite(ms))
            continue;
        if (!most || ms > most_ms)
            most = cell, most_ms = ms;
        if (!least || ms < least_ms)
            least = cell, least_ms = ms;
    }
    *slowest = *fastest = SIZE_MAX;
    if (most)
        memcpy(slowest, most, sizeof *slowest);
    if (least)
        memcpy(fastest, least, sizeof *fastest);
}

/* The kernel's spreads, with `scratch` room for a value per cell. */
static void derive_kernel(gp_rank_kernel *k, double *scratch)
{
    size_t n = 0;
    k->time_ms.estimated = k->dram_bytes.estimated = false;
    for (size_t c = 0; c < k->n_cells; c++)
        if (isfinite(k->cells[c].total_ms)) {
            scratch[n++] = k->cells[c].total_ms;
            k->time_ms.estimated = k->time_ms.estimated || k->cells[c].total_estimated;
        }
    gp_rank_spread_of(scratch, n, &k->time_ms);
    n = 0;
    for (size_t c = 0; c < k->n_cells; c++)
        if (isfinite(k->cells[c].dram_bytes)) {
            scratch[n++] = k->cells[c].dram_bytes;
            k->dram_bytes.estimated = k->dram_bytes.estimated || k->cells[c].dram_estimated;
        }
    gp_rank_spread_of(scratch, n, &k->dram_bytes);
    gp_rank_extremes(k->cells, k->n_cells, sizeof *k->cells, offsetof(gp_rank_cell, total_ms),
                     &k->slowest, &k->fastest);
    k->collective = gp_kernel_is_collective(k->kernel) || gp_kernel_is_collective(k->mangled);
}

/* Each rank's launches and kernel time, the sums of its cells. */
static void derive_ranks(gp_rank_view *v)
{
    for (size_t r = 0; r < v->n_ranks; r++) {
        v->ranks[r].launches = 0;
        v->ranks[r].kernel_ms = NAN;
        v->ranks[r].kernel_estimated = false;
    }
    for (size_t k = 0; k < v->n_kernels; k++)
        for (size_t c = 0; c < v->kernels[k].n_cells; c++) {
            const gp_rank_cell *cell = &v->kernels[k].cells[c];
            gp_rank_entry *e = &v->ranks[cell->rank];
            e->launches += cell->calls;
            if (!isfinite(cell->total_ms))
                continue;
            e->kernel_ms = isfinite(e->kernel_ms) ? e->kernel_ms + cell->total_ms
                                                  : cell->total_ms;
            e->kernel_estimated = e->kernel_estimated || cell->total_estimated;
        }
}

int gp_rank_spread_busiest_first(const gp_rank_spread *x, const gp_rank_spread *y)
{
    const double xm = x->ranks ? x->max : -1.0, ym = y->ranks ? y->max : -1.0;
    if (xm != ym)
        return xm < ym ? 1 : -1;
    const double xd = x->ranks ? x->median : -1.0, yd = y->ranks ? y->median : -1.0;
    return xd != yd ? (xd < yd ? 1 : -1) : 0;
}

/* The busiest first; then by identity, so that the order never depends on the order of the
 * files. Kernels never timed go last. */
static int most_time_first(const void *a, const void *b)
{
    const gp_rank_kernel *x = a, *y = b;
    const int busiest = gp_rank_spread_busiest_first(&x->time_ms, &y->time_ms);
    if (busiest)
        return busiest;
    const int name = strcmp(gp_rank_kernel_identity(x), gp_rank_kernel_identity(y));
    return name ? name : (x->code > y->code) - (x->code < y->code);
}

static size_t calls_of(const gp_rank_kernel *k)
{
    size_t calls = 0;
    for (size_t c = 0; c < k->n_cells; c++)
        calls += k->cells[c].calls;
    return calls;
}

/* Whether a is a variant of the same kernel as b, numbered before it: more calls over the
 * ranks, then the lower code (an order that files read in any order keep). */
static bool before(const gp_rank_kernel *a, const gp_rank_kernel *b)
{
    const size_t ca = calls_of(a), cb = calls_of(b);
    return ca != cb ? ca > cb : a->code < b->code;
}

/* The variants of each kernel of several codes, as an exec report numbers its own. */
static void number_variants(gp_rank_view *v)
{
    for (size_t i = 0; i < v->n_kernels; i++) {
        gp_rank_kernel *k = &v->kernels[i];
        unsigned n = 0, ahead = 0;
        for (size_t j = 0; j < v->n_kernels; j++) {
            const gp_rank_kernel *o = &v->kernels[j];
            if (strcmp(gp_rank_kernel_identity(o), gp_rank_kernel_identity(k)) != 0)
                continue;
            n++;
            ahead += j != i && before(o, k);
        }
        k->variants = n > 1 ? n : 0;
        k->variant = n > 1 ? ahead + 1 : 0;
    }
}

int gp_rank_view_derive(gp_rank_view *v)
{
    size_t most = 1;
    for (size_t k = 0; k < v->n_kernels; k++)
        most = v->kernels[k].n_cells > most ? v->kernels[k].n_cells : most;
    double *scratch = malloc(most * sizeof *scratch);
    if (!scratch)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t k = 0; k < v->n_kernels; k++)
        derive_kernel(&v->kernels[k], scratch);
    free(scratch);
    /* Sorted before the ranks' sums, so that they add in one order, read back or not. */
    if (v->n_kernels > 1)
        qsort(v->kernels, v->n_kernels, sizeof *v->kernels, most_time_first);
    number_variants(v);
    derive_ranks(v);
    v->world_size = v->n_ranks ? v->ranks[0].size : 0;
    return GP_OK;
}

/* ---- the ranks as a whole ---------------------------------------------------------------- */

/* "a" or "a-b" after a ", " unless first, where it fits (len - 4 bytes kept for "..."). */
static void add_range(char *buf, size_t len, size_t *used, int a, int b, bool *cut)
{
    char range[32];
    snprintf(range, sizeof range, a == b ? "%s%d" : "%s%d-%d", *used ? ", " : "", a, b);
    if (*cut || *used + strlen(range) + 4 >= len) {
        *cut = true;
        return;
    }
    *used += (size_t)snprintf(buf + *used, len - *used, "%s", range);
}

size_t gp_rank_view_missing(const gp_rank_view *v, char *buf, size_t len)
{
    size_t used = 0, missing = 0;
    bool cut = false;
    buf[0] = '\0';
    if (!v->world_size)
        return 0;
    /* The ranks are in order: the gaps before each, and after the last below the size. */
    long long expected = 0;  /* one past the last present rank: INT_MAX + 1 at most */
    for (size_t i = 0; i <= v->n_ranks && expected < v->world_size; i++) {
        const int here = i < v->n_ranks && v->ranks[i].rank < v->world_size ? v->ranks[i].rank
                                                                             : v->world_size;
        if (here > expected) {
            missing += (size_t)(here - expected);
            add_range(buf, len, &used, (int)expected, here - 1, &cut);
        }
        expected = (long long)here + 1;
    }
    if (cut && used + 4 < len)
        snprintf(buf + used, len - used, "%s...", used ? ", " : "");
    return missing;
}

int gp_rank_view_time_spread(const gp_rank_view *v, gp_rank_spread *s, size_t *slowest,
                             size_t *fastest)
{
    double *times = malloc((v->n_ranks ? v->n_ranks : 1) * sizeof *times);
    if (!times)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t n = 0;
    *slowest = *fastest = SIZE_MAX;
    s->estimated = false;
    for (size_t i = 0; i < v->n_ranks; i++) {
        const gp_rank_entry *e = &v->ranks[i];
        if (!isfinite(e->kernel_ms))
            continue;
        if (*slowest == SIZE_MAX || e->kernel_ms > v->ranks[*slowest].kernel_ms)
            *slowest = i;
        if (*fastest == SIZE_MAX || e->kernel_ms < v->ranks[*fastest].kernel_ms)
            *fastest = i;
        s->estimated = s->estimated || e->kernel_estimated;
        times[n++] = e->kernel_ms;
    }
    gp_rank_spread_of(times, n, s);
    free(times);
    return GP_OK;
}

int gp_rank_view_labels(const gp_rank_view *v, gp_kernel_name_style style,
                        gp_kernel_labels *kl)
{
    const size_t n = v->n_kernels ? v->n_kernels : 1;
    const char **names = malloc(n * sizeof *names);
    gp_label_variant *variants = malloc(n * sizeof *variants);
    int rc = names && variants ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < v->n_kernels; i++) {
        names[i] = v->kernels[i].kernel;
        variants[i] = (gp_label_variant){v->kernels[i].variant, v->kernels[i].variants};
    }
    if (rc == GP_OK)
        rc = gp_kernel_labels_init_names(kl, names, variants, v->n_kernels, style);
    free(names);
    free(variants);
    return rc;
}
