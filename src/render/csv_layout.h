/* The columns of a CSV document: every column its command can have, in order (the header
 * that does not move), and the ones --csv-columns chose. A column is a fixed cell of the
 * document, a family parameter, or a metric (one value, or a kernel's minimum, average or
 * maximum over its launches). csv.c says which columns each document has and fills the
 * cells; this file keeps the list, resolves the choice and writes header and rows. */
#ifndef GPUPROF_RENDER_CSV_LAYOUT_H
#define GPUPROF_RENDER_CSV_LAYOUT_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum {
    GP_CSV_FIXED,        /* one of the document's own cells, by index */
    GP_CSV_PARAM,        /* a family parameter of a result, by name */
    GP_CSV_METRIC,       /* a metric's value, by key */
    GP_CSV_METRIC_MIN,   /* a kernel's metric over its profiled launches */
    GP_CSV_METRIC_AVG,
    GP_CSV_METRIC_MAX
} gp_csv_column_kind;

typedef struct {
    char name[GP_NAME_LEN + 8];
    gp_csv_column_kind kind;
    size_t fixed;                /* GP_CSV_FIXED: the cell's index */
    char key[GP_NAME_LEN];       /* the parameter's name or the metric's key */
} gp_csv_column;

typedef struct {
    gp_csv_column *columns;      /* every column the document has, in order */
    size_t n, capacity;
    size_t *chosen;              /* what is written: indices into columns */
    size_t n_chosen;
    bool stats;                  /* metrics as _min, _avg, _max (a row per exec kernel) */
} gp_csv_layout;

/* What one row holds; the cells a column of the layout reads. */
typedef struct {
    const char *const *fixed;    /* the fixed cells' text, "" when empty */
    const gp_result *result;     /* GP_CSV_PARAM */
    const gp_metric_set *metrics;        /* GP_CSV_METRIC */
    const gp_exec_kernel *kernel;        /* GP_CSV_METRIC_MIN/AVG/MAX */
} gp_csv_row;

void gp_csv_layout_free(gp_csv_layout *l);
/* The document's own cells, named in order. */
int gp_csv_layout_fixed(gp_csv_layout *l, const char *const *names, size_t n);
/* The cells names[first] to names[end - 1], after the columns so far (cells added to a
 * document later go last, so that no earlier column moves). */
int gp_csv_layout_fixed_from(gp_csv_layout *l, const char *const *names, size_t first,
                             size_t end);
/* A parameter's column: its name, with "_param" where another column has it (saxpy's grid
 * beside the launch grid). Once per name. */
int gp_csv_layout_param(gp_csv_layout *l, const char *name);
/* A metric's column, or with stats its three; once per key. */
int gp_csv_layout_metric(gp_csv_layout *l, const char *key);
/* Every metric of the catalogue, in its order. */
int gp_csv_layout_catalogue(gp_csv_layout *l);
/* The columns --csv-columns lists (NULL: every column, in order). An unknown, repeated or
 * empty name is a usage error with a suggestion. A PerfWorks counter's name (it holds "__"),
 * with _min, _avg or _max where the layout has stats, is a metric column of its own. */
int gp_csv_layout_choose(gp_csv_layout *l, const char *list);

void gp_csv_layout_header(FILE *out, const gp_csv_layout *l);
void gp_csv_layout_row(FILE *out, const gp_csv_layout *l, const gp_csv_row *row);

/* A number's cell: "%.10g", or "" when not finite. */
void gp_csv_number(char *buf, size_t len, double v);

#endif
