/* How a report's results group, for the renderers that show them by group: problems (a run
 * of consecutive results of one family, size and type, as one size and type of a kernel
 * command give) and sweeps (one variant's results that differ in one parameter only). Part
 * of the report layer: plain queries on the data, no formatting. */
#ifndef GPUPROF_GROUP_H
#define GPUPROF_GROUP_H

#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

/* One problem: report->results[first .. end). */
typedef struct {
    const gp_report *report;
    size_t first, end;
} gp_problem_span;

/* The problem that starts at results[first]: it and the results after it of the same family,
 * size and type. */
gp_problem_span gp_problem_at(const gp_report *r, size_t first);
/* Whether the parameter takes more than one value over the problem (where it does not apply,
 * NAN, counts as one value). */
bool gp_problem_param_varies(const gp_problem_span *p, const char *name);
/* Whether the problem's known block shapes differ (a library call's is unknown: x 0). */
bool gp_problem_block_varies(const gp_problem_span *p);

/* What a sweep can vary: the block (its threads), the problem size, or the parameter of a
 * family of that name. */
typedef enum {
    GP_SWEEP_NONE = -1,          /* no parameter varies, or several do */
    GP_SWEEP_BLOCK,
    GP_SWEEP_N,
    GP_SWEEP_PAD,
    GP_SWEEP_GROUP,
    GP_SWEEP_GRID,
    GP_SWEEP_PARAMS
} gp_sweep_param;

/* "block", "n", "pad", "group", "grid". */
const char *gp_sweep_param_name(gp_sweep_param p);
/* The result's value of the parameter: threads per block, n, or the family's parameter (NAN
 * where it does not apply). */
double gp_sweep_value(const gp_result *res, gp_sweep_param p);

/* The results of one variant (family, variant and type; and file, when the merged files come
 * from different GPUs or versions), in order of the parameter they sweep when there is one,
 * else in the report's order. */
typedef struct {
    const size_t *results;       /* indices into the report's results */
    size_t n;
    gp_sweep_param param;
} gp_sweep;

typedef struct {
    gp_sweep *sweeps;            /* in order of their first result */
    size_t n_sweeps;
    size_t *indices;             /* every result, sweep by sweep: what the sweeps point into */
} gp_sweeps;

int gp_sweeps_find(const gp_report *r, gp_sweeps *out);
void gp_sweeps_free(gp_sweeps *s);

/* A two-parameter sweep (src/report/sweep_grids.c): a sweep that varies in exactly two
 * parameters (the block's shape, the problem size, the family's), each pair of values once,
 * as a grid of its results' GB/s. An axis is one parameter's distinct values over the sweep,
 * as the page writes them ("32x8", "16777216", "2"): numbers in order, block shapes as first
 * met. */
#define GP_HEAT_VALUE_LEN 32
#define GP_HEAT_MAX_VALUES 64            /* of one parameter in a grid */

typedef struct {
    const char *name;                /* "block", "n", "pad" */
    char values[GP_HEAT_MAX_VALUES][GP_HEAT_VALUE_LEN];
    size_t n;
    size_t missing;                  /* results it does not apply to (NAN, no block) */
    bool overflow;                   /* more than GP_HEAT_MAX_VALUES */
} gp_heat_axis;

typedef struct {
    const gp_sweep *sweep;
    gp_heat_axis rows, cols;
    double *values;                  /* rows.n x cols.n, NAN where no result */
} gp_heat_grid;

typedef struct {
    gp_sweeps sweeps;                /* what the grids' sweeps point into */
    gp_heat_grid *grids;             /* in order of their sweeps */
    size_t n;
} gp_heat_grids;

int gp_heat_grids_find(const gp_report *r, gp_heat_grids *out);
void gp_heat_grids_free(gp_heat_grids *h);

#endif
