/* What the renderers share: metric values with the precision their unit deserves, the
 * metric columns of a table and their cells, launch shapes, CSV fields, a compared row's
 * metrics. */
#ifndef GPUPROF_TEXT_CELLS_H
#define GPUPROF_TEXT_CELLS_H

#include "gpuprof/compare.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdio.h>

#define GP_TEXT_MAX_COLUMNS 32

/* "4.00", "12.5", "n/a" (NULL or not valid). */
void gp_text_format_value(char *buf, size_t len, const gp_metric_value *m);
/* "-" (unknown), "512", "32x16". */
void gp_text_format_dim(char *buf, size_t len, gp_dim3 d, bool two_d);
/* The table's metric columns, taken from one metric set: the catalogue's table metrics, or
 * every metric when the user listed them. */
size_t gp_text_metric_columns(const gp_metric_set *s, bool listed, const char **keys,
                              const char **labels);
/* A column's width: its label's, at least 9. */
int gp_text_column_width(const char *label);
void gp_text_column_titles(FILE *out, const char **labels, size_t n);
/* The cells of one row (a metric missing from the set: n/a), without the end of line. */
void gp_text_metric_cells(FILE *out, const gp_metric_set *s, const char **keys,
                          const char **labels, size_t n);

/* A CSV field, quoted as RFC 4180 says when it holds a comma, quote or line break; preceded
 * by a comma unless it is the first of its line. */
void gp_csv_field(FILE *out, const char *s, bool first);
/* A program's command line as one string a shell reads back (words with spaces or quotes
 * single-quoted), allocated: free it. NULL when out of memory. */
char *gp_command_line_text(char *const *argv, size_t argc);

/* A side's value of a compared metric: NAN when it has none or it is not valid. */
double gp_compare_side_value(const gp_compare_side *s, const char *key);
/* Whether a row's metric changed by more than the threshold, or from 0 to anything: those
 * compare lists under the row. *base and *next get its two values. */
bool gp_compare_metric_changed(const gp_compare_row *row, const char *key,
                               double threshold_pct, double *base, double *next);

#endif
