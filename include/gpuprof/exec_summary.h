/* gpuprof exec's per-kernel summary, as nvprof printed it: for each kernel (by name, and by
 * code where one name ran several: its variants) its launches, their times, and each
 * metric's minimum, average and maximum over the profiled launches. Derived from the
 * launches whenever a report is rendered. */
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
    unsigned variant, variants;           /* its code's number among the kernel's codes
                                             (gp_exec_number_variants); 0, 0: one code */
    uint64_t code;                        /* that code (a cubin's CRC); 0: not known */
    size_t calls, profiled, timed;        /* timed: launches whose duration is known */
    double total_ms;                      /* calls x average_ms: every launch counts, timed
                                             or not (rotation leaves some untimed); NAN
                                             when none was timed */
    bool total_estimated;                 /* some launch, not all, was timed: total_ms is
                                             an estimate */
    double average_ms, min_ms, max_ms;    /* over the timed launches; NAN when none */
    double time_percent;                  /* of all kernels' totals; NAN without a total */
    double kernel_ms;                     /* the kernel's total over all its variants (its
                                             place in the summary) */
    char varying[GP_NAME_LEN];            /* an instruction-determined counter that differs
                                             between its launches of one shape (the code's
                                             arguments change its work); "" when none */
    double varying_min, varying_max;      /* that counter's range over those launches */
    uint32_t passes;                      /* the one-pass groups its launches collected */
    gp_metric_stats *metrics;
    size_t n_metrics;
} gp_exec_kernel;

/* One entry per kernel name and variant: the kernels with the most time (kernel_ms) first,
 * those without a total last, each kernel's variants together in their order (the most
 * calls first). */
int gp_exec_summarize(const gp_exec_info *e, gp_exec_kernel **out, size_t *n);

/* The variants of the report's kernels (gp_exec_launch.variant, .variants): a kernel whose
 * launches ran several codes (JIT compilation, autotuning: one name and launch shape,
 * different code) has one variant per code, numbered 1 to n by calls, the most first; a
 * launch of unknown code (0) beside one known code is that code's. After reading records,
 * loading or merging reports. GP_OK or out of host memory. */
int gp_exec_number_variants(gp_exec_info *e);
/* "variants: 2 kernels ran several codes (5 variants): ..." into buf, what the summary's
 * variant rows are and what made them; false (buf untouched) when no kernel has variants. */
bool gp_exec_describe_variants(const gp_exec_kernel *k, size_t n, char *buf, size_t len);
/* The note of each instruction-determined metric (its inputs all counted from the kernel's
 * instructions) of a kernel whose launches of one code and shape counted different
 * instructions (gp_exec_kernel.varying), after the counter and its range: "<counter> from
 * 131072 to 524288 ...". The metric's minimum and maximum are then its range, not noise. */
#define GP_VARYING_NOTE                                                                       \
    "between launches of one code and shape: the kernel's arguments change its work "         \
    "(minimum to maximum over the launches that collected it)"
void gp_exec_summary_free(gp_exec_kernel *k, size_t n);
/* Each kernel's metrics' averages as a metric set, (*sets)[i] for k[i], their values in one
 * block *values: for the views that choose columns or draw from them. free() both. */
int gp_exec_kernel_averages(const gp_exec_kernel *k, size_t nk, gp_metric_set **sets,
                            gp_metric_value **values);
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
