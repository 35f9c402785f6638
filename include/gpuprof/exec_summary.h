/* gpuprof exec's per-kernel summary, as nvprof printed it: for each kernel (by name) its
 * launches, their times, and each metric's minimum, average and maximum over the profiled
 * launches. Derived from the launches whenever a report is rendered. */
#ifndef GPUPROF_EXEC_SUMMARY_H
#define GPUPROF_EXEC_SUMMARY_H

#include "gpuprof/report.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    gp_metric_value min, average, max;   /* their key and unit; valid when any launch had it */
    size_t launches;                      /* profiled launches that had a value */
    bool combined;                        /* no launch had every input (they were collected in
                                             different passes): the average is derived from
                                             each input's mean over the launches that had it,
                                             and `launches` is the fewest of those */
    bool undefined;                       /* a launch had every input, and no value (a zero
                                             denominator): nothing to combine */
} gp_metric_stats;

typedef struct {
    const char *kernel;                   /* points into the report's launches */
    size_t calls, profiled, timed;        /* timed: launches whose duration is known */
    double total_ms;                      /* calls x average_ms: every launch counts, timed
                                             or not (rotation leaves some untimed); NAN
                                             when none was timed */
    bool total_estimated;                 /* some launch, not all, was timed: total_ms is
                                             an estimate */
    double average_ms, min_ms, max_ms;    /* over the timed launches; NAN when none */
    double time_percent;                  /* of all kernels' totals; NAN without a total */
    uint32_t passes;                      /* the one-pass groups its launches collected */
    gp_metric_stats *metrics;
    size_t n_metrics;
} gp_exec_kernel;

/* One entry per kernel name, the most time (total_ms) first; those without a total last. */
int gp_exec_summarize(const gp_exec_info *e, gp_exec_kernel **out, size_t *n);
void gp_exec_summary_free(gp_exec_kernel *k, size_t n);
/* Whether any kernel's total is an estimate. */
bool gp_exec_any_estimated(const gp_exec_kernel *k, size_t n);
/* What such a total is, for the formats' legends. */
#define GP_EXEC_ESTIMATE_NOTE                                                                  \
    "an estimate, calls x the mean of the timed launches (a launch whose counter group lacks " \
    "the duration, or the one --source patched, is not timed)"
/* Launches profiled in all. */
size_t gp_exec_profiled(const gp_exec_info *e);
/* How exec's counters were collected, in a few words: "kernel replay" (several passes) or
 * "one pass, no replay" (one; see src/inject/sessions.h) for reports without rotation,
 * else what the --replay mode did. */
void gp_exec_describe_replay(const gp_profiler_info *p, char *buf, size_t len);
/* --replay=auto's decision from the device memory in use, and the figures, in a sentence;
 * false (buf untouched) when the report has none. */
bool gp_exec_describe_footprint(const gp_profiler_info *p, char *buf, size_t len);
/* Whether the report's launches rotated over one-pass groups. */
bool gp_exec_rotated(const gp_profiler_info *p);
/* "2/2": of the report's one-pass groups, how many a mask of them holds. */
void gp_exec_describe_passes(const gp_profiler_info *p, uint32_t passes, char *buf, size_t len);

/* "; rank 1 of 2 (from RANK)": `lead` then the rank, its world size and where it came from,
 * into buf. */
void gp_exec_describe_rank(const gp_exec_rank *k, const char *lead, char *buf, size_t len);

#endif
