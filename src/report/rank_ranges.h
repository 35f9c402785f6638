/* The rank view's range paths while a view is merged or read back (src/report/rank_ranges.c):
 * the view's paths by name, so that each rank's node of a path joins the one range of it. */
#ifndef GPUPROF_REPORT_RANK_RANGES_H
#define GPUPROF_REPORT_RANK_RANGES_H

#include "gpuprof/hashmap.h"
#include "gpuprof/ranks.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    gp_rank_view *view;
    gp_hashmap by_path;          /* a path: its range's index in the view (size_t) */
} gp_rank_ranges_index;

void gp_rank_ranges_index_init(gp_rank_ranges_index *x, gp_rank_view *v);
void gp_rank_ranges_index_free(gp_rank_ranges_index *x);
/* The view's range of the path, added when new (*added says so): its index. GP_OK, or out of
 * host memory. */
int gp_rank_ranges_find(gp_rank_ranges_index *x, const char *path, size_t *index, bool *added);
/* A rank's exec report: its range tree (gpuprof/exec_ranges.h, the numbers `report FILE
 * --by-range` gives) a cell per node, of the rank of index `rank`; nothing when it has no
 * ranges. */
int gp_rank_ranges_fold_exec(gp_rank_ranges_index *x, const gp_exec_info *e, size_t rank);
/* A rank view's ranges: their cells, each rank i of it rank index[i] of this view. */
int gp_rank_ranges_fold_view(gp_rank_ranges_index *x, const gp_rank_view *from,
                             const size_t *index);

/* A cell's number as its JSON keeps it: cJSON writes 15 significant digits when they read
 * back within a rounding error, and a view read back derives its spreads and sums from the
 * numbers it reads; from these, a view merged now derives the very same ones. */
double gp_rank_as_written(double v);

#endif
