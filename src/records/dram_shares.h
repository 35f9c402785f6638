/* gpuprof exec: the DRAM traffic a sampled CUDA graph launch's PM samples (its `P` lines)
 * give each of its kernel nodes, and how far that share can be trusted. Pure functions: no
 * records, no report, no CUPTI. */
#ifndef GPUPROF_RECORDS_DRAM_SHARES_H
#define GPUPROF_RECORDS_DRAM_SHARES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The limits measured on an H100 (docs/replay-notes.md, "PM sampling"): 1 µs samples
 * apportioned by activity records read within 0.2 % at 16 µs, 0.9 % (max 2.9 %) at 5 µs,
 * 3.8 % (max 11.6 %) at 2.4 µs; with 5 µs samples 4.8-56 %, i.e. a kernel of about one
 * interval is not measured at all. */
#define GP_DRAM_MIN_INTERVALS 2        /* shorter than this many intervals: n/a */
#define GP_DRAM_EXACT_US 5             /* shorter: approximate (~12 % off at worst) */
#define GP_DRAM_EXACT_NS (GP_DRAM_EXACT_US * 1000u)
#define GP_TEXT_OF(x) #x
#define GP_TEXT(x) GP_TEXT_OF(x)       /* a number macro as text, for the notes */

/* One PM-sampling interval of DRAM traffic on the device (a `P` line). */
typedef struct {
    uint64_t start_ns, end_ns;
    double read_bytes, write_bytes;
} gp_dram_sample;

/* A sampled graph launch: its window, interval and samples in time order. */
typedef struct {
    uint64_t start_ns, end_ns;         /* the sampling window */
    uint64_t interval_ns;
    bool complete;                     /* false: samples were lost */
    const gp_dram_sample *samples;
    size_t n_samples;
} gp_dram_sampling;

/* How a node's share came out, from the best to the worst. */
typedef enum {
    GP_DRAM_SAMPLED,                   /* reads as measured; writes approximate */
    GP_DRAM_APPROXIMATE,               /* shorter than GP_DRAM_EXACT_NS */
    GP_DRAM_NA_OUTSIDE,                /* not inside the sampling window */
    GP_DRAM_NA_LOST,                   /* the window lost samples */
    GP_DRAM_NA_SHORT,                  /* shorter than GP_DRAM_MIN_INTERVALS intervals */
    GP_DRAM_NA_OVERLAP,                /* other work on the device ran beside it */
    GP_DRAM_QUALITIES
} gp_dram_quality;

/* A node's share: bytes NAN when the quality is n/a. */
typedef struct {
    double read_bytes, write_bytes;
    gp_dram_quality quality;
} gp_dram_share;

/* The share of the node that ran in [start_ns, end_ns]: each sample weighted by the fraction
 * of it the node covers. `overlapped`: another kernel, copy or memset on the device ran at
 * the same time (gp_mark_overlaps). */
gp_dram_share gp_dram_apportion(const gp_dram_sampling *s, uint64_t start_ns, uint64_t end_ns,
                                bool overlapped);

bool gp_dram_is_known(gp_dram_quality q);

/* The share's note for the report ("DRAM sampled (1 µs): writes approximate (L2 write-back
 * lands later)", "DRAM n/a: overlaps other work on the device", ...), for a node of
 * duration_ns sampled every interval_ns. */
void gp_dram_note(gp_dram_quality q, uint64_t duration_ns, uint64_t interval_ns, char *note,
                  size_t size);

/* Something that ran on a device: a kernel, a copy or a memset. `tag` is the caller's. */
typedef struct {
    int device;
    uint64_t start_ns, end_ns;
    size_t tag;
    bool overlapped;                   /* set by gp_mark_overlaps */
} gp_busy_interval;

/* Consecutive nodes of a graph were recorded sharing up to about a microsecond on the H100
 * (one ends after the next one starts, in the activity records' timestamps): a sharing this
 * short is not an overlap. It is one sampling interval, whose sample the apportioning splits
 * by time anyway. */
#define GP_OVERLAP_SLACK_NS 1000u

/* Sort the intervals by device and start, and mark each that shares time with another on
 * its device by more than GP_OVERLAP_SLACK_NS (touching ends do not; an interval that ends before it starts has no known time
 * and overlaps nothing). */
void gp_mark_overlaps(gp_busy_interval *v, size_t n);

#endif
