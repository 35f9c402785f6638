/* exec --by-range's tree (gpuprof/exec_ranges.h): each launch's folded range path, every
 * prefix of it a node that counts the launch, so that a node is inclusive of its subtree and a
 * parent's time is its children's and its own launches'. A launch's time and DRAM bytes are
 * counted as the kernel summary counts them (report/exec_summary.c): an untimed launch at its
 * kernel's mean over the timed ones, a launch without DRAM counters at its kernel's means of
 * dram_read_bytes and dram_write_bytes, marked estimated; so the outermost nodes' times sum to
 * the kernels' totals, and their shares to 100 %. */
#include "gpuprof/exec_ranges.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const gp_range_metric_keys[GP_RANGE_METRICS] = {
    "gld_transactions_per_request", "gst_transactions_per_request", "gld_efficiency",
    "gst_efficiency"};

/* A launch's contribution: NAN where unknown. */
typedef struct {
    size_t kernel;               /* its #N in the summary; 0: not there */
    double ms, dram;
    bool ms_estimated, dram_estimated;
} contribution;

/* A node's time of one kernel, for the kernel of the most time. */
typedef struct {
    size_t node, kernel;
} node_kernel;

typedef struct {
    double ms;
    bool timed;
} kernel_time;

/* A node's memory metrics' inputs summed while the tree is built, and the launches that
 * counted each metric's. */
typedef struct {
    double inputs[GP_RANGE_METRICS][GP_METRIC_MAX_INPUTS];
    size_t counted[GP_RANGE_METRICS];
} metric_sums;

typedef struct {
    const gp_exec_kernel *k;
    size_t nk;
    const gp_kernel_labels *kl;
    double *kernel_dram;         /* per kernel: its mean DRAM bytes per launch; NAN: none */
    gp_exec_range *nodes;
    size_t n, capacity;
    metric_sums *sums;           /* per node, as nodes */
    size_t n_sums, sums_capacity;
    gp_hashmap by_path;          /* a folded prefix: its node's index */
    gp_hashmap by_kernel;        /* node_kernel: kernel_time */
} tree;

static int out_of_memory(void)
{
    return gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

bool gp_exec_has_ranges(const gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].range && e->launches[i].range[0])
            return true;
    return false;
}

/* A valid metric's value in a set; NAN when absent. */
static double metric_of(const gp_metric_set *s, const char *key)
{
    const gp_metric_value *v = gp_metric_set_value(s, key);
    return v && v->valid ? v->value : NAN;
}

/* The kernel's DRAM bytes per launch: the means over its launches that have each. */
static double mean_dram(const gp_exec_kernel *k)
{
    const gp_metric_stats *read = gp_kernel_metric(k, "dram_read_bytes");
    const gp_metric_stats *write = gp_kernel_metric(k, "dram_write_bytes");
    return read && read->average.valid && write && write->average.valid
               ? read->average.value + write->average.value
               : NAN;
}

static contribution contribution_of(const tree *t, const gp_exec_launch *l)
{
    contribution c = {.kernel = gp_kernel_labels_number(t->kl, l->kernel, l->variant)};
    const gp_exec_kernel *k = c.kernel && c.kernel <= t->nk ? &t->k[c.kernel - 1] : NULL;
    c.ms_estimated = l->duration_ms < 0;
    c.ms = !c.ms_estimated ? l->duration_ms : k ? k->average_ms : NAN;
    c.dram = l->profiled ? metric_of(&l->metrics, "dram_read_bytes") +
                               metric_of(&l->metrics, "dram_write_bytes")
                         : NAN;
    c.dram_estimated = isnan(c.dram);
    if (c.dram_estimated)
        c.dram = k ? t->kernel_dram[k - t->k] : NAN;
    return c;
}

/* The node of a folded prefix (its first len bytes), added with its place in the tree when
 * new; NULL when out of memory. */
