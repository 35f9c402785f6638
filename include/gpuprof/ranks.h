/* The rank view: `gpuprof report` of the exec reports of a distributed job's ranks (each
 * recorded its rank: gp_exec_rank), made one report whose kernels have a value per rank
 * instead of launches. Per kernel and rank, what the exec summary counts of the kernel
 * (gpuprof/exec_summary.h): its calls, its total time (calls x the mean of its timed
 * launches) and the DRAM bytes it read and wrote (calls x the means, over its profiled
 * launches, of dram_read_bytes and dram_write_bytes); per kernel, their minimum, median and
 * maximum over the ranks it ran on, and its slowest and fastest rank.
 *
 * The view is built by streaming (src/report/rank_merge.c): one file read, folded into the
 * view, freed, then the next; what it keeps is a few numbers per kernel and rank. It is plain
 * data, written as the report's `ranks` section and read back (src/report/load_ranks.c); what
 * is derived from the cells (gp_rank_view_derive) is written, and computed again when read. */
#ifndef GPUPROF_RANKS_H
#define GPUPROF_RANKS_H

#include "gpuprof/kernel_labels.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

/* One rank of the view: its file and how its process ran. */
typedef struct {
    int rank;
    int size;                    /* the world size it recorded; 0: not known */
    char from[32];               /* where it read its rank (gp_exec_rank.from) */
    char *file;                  /* as named on the command line */
    int pid;
    int exit_status, signal;     /* as gp_exec_info has them */
    /* derived from the cells: */
    size_t launches;             /* its kernels' calls */
    double kernel_ms;            /* the sum of its kernels' totals; NAN when none was timed */
    bool kernel_estimated;       /* some total in the sum is an estimate */
} gp_rank_entry;

/* One kernel on one rank where it ran (calls > 0). */
typedef struct {
    size_t rank;                 /* its index in the view's ranks */
    size_t calls, timed, profiled;
    double total_ms;             /* calls x the mean of the timed launches; NAN: none timed */
    bool total_estimated;        /* not every launch was timed */
    double dram_bytes;           /* read + written, calls x each one's mean over the profiled
                                    launches that have it; NAN: no launch had both */
    bool dram_estimated;         /* fewer launches than calls had them */
} gp_rank_cell;

/* A value's minimum, median (of an even count, the mean of the middle two) and maximum over
 * the ranks that have it; NAN when none has. */
typedef struct {
    double min, median, max;
    size_t ranks;                /* the ranks that have a value */
    bool estimated;              /* some rank's value is an estimate */
} gp_rank_spread;

/* The rank view's order of two kernels' or ranges' times: the most on one rank first, then
 * the most median time; one without a time after one with. 0 when alike (the caller breaks
 * the tie). */
int gp_rank_spread_busiest_first(const gp_rank_spread *x, const gp_rank_spread *y);

typedef struct {
    char *kernel;                /* demangled */
    char *mangled;               /* NULL when not known; the kernel's identity when known */
    uint64_t code;               /* the code it ran (a cubin's CRC): a kernel of several codes
                                    is an entry per code; 0 when not known */
    unsigned variant, variants;  /* derived: its code's number among the kernel's codes, by
                                    calls over the ranks (gpuprof/exec_summary.h); 0, 0: one */
    gp_rank_cell *cells;         /* one per rank it ran on, in the order of the ranks */
    size_t n_cells, cell_capacity;
    /* derived from the cells: */
    bool collective;             /* NCCL's, NVSHMEM's (gp_kernel_is_collective) */
    gp_rank_spread time_ms, dram_bytes;
    size_t slowest, fastest;     /* the ranks (indices) of the most and least time; SIZE_MAX
                                    when no rank timed it */
} gp_rank_kernel;

/* A folded NVTX range path (gpuprof/exec_ranges.h) on one rank where it occurred: its node of
 * that rank's range tree, inclusive of the ranges within it, as `report FILE --by-range`
 * gives it for the rank's own file. */
typedef struct {
    size_t rank;                 /* its index in the view's ranks */
    size_t calls;                /* kernel launches in it */
    double total_ms;             /* their time, an untimed launch at its kernel's mean; NAN:
                                    none had either */
    bool total_estimated;        /* some launch was untimed */
} gp_rank_range_cell;

/* A range path over the ranks (only where some rank's report had ranges). */
typedef struct {
    char *path;                  /* folded, outermost first; GP_RANGE_NONE for no range */
    gp_rank_range_cell *cells;   /* one per rank it occurred on, in the order of the ranks */
    size_t n_cells, cell_capacity;
    /* derived from the path and the cells: */
    const char *label;           /* its last label (points into path) */
    size_t depth;                /* its labels less one */
    size_t calls_max;            /* the most calls on one rank */
    gp_rank_spread time_ms;
    size_t slowest, fastest;     /* the ranks (indices) of its most and least time; SIZE_MAX
                                    when no rank timed it */
} gp_rank_range;

