/* exec --by-range: an exec report's kernels by the NVTX range they were launched in (issue 48).
 * A launch's range path (gp_exec_launch.range) is folded first: PyTorch's emit_nvtx gives each
 * op call a label of its own ("aten::linear, seq = 0, op_id = 2"), and its per-call parts are
 * removed so that the calls of one op in one place are one range ("aten::linear"). The folded
 * paths make a tree, a node per path prefix, each inclusive of its subtree: launches, kernel
 * time (an untimed launch at its kernel's mean, as the kernel summary counts it), its share,
 * distinct kernels, DRAM bytes and the kernel of the most time. Launches without a range are
 * one node of their own, GP_RANGE_NONE. Derived from the launches whenever a view is
 * rendered (src/report/range_fold.c, src/report/exec_ranges.c). */
#ifndef GPUPROF_EXEC_RANGES_H
#define GPUPROF_EXEC_RANGES_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/range_fold.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

/* Why a node's DRAM bytes are an estimate, for the formats' legends. */
#define GP_RANGE_DRAM_ESTIMATE_NOTE                                                            \
    "DRAM bytes an estimate: a launch without DRAM counters counts at its kernel's means of "  \
    "dram_read_bytes and dram_write_bytes"

/* The memory metrics a node gives over its launches, weighted by their counters: each one's
 * inputs summed over the launches that counted all of them, then derived (the range's own
 * sectors per request, not a mean of its launches' values). gp_range_metric_keys names
 * them, in the catalogue's keys. */
#define GP_RANGE_METRICS 4
extern const char *const gp_range_metric_keys[GP_RANGE_METRICS];

/* The node of the launches launched in no range. */
#define GP_RANGE_NONE "(no range)"

/* A node of the tree: a folded path prefix and its subtree's launches. */
typedef struct {
    char *path;                  /* the folded path, outermost first; GP_RANGE_NONE */
    const char *label;           /* its last label (points into path) */
    size_t depth;                /* 0: outermost */
    size_t parent;               /* its parent's index among the nodes; SIZE_MAX: none */
    size_t calls;                /* kernel launches */
    size_t kernels;              /* distinct kernels (a kernel's variants apart) */
    double total_ms;             /* timed launches' durations, untimed ones at their kernel's
                                    mean; NAN when no launch has either */
    bool total_estimated;        /* some launch was untimed */
    double time_percent;         /* of all kernels' time; NAN without a time */
    double dram_bytes;           /* dram_read_bytes + dram_write_bytes of the launches that
                                    have them, the others at their kernel's means; NAN when
                                    no launch's kernel has them */
    bool dram_estimated;         /* some launch lacked them */
    size_t top;                  /* the kernel of the most time: its #N in the summary (its
                                    label's number); 0: none timed */
    double top_ms;               /* that kernel's time in the node */
    double metrics[GP_RANGE_METRICS];  /* gp_range_metric_keys' values; NAN: no launch
                                          counted the inputs, or undefined (no request) */
} gp_exec_range;

/* Whether any launch of the report was recorded in a range. */
bool gp_exec_has_ranges(const gp_exec_info *e);
/* The tree of the launches' folded paths, in its reading order: each node followed by its
 * children, siblings the most time first (those of none last, then by label). k (nk) is the
 * report's kernel summary and kl its labels (gp_kernel_labels_init), by which a launch's
 * kernel is found and numbered. GP_OK or out of host memory. */
int gp_exec_ranges(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                   const gp_kernel_labels *kl, gp_exec_range **out, size_t *n);
void gp_exec_ranges_free(gp_exec_range *nodes, size_t n);

/* The tree with the summary and labels (in the default short style) it is numbered by, for
 * the views that have neither made already. */
typedef struct {
    gp_exec_kernel *kernels;
    size_t n_kernels;
    gp_kernel_labels labels;
    gp_exec_range *nodes;
    size_t n;
} gp_exec_range_tree;

int gp_exec_range_tree_init(gp_exec_range_tree *t, const gp_exec_info *e);
/* Whether any node's time (*time) or DRAM bytes (*dram) is an estimate, for the legends. */
void gp_exec_ranges_estimated(const gp_exec_range *nodes, size_t n, bool *time, bool *dram);
/* Whether any node has a memory metric (the views show their columns then). */
bool gp_exec_ranges_have_metrics(const gp_exec_range *nodes, size_t n);
void gp_exec_range_tree_free(gp_exec_range_tree *t);

#endif
