/* The rank view's NVTX range paths (gpuprof/ranks.h): each rank's range tree (the nodes that
 * `report FILE --by-range` gives for its file, gpuprof/exec_ranges.h) kept as a cell per path
 * and rank, a few numbers each, while the ranks are merged one file at a time; then per path
 * its spread over the ranks it occurred on, its slowest and fastest rank, and the paths in the
 * tree's reading order: each followed by the paths within it, siblings the most time on one
 * rank first (as the view's kernels are), then by label. */
#include "report/rank_ranges.h"

#include "gpuprof/exec_ranges.h"
#include "gpuprof/status.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int out_of_memory(void)
{
    return gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

gp_rank_range *gp_rank_view_add_range(gp_rank_view *v, const char *path)
{
    char *copy;
    gp_rank_range *r = gp_append_named(&v->ranges, &v->n_ranges, &v->range_capacity, sizeof *r,
                                       path, &copy);
    if (r) {
        r->label = r->path = copy;
        r->slowest = r->fastest = SIZE_MAX;
    }
    return r;
}

gp_rank_range_cell *gp_rank_range_add_cell(gp_rank_range *r)
{
    gp_rank_range_cell *c = gp_append_zeroed(&r->cells, &r->n_cells, &r->cell_capacity,
                                             sizeof *c);
    if (c)
        c->total_ms = NAN;
    return c;
}

double gp_rank_as_written(double v)
{
    if (!isfinite(v))
        return v;
    char text[32];
    snprintf(text, sizeof text, "%.15g", v);
    const double back = strtod(text, NULL);
    const double most = fabs(v) > fabs(back) ? fabs(v) : fabs(back);
    return fabs(v - back) <= most * DBL_EPSILON ? back : v;
}

/* ---- merging ----------------------------------------------------------------------------- */

void gp_rank_ranges_index_init(gp_rank_ranges_index *x, gp_rank_view *v)
{
    x->view = v;
    gp_hashmap_init(&x->by_path, sizeof(size_t));
}

void gp_rank_ranges_index_free(gp_rank_ranges_index *x)
{
    gp_hashmap_free(&x->by_path);
}

int gp_rank_ranges_find(gp_rank_ranges_index *x, const char *path, size_t *index, bool *added)
{
    size_t *at = gp_hashmap_add_str(&x->by_path, path, added);
    if (!at)
        return out_of_memory();
    if (*added) {
        if (!gp_rank_view_add_range(x->view, path))
            return out_of_memory();
        *at = x->view->n_ranges - 1;
    }
    *index = *at;
    return GP_OK;
}

/* The range's cell of the rank, its numbers as the view's JSON writes them. */
static int add_cell(gp_rank_ranges_index *x, const char *path, const gp_rank_range_cell *from)
{
    size_t i;
    bool added;
    GP_TRY(gp_rank_ranges_find(x, path, &i, &added));
    gp_rank_range_cell *c = gp_rank_range_add_cell(&x->view->ranges[i]);
    if (!c)
        return out_of_memory();
    *c = *from;
    c->total_ms = gp_rank_as_written(from->total_ms);
    return GP_OK;
}

int gp_rank_ranges_fold_exec(gp_rank_ranges_index *x, const gp_exec_info *e, size_t rank)
{
    if (!gp_exec_has_ranges(e))
        return GP_OK;
    gp_exec_range_tree t;
    GP_TRY(gp_exec_range_tree_init(&t, e));
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < t.n; i++) {
        const gp_exec_range *node = &t.nodes[i];
        const gp_rank_range_cell c = {.rank = rank, .calls = node->calls,
                                      .total_ms = node->total_ms,
                                      .total_estimated = node->total_estimated};
        rc = add_cell(x, node->path, &c);
    }
    gp_exec_range_tree_free(&t);
    return rc;
}

int gp_rank_ranges_fold_view(gp_rank_ranges_index *x, const gp_rank_view *from,
                             const size_t *index)
{
    for (size_t i = 0; i < from->n_ranges; i++) {
        const gp_rank_range *r = &from->ranges[i];
        for (size_t c = 0; c < r->n_cells; c++) {
            gp_rank_range_cell cell = r->cells[c];
            cell.rank = index[cell.rank];
            GP_TRY(add_cell(x, r->path, &cell));
        }
    }
    return GP_OK;
}

/* ---- what is derived --------------------------------------------------------------------- */

