/* The metric catalogue: one row per metric, nvprof's name as the key where one exists.
 * Every metric is derived on the host from raw PerfWorks counters (.sum / .avg, plus
 * per-chip constants), so the same derivation serves one kernel and the sum of several. */
#ifndef GPUPROF_METRICS_H
#define GPUPROF_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#define GP_METRIC_MAX_INPUTS 4
#define GP_MAX_METRIC_NAMES 64   /* metric keys or raw names in one --metrics list */
#define GP_METRIC_NAME_LEN 128
#define GP_MAX_CATALOGUE 64      /* rows of the catalogue at most (a unit test holds it) */

/* Each catalogue metric is in one group; --metrics names groups, keys and raw names. The
 * default group is the cheap classic set; `all` is every group. */
typedef enum {
    GP_GROUP_DEFAULT = 0,
    GP_GROUP_LOCAL,              /* local memory: register spills, local arrays */
    GP_GROUP_L2,                 /* what reaches L2 and how L1 and L2 serve it */
    GP_GROUP_ATOMICS,            /* global atomics and reductions */
    GP_GROUP_SYSMEM,             /* host memory the kernel reads or writes (zero-copy) */
    GP_GROUP_ASYNC,              /* cp.async (LDGSTS) and TMA */
    GP_GROUP_ALL_ONLY,           /* in no named group: only `all`, or its key, selects it */
    GP_METRIC_GROUPS
} gp_metric_group;

#define GP_GROUP_BIT(g) (1u << (unsigned)(g))

/* Global traffic that bypasses the classic load/store counters: a metric blind to a path
 * says so in a note when the kernel used it. */
enum {
    GP_PATH_CP_ASYNC = 1 << 0, GP_PATH_TMA_LOAD = 1 << 1, GP_PATH_TMA_STORE = 1 << 2,
    GP_PATH_WGMMA = 1 << 3
};

typedef enum {
    GP_METRICS_DEFAULT = 0,
    GP_METRICS_ALL,
    GP_METRICS_NONE,
    GP_METRICS_LIST
} gp_metrics_kind;

/* What --metrics asked for: a set, or a list of groups, catalogue keys and raw PerfWorks
 * names. */
typedef struct {
    gp_metrics_kind kind;
    unsigned groups;             /* GP_GROUP_BIT of each group a list names */
    char names[GP_MAX_METRIC_NAMES][GP_METRIC_NAME_LEN];
    size_t n_names;
} gp_metrics_request;

/* A catalogue metric on one chip: whether the chip has its inputs (else the first missing). */
typedef struct {
    bool available;
    const char *missing;
} gp_metric_availability;

/* "default", "all", "list" or "none". */
const char *gp_metrics_kind_name(gp_metrics_kind kind);
/* A group's name ("default", "local", ..., and "all" for GP_GROUP_ALL_ONLY). */
const char *gp_metric_group_name(gp_metric_group g);
/* A group --metrics can name (not "all", which is no group but every metric). */
bool gp_metric_group_from_name(const char *name, gp_metric_group *g);

typedef struct {
    const char *key;           /* e.g. "gld_transactions_per_request" */
    const char *label;         /* short column header for the text table */
    const char *unit;
    const char *description;
    const char *inputs[GP_METRIC_MAX_INPUTS];
    size_t n_inputs;
    /* value from the inputs' values; NAN with *why set when undefined (zero denominator) */
    double (*derive)(const double *in, const char **why);
    const char *formula;       /* how it is derived, for `gpuprof metrics` and the man page */
    const char *ncu_metric;    /* Nsight Compute's metric for the same quantity */
    double ncu_scale;          /* ours = ncu value × ncu_scale */
    gp_metric_group group;
    bool in_table;             /* shown as a column of the text table */
    const char *ideal_of;      /* the per-request metric this is the ideal of: shown beside
                                  it where a table has room (exec's metric table, HTML) */
    bool where_used;           /* of another group, but collected by the default set too (it
                                  fits its passes), and a column of its tables where a kernel
                                  used its path: cp.async's sectors beside the loads' */
    unsigned blind_to;         /* GP_PATH_* whose traffic its counters do not see */
    bool can_pass_100;         /* bytes asked for over bytes moved, which the counters can
                                  put above 100 % (a note says so; docs/cupti.md, 7.4) */
} gp_metric_def;

/* ---- measured values ---------------------------------------------------------------------- */

#define GP_NAME_LEN 128          /* a counter's, metric's or kernel's name in a report */
#define GP_TEXT_LEN 256          /* a reason or detail in a report */

typedef struct {
    char name[GP_NAME_LEN];
    double value;
} gp_counter;

/* One metric of one kernel (or of several summed): its value, or why it has none. */
typedef struct {
    char key[GP_NAME_LEN];
    char unit[32];
    bool valid;
    double value;
    char why[GP_TEXT_LEN];       /* when not valid */
    char note[GP_TEXT_LEN];      /* valid or not: what the value leaves out, or why it is
                                    unusual; "" when nothing */
    char inputs[4][GP_NAME_LEN];
    size_t n_inputs;
} gp_metric_value;

/* The raw counters and the metrics derived from them. */
typedef struct {
    gp_counter *counters;
    size_t n_counters;
    gp_metric_value *metrics;
    size_t n_metrics;
} gp_metric_set;

void gp_metric_set_free(gp_metric_set *s);
/* Why a launch that collected one pass of several has no value of a metric. */
#define GP_NOT_IN_THIS_PASS "not collected in this launch: its pass held other counters"
/* Add counters to a set (those it has keep their values), then derive again each metric
 * that was GP_NOT_IN_THIS_PASS and now has its inputs: the passes of one launch collected in
 * several runs of a program (exec --replay=application). */
int gp_metric_set_add_counters(gp_metric_set *s, const gp_counter *counters, size_t n);
/* A counter's value in a metric set by name; NAN when it is not there. */
double gp_metric_set_counter(const gp_metric_set *s, const char *name);

const gp_metric_def *gp_metric_catalogue(size_t *count);
const gp_metric_def *gp_find_metric(const char *key);

/* Counters that are per-chip constants: not summed when launches are aggregated. */
bool gp_counter_is_constant(const char *counter);
/* SASS counters (smsp__sass_*): CUPTI counts them by instrumenting the kernel's code, so
 * they are fixed by the instructions it executes. */
bool gp_counter_is_sass(const char *counter);
/* Counters gpuprof always collects alongside metrics: kernel duration and clocks. */
extern const char *const gp_clock_counters[];
extern const size_t gp_n_clock_counters;

/* Derive one metric from counter values looked up by name in (names, values).
 * Returns false and sets *why when an input is missing or the value is undefined. */
bool gp_metric_derive(const gp_metric_def *m, const char *const *names, const double *values,
                      size_t n, double *out, const char **why);
/* The counters a metric's notes read besides its inputs (at most GP_METRIC_MAX_INPUTS). */
size_t gp_metric_note_counters(const gp_metric_def *m, const char **out);
/* The metric's note from counter values (a counter absent or NAN says nothing) and its
 * value: the paths it is blind to that the kernel used, a value above 100 % explained. */
void gp_metric_note(const gp_metric_def *m, const char *const *names, const double *values,
                    size_t n, bool valid, double value, char *buf, size_t len);

#endif