static gp_exec_range *node_of(tree *t, const char *path, size_t len, size_t parent)
{
    bool added = false;
    size_t *at = gp_hashmap_add(&t->by_path, path, len, &added);
    if (!at)
        return NULL;
    if (!added)
        return &t->nodes[*at];
    gp_exec_range *node = gp_append_zeroed(&t->nodes, &t->n, &t->capacity, sizeof *t->nodes);
    metric_sums *sums = gp_append_zeroed(&t->sums, &t->n_sums, &t->sums_capacity, sizeof *sums);
    char *copy = malloc(len + 1);
    if (!node || !sums || !copy) {
        free(copy);
        return NULL;
    }
    *at = t->n - 1;
    memcpy(copy, path, len);
    copy[len] = '\0';
    const char *slash = strrchr(copy, '/');
    *node = (gp_exec_range){.path = copy, .label = slash ? slash + 1 : copy,
                            .depth = parent == SIZE_MAX ? 0 : t->nodes[parent].depth + 1,
                            .parent = parent, .total_ms = NAN, .dram_bytes = NAN};
    return node;
}

/* The launch's inputs of each memory metric added to the node's sums, where it counted them
 * all (a rotated launch collected some groups only). */
static void count_metrics(metric_sums *sums, const gp_exec_launch *l)
{
    for (size_t m = 0; l->profiled && m < GP_RANGE_METRICS; m++) {
        const gp_metric_def *def = gp_find_metric(gp_range_metric_keys[m]);
        double v[GP_METRIC_MAX_INPUTS];
        size_t k = 0;
        while (def && k < def->n_inputs &&
               !isnan(v[k] = gp_metric_set_counter(&l->metrics, def->inputs[k])))
            k++;
        if (!def || k < def->n_inputs)
            continue;
        for (k = 0; k < def->n_inputs; k++)
            sums->inputs[m][k] += v[k];
        sums->counted[m]++;
    }
}

/* Each memory metric from its summed inputs. */
static void derive_metrics(gp_exec_range *node, const metric_sums *sums)
{
    for (size_t m = 0; m < GP_RANGE_METRICS; m++) {
        const gp_metric_def *def = gp_find_metric(gp_range_metric_keys[m]);
        const char *why = NULL;
        double v = NAN;
        if (!def || !sums->counted[m] ||
            !gp_metric_derive(def, def->inputs, sums->inputs[m], def->n_inputs, &v, &why))
            v = NAN;
        node->metrics[m] = v;
    }
}

static int count_in(tree *t, gp_exec_range *node, const contribution *c)
{
    node->calls++;
    node->total_estimated = node->total_estimated || c->ms_estimated;
    node->dram_estimated = node->dram_estimated || c->dram_estimated;
    if (!isnan(c->ms))
        node->total_ms = isnan(node->total_ms) ? c->ms : node->total_ms + c->ms;
    if (!isnan(c->dram))
        node->dram_bytes = isnan(node->dram_bytes) ? c->dram : node->dram_bytes + c->dram;
    const node_kernel key = {(size_t)(node - t->nodes), c->kernel};
    bool added = false;
    kernel_time *kt = gp_hashmap_add(&t->by_kernel, &key, sizeof key, &added);
    if (!kt)
        return out_of_memory();
    node->kernels += added;
    if (!isnan(c->ms)) {
        kt->ms += c->ms;
        kt->timed = true;
    }
    return GP_OK;
}

/* A launch counted in every prefix of its folded path (the first whole: "(no range)"). */
static int add_launch(tree *t, const gp_exec_launch *l, char *folded)
{
    const contribution c = contribution_of(t, l);
    if (l->range && l->range[0])
        gp_range_fold(l->range, folded);
    else
        strcpy(folded, GP_RANGE_NONE);
    size_t parent = SIZE_MAX;
    for (size_t end = 0;; end++) {
        if (folded[end] != '/' && folded[end] != '\0')
            continue;
        gp_exec_range *node = node_of(t, folded, end, parent);
        if (!node)
            return out_of_memory();
        GP_TRY(count_in(t, node, &c));
        count_metrics(&t->sums[node - t->nodes], l);
        parent = (size_t)(node - t->nodes);
        if (!folded[end])
            return GP_OK;
    }
}