static void derive_range(gp_rank_range *r, double *scratch)
{
    size_t n = 0;
    r->calls_max = 0;
    r->time_ms.estimated = false;
    for (size_t c = 0; c < r->n_cells; c++) {
        const gp_rank_range_cell *cell = &r->cells[c];
        r->calls_max = cell->calls > r->calls_max ? cell->calls : r->calls_max;
        if (isfinite(cell->total_ms)) {
            scratch[n++] = cell->total_ms;
            r->time_ms.estimated = r->time_ms.estimated || cell->total_estimated;
        }
    }
    gp_rank_spread_of(scratch, n, &r->time_ms);
    gp_rank_extremes(r->cells, r->n_cells, sizeof *r->cells,
                     offsetof(gp_rank_range_cell, total_ms), &r->slowest, &r->fastest);
    const char *slash = strrchr(r->path, '/');
    r->label = slash ? slash + 1 : r->path;
}

/* A path in the tree: its range, and its parent's node (NULL: outermost, or a parent path
 * the view lacks). */
typedef struct node {
    const gp_rank_range *range;
    const struct node *parent;
    size_t depth;
} node;

/* Siblings: the most time on one rank first, then the most median time (none timed last),
 * then by label. */
static int sibling_order(const gp_rank_range *x, const gp_rank_range *y)
{
    const int busiest = gp_rank_spread_busiest_first(&x->time_ms, &y->time_ms);
    return busiest ? busiest : strcmp(x->label, y->label);
}

/* The reading order of two nodes: a node before the nodes within it; of two apart, the
 * order of their ancestors that are siblings. */
static int tree_order(const node *a, const node *b)
{
    if (a == b)
        return 0;
    if (a->depth > b->depth) {
        const int o = tree_order(a->parent, b);
        return o ? o : 1;
    }
    if (b->depth > a->depth) {
        const int o = tree_order(a, b->parent);
        return o ? o : -1;
    }
    return a->parent == b->parent ? sibling_order(a->range, b->range)
                                  : tree_order(a->parent, b->parent);
}

static int by_tree_order(const void *a, const void *b)
{
    return tree_order(*(const node *const *)a, *(const node *const *)b);
}

/* Each node's parent: its path's up to the last '/', where the view has it (the paths are
 * keys without their NUL, so that a prefix is looked up in place). */
static int link_parents(const gp_rank_view *v, node *nodes)
{
    gp_hashmap by_path;
    gp_hashmap_init(&by_path, sizeof(size_t));
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < v->n_ranges; i++) {
        bool added;
        const char *path = v->ranges[i].path;
        size_t *at = gp_hashmap_add(&by_path, path, strlen(path), &added);
        rc = at ? GP_OK : out_of_memory();
        if (at)
            *at = i;
    }
    for (size_t i = 0; rc == GP_OK && i < v->n_ranges; i++) {
        const char *path = v->ranges[i].path, *slash = strrchr(path, '/');
        const size_t *at = slash ? gp_hashmap_find(&by_path, path, (size_t)(slash - path))
                                 : NULL;
        nodes[i] = (node){.range = &v->ranges[i], .parent = at ? &nodes[*at] : NULL};
    }
    gp_hashmap_free(&by_path);
    return rc;
}

/* The paths in reading order, each with its depth in the tree. */
static int order_ranges(gp_rank_view *v)
{
    const size_t n = v->n_ranges;
    node *nodes = malloc((n + 1) * sizeof *nodes);
    const node **sorted = malloc((n + 1) * sizeof *sorted);
    gp_rank_range *ordered = malloc((n + 1) * sizeof *ordered);
    int rc = nodes && sorted && ordered ? link_parents(v, nodes) : out_of_memory();
    if (rc == GP_OK) {
        for (size_t i = 0; i < n; i++) {
            sorted[i] = &nodes[i];
            for (const node *p = nodes[i].parent; p; p = p->parent)
                nodes[i].depth++;
        }
        qsort(sorted, n, sizeof *sorted, by_tree_order);
        for (size_t i = 0; i < n; i++) {
            ordered[i] = *sorted[i]->range;
            ordered[i].depth = sorted[i]->depth;
        }
        if (n) /* a view without ranges has no array to copy into */
            memcpy(v->ranges, ordered, n * sizeof *ordered);
    }
    free(nodes);
    free(sorted);
    free(ordered);
    return rc;
}

int gp_rank_view_derive_ranges(gp_rank_view *v)
{
    size_t most = 1;
    for (size_t i = 0; i < v->n_ranges; i++)
        most = v->ranges[i].n_cells > most ? v->ranges[i].n_cells : most;
    double *scratch = malloc(most * sizeof *scratch);
    if (!scratch)
        return out_of_memory();
    for (size_t i = 0; i < v->n_ranges; i++)
        derive_range(&v->ranges[i], scratch);
    free(scratch);
    return order_ranges(v);
}