struct gp_rank_view {
    gp_rank_entry *ranks;        /* by rank */
    size_t n_ranks, rank_capacity;
    gp_rank_kernel *kernels;     /* the most time on one rank (time_ms.max) first */
    size_t n_kernels, kernel_capacity;
    int world_size;              /* the lowest rank's; 0: not known (derived) */
    gp_rank_range *ranges;       /* in the tree's reading order (derived): each path followed
                                    by those within it, siblings the most time on one rank
                                    first; none when no rank had ranges */
    size_t n_ranges, range_capacity;
};

/* An empty view; NULL when out of host memory. */
gp_rank_view *gp_rank_view_new(void);
void gp_rank_view_free(gp_rank_view *v);
/* A rank appended (zeroed, its file copied), a kernel appended (its names copied), a cell
 * appended to a kernel (zeroed): NULL when out of host memory. */
gp_rank_entry *gp_rank_view_add_rank(gp_rank_view *v, const char *file);
gp_rank_kernel *gp_rank_view_add_kernel(gp_rank_view *v, const char *kernel,
                                        const char *mangled, uint64_t code);
gp_rank_cell *gp_rank_kernel_add_cell(gp_rank_kernel *k);
/* A range path appended (its path copied), a cell appended to it (zeroed, no time): NULL when
 * out of host memory. */
gp_rank_range *gp_rank_view_add_range(gp_rank_view *v, const char *path);
gp_rank_range_cell *gp_rank_range_add_cell(gp_rank_range *r);
/* The kernel's identity across ranks: its mangled name, else its demangled one (and its
 * code, gp_rank_kernel.code, where one name ran several). */
const char *gp_rank_kernel_identity(const gp_rank_kernel *k);

/* What is derived from the ranks and cells: each rank's launches and kernel time, each kernel's
 * spreads, slowest and fastest rank (and its collective flag), the world size; the kernels
 * sorted, the most time on one rank first (then the most median time, then by identity). The
 * ranks must be sorted by rank, and each kernel's cells by rank index. The range paths are
 * gp_rank_view_derive_ranges' to derive, after it (a view is derived by both, the kernels
 * first). GP_OK, or out of host memory. */
int gp_rank_view_derive(gp_rank_view *v);

/* What is derived of the range paths (src/report/rank_ranges.c), after gp_rank_view_derive:
 * their spreads, slowest and fastest rank, and their reading order; and the
 * spread and extremes it derives for kernels and ranges alike: the spread of n values (sorted
 * here); the ranks of the most and least of n cells' times (each cell's rank index first,
 * `size` bytes apart, its time `at` bytes in; ties to the cell first, the lowest rank). */
int gp_rank_view_derive_ranges(gp_rank_view *v);
void gp_rank_spread_of(double *values, size_t n, gp_rank_spread *s);
void gp_rank_extremes(const void *cells, size_t n, size_t size, size_t at, size_t *slowest,
                      size_t *fastest);

/* The labels of the view's kernels, in its order (#1 the first), in a --kernel-name style,
 * as every view of the ranks gives them. GP_OK, or out of host memory. */
int gp_rank_view_labels(const gp_rank_view *v, gp_kernel_name_style style,
                        gp_kernel_labels *kl);

/* The ranks below the world size that the view lacks, as ranges ("2-3, 7"; cut with "..."
 * to len bytes): how many there are (0 when none, or the world size is not known). */
size_t gp_rank_view_missing(const gp_rank_view *v, char *buf, size_t len);
/* The spread of the ranks' kernel time (each rank's kernels' totals summed), and the ranks
 * (indices) of its extremes (SIZE_MAX: none timed). GP_OK, or out of host memory. */
int gp_rank_view_time_spread(const gp_rank_view *v, gp_rank_spread *s, size_t *slowest,
                             size_t *fastest);

/* Merging ranks' reports into a view, one at a time (src/report/rank_merge.c): open makes
 * `into` a rank view; add folds a report read from `file` (an exec report with its rank, or a
 * rank view), taking what it can of it (the caller frees it then); close makes the view
 * whole when `complete` (the ranks sorted, what is derived, the warnings) and frees the
 * merge either way. A report that is not an exec report, has no rank, or has a rank the view
 * has already is a usage error that names its file. */
typedef struct gp_rank_merge gp_rank_merge;
int gp_rank_merge_open(gp_report *into, gp_rank_merge **m);
int gp_rank_merge_add(gp_rank_merge *m, gp_report *part, const char *file);
int gp_rank_merge_close(gp_rank_merge *m, bool complete);

#endif
