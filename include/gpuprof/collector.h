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

#define GP_MAX_COUNTERS 96

typedef struct {
    const gp_metric_def *def;              /* NULL: a raw PerfWorks name */
    char raw_name[GP_METRIC_NAME_LEN];
    char raw_unit[32];
    const char *missing;                   /* first input the chip lacks; NULL: available */
} gp_selected_metric;

/* Never copied: its counter names point into itself and into the catalogue. exec's parent
 * rebuilds one from the records, without a profiler, to derive the metrics. */
typedef struct {
    gp_profiler *profiler;
    char chip[32];
    gp_metrics_kind kind;
    gp_selected_metric metrics[GP_MAX_METRIC_NAMES + 32];
    size_t n_metrics;
    const char *counters[GP_MAX_COUNTERS];
    size_t n_counters;
    int passes;
} gp_collector;

/* CUPTI for the device, the metrics chosen for its chip, the configuration built: all that
 * needs no context. On failure nothing is held and the error is recorded. */
int gp_collector_open(int device, const gp_metrics_request *req, gp_collector **out);
/* Start collecting on a context (a CUcontext); see gp_profiler_attach. */
int gp_collector_attach(gp_collector *c, void *context, gp_replay replay, size_t ranges);
void gp_collector_close(gp_collector *c);
/* The profiler's part of a report: chip, passes, metric set. */
void gp_collector_describe(const gp_collector *c, gp_profiler_info *info);

/* Add one range's counter values to running sums (first: start them); per-chip constants
 * (peak rates) are taken, not added. */
void gp_collector_accumulate(const gp_collector *c, double *sums, const double *values,
                             bool first);
/* The metric set of counter values (in c->counters order) of one range (n_ranges == 1) or
 * summed over several. */
int gp_collector_metric_set(const gp_collector *c, const double *values, size_t n_ranges,
                            gp_metric_set *out);

/* The catalogue against a chip named without a GPU: each metric's availability (the first
 * input the chip lacks), and the passes of the default and full sets. */
int gp_collector_chip_summary(const char *chip, gp_metric_availability *avail, size_t n,
                              int *passes_default, int *passes_all);

#endif
