/* An exec report's per-line views (--source, gp_exec_source_view) in the order every view
 * shows them: by their kernel's #N (gpuprof/kernel_labels.h), then as the report holds them
 * (by file, process and launch); each with its kernel's full name, its number and the
 * patched launch's place among the kernel's launches. Text, CSV and HTML list them alike. */
#ifndef GPUPROF_SOURCE_LABELS_H
#define GPUPROF_SOURCE_LABELS_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"
#include "gpuprof/kernel_labels.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const gp_exec_source_view *view;
    char *kernel;                /* the kernel's full name, as the summary names it */
    unsigned variant;            /* the variant the view is of (0: the kernel's one code) */
    size_t number;               /* its #N; 0: a kernel the summary lacks (no launch of it
                                    was recorded) */
    uint64_t ordinal;            /* the patched launch is the kernel's ordinal-th in its
                                    process; 0: unknown */
} gp_source_label;

/* What CSV and HTML draw the views from: the report's summary, its kernels' labels (with
 * their files in a merged report) and its views labelled, in order. */
typedef struct {
    gp_exec_kernel *k;
    size_t nk;
    gp_kernel_labels kl;
    gp_source_label *l;
    size_t n;
} gp_source_views;

/* All of it made from r, names in full; close frees it (after a failed open too). */
int gp_source_views_open(gp_source_views *v, const gp_report *r);
void gp_source_views_close(gp_source_views *v);

/* The views of e labelled, in order. GP_OK or out of host memory. */
int gp_source_labels(const gp_exec_info *e, const gp_kernel_labels *kl, gp_source_label **out,
                     size_t *n);
void gp_source_labels_free(gp_source_label *l, size_t n);
/* Why a profiled kernel has no view at all: each of its launches collected counters... */
#define GP_NO_PATCHED_LAUNCH "no patched launch: it was launched too few times (the library " \
    "patches a kernel's first launch after its counters are collected: its second under " \
    "--replay=auto)"
/* ... or some did not, and none was patched. */
#define GP_NO_LAUNCH_AFTER_COUNTERS "no patched launch: none of its launches came after " \
    "its counters were complete in the same shape (grid, block and shared memory: each " \
    "collects its own), or it ran only as a graph node that cannot run alone (after a host " \
    "node), or --launch-count ended first"

/* A kernel without lines: its #N (0: the summary lacks it), full name, its view without a
 * launch (NULL: it has no view at all) and why. */
typedef int (*gp_source_without_fn)(void *ctx, size_t number, const char *kernel,
                                    const gp_exec_source_view *v, const char *why);
/* In #N order, each kernel without lines: a view without a launch (its note), or a profiled
 * kernel of the summary k with no view (GP_NO_PATCHED_LAUNCH when every launch of it was
 * profiled, else GP_NO_LAUNCH_AFTER_COUNTERS); then the views without a
 * launch of kernels the summary lacks. l: the report's labels, in their order. */
int gp_source_without_lines(const gp_source_label *l, size_t n, const gp_exec_kernel *k,
                            size_t nk, gp_source_without_fn fn, void *ctx);

/* "#2 " into buf ("" for number 0), and in a merged report the file of the view v, "[3] ",
 * or without a view the kernel's files, "[1,3] ". */
void gp_source_tag(const gp_kernel_labels *kl, size_t number, const gp_exec_source_view *v,
                   char *buf, size_t len);
/* "process 690, launch 2 of the kernel, id 7", or without its place when it is unknown, or
 * "no patched launch", or for a view of gpuprof's own run "gpuprof's own run, process 700". */
void gp_source_label_launch(const gp_source_label *l, char *buf, size_t len);

#endif
