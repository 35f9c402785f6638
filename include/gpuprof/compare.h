/* gpuprof compare BASE NEW: the results of two reports matched by what identifies them, with
 * the change in time and in each metric, and a verdict on each timing change that takes both
 * runs' noise into account. Plain data, rendered by the renderers. */
#ifndef GPUPROF_COMPARE_H
#define GPUPROF_COMPARE_H

#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

#define GP_COMPARE_DEFAULT_THRESHOLD 5.0   /* %: below this no change is significant */
#define GP_COMPARE_MAX_KEYS 12
/* A key's value: room for the demangled C++ names of exec reports' kernels, which run to
 * hundreds of characters and often share a long start (namespaces, template arguments), so
 * that a row is named in full. A longer name is cut in the middle; rows are still matched
 * on the whole name. */
#define GP_COMPARE_VALUE_LEN 1024
/* A row's keys joined (gp_compare_label): one long value and the short others. */
#define GP_COMPARE_LABEL_LEN (2 * GP_COMPARE_VALUE_LEN)

typedef enum {
    GP_CHANGE_SAME = 0,          /* matched; the time changed by no more than the bound */
    GP_CHANGE_FASTER,            /* significantly faster */
    GP_CHANGE_SLOWER,            /* significantly slower: a regression */
    GP_CHANGE_ONLY_BASE,         /* in the base report only */
    GP_CHANGE_ONLY_NEW           /* in the new report only */
} gp_change;

/* One side of a row: a kernel command's result, or an exec report's kernel at one launch
 * shape (its launches' median duration and spread, its metrics' averages). */
typedef struct {
    bool present;
    double time_ms;              /* median */
    double min_ms, max_ms;       /* the fastest and slowest repeat or launch; NAN: unknown */
    double noise_pct;            /* NAN: unknown */
    double gbps;                 /* NAN: unknown (exec reports) */
    size_t launches;             /* exec: timed launches of this kernel and shape; else 0 */
    gp_metric_value *metrics;    /* owned copies */
    size_t n_metrics;
} gp_compare_side;

/* A name/value pair of what identifies a row: family, variant, type, size, each parameter,
 * block; for exec reports kernel, grid, block. */
typedef struct {
    char name[32];
    char value[GP_COMPARE_VALUE_LEN];
} gp_compare_key;

typedef struct {
    gp_compare_key keys[GP_COMPARE_MAX_KEYS];
    size_t n_keys;
    gp_compare_side base, next;
    double change_pct;           /* median time, new against base, in %; NAN when unmatched */
    double bound_pct;            /* what |change| had to exceed: the threshold and both noises */
    gp_change verdict;
    size_t number;               /* exec: the kernel's #N in the base report's views, or for a
                                    kernel only the new report ran in the new one's
                                    (number_is_new); 0 for kernel commands */
    bool number_is_new;
    char label[GP_COMPARE_VALUE_LEN]; /* exec: the kernel's label (gpuprof/short_names.h) in
                                         the report that numbers it; else "" */
} gp_compare_row;

typedef struct {
    const gp_report *base, *next;
    const char *base_file, *next_file;
    double threshold_pct;
    bool exec;                   /* both are exec reports */
    bool same_device;            /* both ran on a GPU of the same name */
    gp_compare_row *rows;        /* base's order, then what only the new report has */
    size_t n_rows;
    size_t n_same, n_faster, n_slower, n_only_base, n_only_new;
} gp_comparison;

/* Match and judge. Fails (usage) when one is an exec report and the other is not. */
int gp_compare_reports(const gp_report *base, const char *base_file, const gp_report *next,
                       const char *next_file, double threshold_pct, gp_comparison *out);
void gp_comparison_free(gp_comparison *c);

const char *gp_change_name(gp_change c);   /* "same", "faster", "slower", "only-base", … */

/* A row's labels (src/report/compare_labels.c); a buffer of GP_COMPARE_LABEL_LEN holds any
 * row's. Its keys joined for people: "reduce neighbored int32 n=16777216 block=512". */
void gp_compare_label(const gp_compare_row *row, char *buf, size_t len);
/* The page's: an exec row's kernel number first ("#2 ", "new#3 "), a library call's shape
 * that was not captured (block -) left out. */
void gp_compare_full_label(const gp_compare_row *row, char *buf, size_t len);

/* The keys every matched row has with the same value ("reduce", "int32", "size=..."): the
 * page's chart says them once in its caption, and its bars' labels keep what differs. */
typedef struct {
    const gp_compare_key *keys[GP_COMPARE_MAX_KEYS];
    size_t n;
} gp_compare_common;
void gp_compare_common_keys(const gp_comparison *c, gp_compare_common *ck);
/* Those keys joined (the caption's words); "" when there are none. */
void gp_compare_common_label(const gp_compare_common *ck, char *buf, size_t len);
/* A matched row's label on the chart: as gp_compare_full_label, but without the common keys
 * (unless they are all it has), an exec kernel by its label. */
void gp_compare_chart_label(const gp_compare_common *ck, const gp_compare_row *row, char *buf,
                            size_t len);

/* A side's value of a compared metric: NAN when it has none or it is not valid. */
double gp_compare_side_value(const gp_compare_side *s, const char *key);
/* Whether a row's metric changed by more than the threshold, or from 0 to anything: those
 * compare lists under the row. *base and *next get its two values. */
bool gp_compare_metric_changed(const gp_compare_row *row, const char *key,
                               double threshold_pct, double *base, double *next);

#endif
