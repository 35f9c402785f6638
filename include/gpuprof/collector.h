/* A profiler set up for a --metrics request: which metrics the chip provides, the counters
 * they need (and the clock counters every result reports), and the metric values of one
 * range or of several summed. The kernel commands drive it with user replay, exec with
 * kernel replay. */
#ifndef GPUPROF_COLLECTOR_H
#define GPUPROF_COLLECTOR_H

#include "gpuprof/metrics.h"
#include "gpuprof/profiler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_MAX_COUNTERS 96

typedef struct {
    const gp_metric_def *def;              /* NULL: a raw PerfWorks name */
    char raw_name[GP_METRIC_NAME_LEN];
    char raw_unit[32];
    const char *missing;                   /* first input the chip lacks; NULL: available */
} gp_selected_metric;

/* Metrics one collector selects at most: every catalogue row and a list's raw names. */
#define GP_MAX_SELECTED (GP_MAX_METRIC_NAMES + GP_MAX_CATALOGUE)

#define GP_MAX_GROUPS 16

/* Counters one configuration collects together: a one-pass group (passes 1) collects them
 * without any replay, in the program's own run of a kernel; a group of more passes holds the
 * inputs of a metric that takes several passes on its own. Counters are named by their
 * index in the collector's list; a counter may belong to several groups. */
typedef struct {
    size_t counters[GP_MAX_COUNTERS];
    const char *names[GP_MAX_COUNTERS];    /* the same counters by name, for the profiler */
    size_t n_counters;
    int passes;
    bool sass;                             /* it holds SASS counters (smsp__sass_*) */
    size_t config;                         /* its profiler configuration (with a profiler) */
} gp_counter_group;

/* Which groups a launch's values come from: bit g for group g. */
typedef uint32_t gp_group_mask;

/* Never copied: its counter names point into itself and into the catalogue. exec's parent
 * rebuilds one from the records, without a profiler, to derive the metrics. */
typedef struct {
    gp_profiler *profiler;
    char chip[32];
    gp_metrics_kind kind;
    gp_selected_metric metrics[GP_MAX_SELECTED];
    size_t n_metrics;
    const char *counters[GP_MAX_COUNTERS];
    size_t n_counters;
    int passes;                            /* of every counter together */
    gp_counter_group groups[GP_MAX_GROUPS];  /* after gp_collector_split; none before */
    size_t n_groups;
} gp_collector;

/* CUPTI for the device, the metrics chosen for its chip, the configuration built: all that
 * needs no context. On failure nothing is held and the error is recorded. */
int gp_collector_open(int device, const gp_metrics_request *req, gp_collector **out);
/* The same for a chip named without a GPU (e.g. "GH100"): metrics, counters, configurations
 * and pass counts, nothing to attach. */
int gp_collector_open_chip(const char *chip, const gp_metrics_request *req, gp_collector **out);
/* Split the counters into groups of one pass each, in catalogue order, first fit: a metric's
 * inputs stay in one group, and the clock counters form a unit too. Each group becomes a
 * profiler configuration (configuration 0 stays every counter together). Needs no GPU; each
 * trial builds a configuration image (about 4 ms on GH100). */
int gp_collector_split(gp_collector *c);
/* Whether the collector's counters include SASS counters, which CUPTI counts by
 * instrumenting the kernel's code. */
bool gp_collector_has_sass(const gp_collector *c);
/* The counters of the groups in `mask`: collected[i] for counter i. */
void gp_collector_collected(const gp_collector *c, gp_group_mask mask, bool *collected);
/* Start collecting on a context (a CUcontext); see gp_profiler_attach. */
int gp_collector_attach(gp_collector *c, void *context, gp_replay replay, size_t ranges);
void gp_collector_close(gp_collector *c);

/* Add one range's counter values to running sums (first: start them); per-chip constants
 * (peak rates) are taken, not added. */
void gp_collector_accumulate(const gp_collector *c, double *sums, const double *values,
                             bool first);
/* The metric set of counter values (in c->counters order) of one range (n_ranges == 1) or
 * summed over several. */
int gp_collector_metric_set(const gp_collector *c, const double *values, size_t n_ranges,
                            gp_metric_set *out);
/* The same for a launch that collected only some counters (collected[i]): those counters,
 * and every metric, n/a (GP_NOT_IN_THIS_PASS) where the launch lacks one of its inputs. */
int gp_collector_partial_metric_set(const gp_collector *c, const double *values,
                                    const bool *collected, gp_metric_set *out);

/* The catalogue against a chip named without a GPU: each metric's availability (the first
 * input the chip lacks; n: the catalogue's rows), the passes of each group (0: the chip has
 * none of its metrics) and of `all`. */
int gp_collector_chip_summary(const char *chip, gp_metric_availability *avail, size_t n,
                              int passes[GP_METRIC_GROUPS], int *passes_all);

#endif
