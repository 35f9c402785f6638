/* What the renderers share: metric values with the precision their unit deserves, the
 * metric columns of a table and their cells, launch shapes, a problem's heading, CSV
 * fields. */
#ifndef GPUPROF_TEXT_CELLS_H
#define GPUPROF_TEXT_CELLS_H

#include "gpuprof/group.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/report.h"
#include "render/text_layout.h"

#include <stdbool.h>
#include <stdio.h>

#define GP_TEXT_MAX_COLUMNS 32

/* The one unit rule of every format, for the text's legends: data moved and rates are
 * decimal; memory capacity (a GPU's memory, the memory a program holds) is binary and says
 * so (GiB, MiB). */
#define GP_TEXT_UNITS "decimal units: 1 MB = 10^6 bytes, 1 GB = 10^9 bytes, GB/s = 10^9 bytes/s"
/* "850ns", "3.80us", "12.35ms", "1.20s"; "-" when unknown (negative or not finite). */
/* A kernel's name in a --kernel-name style for text, its control characters shown as '?'. */
void gp_text_kernel_name(char *buf, size_t len, const char *kernel, gp_kernel_name_style style);
void gp_text_format_time(char *buf, size_t len, double ms);
/* "4.19MB": bytes in decimal units (1 MB = 10^6 bytes), "-" when unknown. */
void gp_text_format_bytes(char *buf, size_t len, double bytes);
/* A kernel's total time, "~12.35ms" where it is an estimate (gpuprof/exec_summary.h). */
void gp_text_format_total(char *buf, size_t len, double ms, bool estimated);
/* Under a text table with an estimated total: what its "~" means, wrapped to the width. */
void gp_text_estimate_note(FILE *out, size_t width);
/* The table's metric columns, taken from one metric set: the catalogue's table metrics with
 * each per-request value's ideal beside it, or every metric when the user listed them (the
 * HTML tables'). */
size_t gp_text_metric_columns(const gp_metric_set *s, bool listed, const char **keys,
                              const char **labels);

/* A metric column of the text tables: its key, short label and description. */
typedef struct {
    const char *key, *label, *description;
} gp_text_metric;
/* Which metric columns a table over several metric sets shows: with the default set the
 * catalogue's table metrics (GP_TABLE_METRICS), with each its ideal beside it where the table
 * has room (GP_TABLE_METRICS_IDEALS); else (GP_EVERY_METRIC: all, a group, a list) every
 * metric measured. */
typedef enum { GP_TABLE_METRICS, GP_EVERY_METRIC, GP_TABLE_METRICS_IDEALS } gp_metric_columns;
/* Those columns: the catalogue's in its order, then raw PerfWorks names as first met. */
size_t gp_text_table_metrics(const gp_metric_set *const *sets, size_t n_sets,
                             gp_metric_columns which, gp_text_metric *cols, size_t max);

/* A problem's heading, text's and the page's: its family, type, size (`size`, as the view
 * words it), the bytes it moves at least (decimal MB, as the GB/s beside it) and the
 * parameters every one of its results shares ("reduce int32, 16777216 (2^24), 67.1 MB moved
 * at least, group 16"). */
void gp_problem_text(char *buf, size_t len, const gp_problem_span *pr, const char *size);

/* A CSV field, quoted as RFC 4180 says when it holds a comma, quote or line break; preceded
 * by a comma unless it is the first of its line. */
void gp_csv_field(FILE *out, const char *s, bool first);
/* A program's command line as one string a shell reads back (words with spaces or quotes
 * single-quoted), allocated: free it. NULL when out of memory. */
char *gp_command_line_text(char *const *argv, size_t argc);


/* Metric notes, each distinct note once with the metrics it is about (and, in a table of
 * several kernels, the kernels), so that a note shared by several metrics (cp.async's) is not
 * repeated under each of them. */
#define GP_TEXT_MAX_NOTES 8
typedef struct {
    const char *note[GP_TEXT_MAX_NOTES];     /* point into the values, or constant */
    char keys[GP_TEXT_MAX_NOTES][512];       /* "gld_efficiency, gld_throughput" */
    char kernels[GP_TEXT_MAX_NOTES][128];    /* "#1, #2"; "" in one kernel's block */
    size_t n;
} gp_text_metric_notes;
/* The value's note, if it has one, for the metric's key. */
void gp_text_metric_notes_add(gp_text_metric_notes *n, const gp_metric_value *v);
/* A note about metric `key` of kernel #`number` (0: a block's one kernel, unnamed). */
void gp_text_metric_note_add(gp_text_metric_notes *n, const char *note, const char *key,
                             size_t number);
/* Note i's line: "* #1, #2 gld_efficiency, gld_throughput: loads via ...". */
void gp_text_metric_note_line(const gp_text_metric_notes *n, size_t i, char *buf, size_t len);
/* Each note as a line across the table, indented; the notes are then emptied. */
void gp_text_metric_notes_rows(gp_text_metric_notes *n, gp_text_table *t, int indent);

#endif