/* Each node's kernel of the most time (of equal times, the one first in the summary). */
static void find_tops(tree *t)
{
    size_t cursor = 0;
    const void *key;
    size_t key_len;
    for (kernel_time *kt; (kt = gp_hashmap_next(&t->by_kernel, &cursor, &key, &key_len));) {
        const node_kernel *nk = key;
        gp_exec_range *node = &t->nodes[nk->node];
        if (!kt->timed || !nk->kernel)
            continue;
        if (!node->top || kt->ms > node->top_ms ||
            (kt->ms == node->top_ms && nk->kernel < node->top)) {
            node->top = nk->kernel;
            node->top_ms = kt->ms;
        }
    }
}

static void finish_nodes(tree *t)
{
    double all = 0;
    for (size_t i = 0; i < t->nk; i++)
        all += t->k[i].timed ? t->k[i].total_ms : 0.0;
    for (size_t i = 0; i < t->n; i++) {
        gp_exec_range *node = &t->nodes[i];
        node->time_percent = all > 0 && !isnan(node->total_ms) ? 100.0 * node->total_ms / all
                                                                : NAN;
        node->dram_estimated = node->dram_estimated && !isnan(node->dram_bytes);
        derive_metrics(node, &t->sums[i]);
    }
    find_tops(t);
}

/* ---- the reading order ----------------------------------------------------------------------- */

/* Siblings together (by parent; the outermost first), the most time first, those of none
 * last, then by label. */
static int by_parent_then_time(const void *a, const void *b)
{
    const gp_exec_range *x = *(const gp_exec_range *const *)a;
    const gp_exec_range *y = *(const gp_exec_range *const *)b;
    if (x->parent != y->parent)
        return (x->parent + 1 > y->parent + 1) - (x->parent + 1 < y->parent + 1);
    const double tx = isnan(x->total_ms) ? -1.0 : x->total_ms;
    const double ty = isnan(y->total_ms) ? -1.0 : y->total_ms;
    if (tx != ty)
        return (tx < ty) - (tx > ty);
    return strcmp(x->label, y->label);
}

/* The children of node p (SIZE_MAX: the outermost nodes) pushed on the stack, the first
 * last, so that it is visited first; sorted[from..) starts with them. */
static size_t push_children(const gp_exec_range **sorted, size_t n, size_t from, size_t p,
                            size_t *stack, size_t depth, const gp_exec_range *nodes)
{
    size_t end = from;
    while (end < n && sorted[end]->parent == p)
        end++;
    for (size_t i = end; i > from; i--)
        stack[depth++] = (size_t)(sorted[i - 1] - nodes);
    return depth;
}

/* The nodes in reading order, each followed by its subtree, parents renumbered. */
static int reading_order(const tree *t, gp_exec_range **out)
{
    const size_t n = t->n;
    const gp_exec_range **sorted = malloc((n + 1) * sizeof *sorted);
    size_t *first = malloc((n + 2) * sizeof *first), *stack = malloc((n + 1) * sizeof *stack);
    size_t *moved = malloc((n + 1) * sizeof *moved);
    *out = malloc((n + 1) * sizeof **out);
    const int rc = sorted && first && stack && moved && *out ? GP_OK : out_of_memory();
    if (rc == GP_OK) {
        for (size_t i = 0; i < n; i++)
            sorted[i] = &t->nodes[i];
        qsort(sorted, n, sizeof *sorted, by_parent_then_time);
        /* first[p + 1]: where node p's children start in sorted (first[0]: the outermost) */
        for (size_t p = 0; p < n + 2; p++)
            first[p] = n;
        for (size_t i = n; i-- > 0;)
            first[sorted[i]->parent + 1] = i;
        size_t depth = push_children(sorted, n, first[0], SIZE_MAX, stack, 0, t->nodes);
        for (size_t written = 0; depth; written++) {
            const size_t at = stack[--depth];
            moved[at] = written;
            (*out)[written] = t->nodes[at];
            depth = push_children(sorted, n, first[at + 1], at, stack, depth, t->nodes);
        }
        for (size_t i = 0; i < n; i++)
            if ((*out)[i].parent != SIZE_MAX)
                (*out)[i].parent = moved[(*out)[i].parent];
    } else {
        free(*out);
        *out = NULL;
    }
    free(sorted);
    free(first);
    free(stack);
    free(moved);
    return rc;
}

/* ---- the tree ------------------------------------------------------------------------------ */

static int build(tree *t, const gp_exec_info *e)
{
    size_t longest = sizeof GP_RANGE_NONE;
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].range && strlen(e->launches[i].range) + 1 > longest)
            longest = strlen(e->launches[i].range) + 1;
    char *folded = malloc(longest);
    t->kernel_dram = malloc((t->nk + 1) * sizeof *t->kernel_dram);
    int rc = folded && t->kernel_dram ? GP_OK : out_of_memory();
    for (size_t i = 0; rc == GP_OK && i < t->nk; i++)
        t->kernel_dram[i] = mean_dram(&t->k[i]);
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++)
        rc = add_launch(t, &e->launches[i], folded);
    free(folded);
    return rc;
}

int gp_exec_ranges(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                   const gp_kernel_labels *kl, gp_exec_range **out, size_t *n)
{
    tree t = {.k = k, .nk = nk, .kl = kl};
    gp_hashmap_init(&t.by_path, sizeof(size_t));
    gp_hashmap_init(&t.by_kernel, sizeof(kernel_time));
    *out = NULL;
    *n = 0;
    int rc = build(&t, e);
    if (rc == GP_OK) {
        finish_nodes(&t);
        rc = reading_order(&t, out);
    }
    if (rc == GP_OK) {
        *n = t.n;
        free(t.nodes); /* the paths moved to *out */
    } else
        gp_exec_ranges_free(t.nodes, t.n);
    free(t.kernel_dram);
    free(t.sums);
    gp_hashmap_free(&t.by_path);
    gp_hashmap_free(&t.by_kernel);
    return rc;
}

void gp_exec_ranges_free(gp_exec_range *nodes, size_t n)
{
    for (size_t i = 0; nodes && i < n; i++)
        free(nodes[i].path);
    free(nodes);
}

int gp_exec_range_tree_init(gp_exec_range_tree *t, const gp_exec_info *e)
{
    *t = (gp_exec_range_tree){0};
    GP_TRY(gp_exec_summarize(e, &t->kernels, &t->n_kernels));
    int rc = gp_kernel_labels_init(&t->labels, t->kernels, t->n_kernels, GP_KERNEL_NAME_SHORT);
    if (rc != GP_OK) {
        gp_exec_summary_free(t->kernels, t->n_kernels);
        return rc;
    }
    rc = gp_exec_ranges(e, t->kernels, t->n_kernels, &t->labels, &t->nodes, &t->n);
    if (rc != GP_OK)
        gp_exec_range_tree_free(t);
    return rc;
}

void gp_exec_range_tree_free(gp_exec_range_tree *t)
{
    gp_exec_ranges_free(t->nodes, t->n);
    gp_kernel_labels_free(&t->labels);
    gp_exec_summary_free(t->kernels, t->n_kernels);
    *t = (gp_exec_range_tree){0};
}

void gp_exec_ranges_estimated(const gp_exec_range *nodes, size_t n, bool *time, bool *dram)
{
    *time = *dram = false;
    for (size_t i = 0; i < n; i++) {
        *time = *time || nodes[i].total_estimated;
        *dram = *dram || nodes[i].dram_estimated;
    }
}

bool gp_exec_ranges_have_metrics(const gp_exec_range *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; m < GP_RANGE_METRICS; m++)
            if (!isnan(nodes[i].metrics[m]))
                return true;
    return false;
}
