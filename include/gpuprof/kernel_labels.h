/* An exec report's kernels as every view names them: a number, #1 to #N in the summary's
 * order (the most time first, gpuprof/exec_summary.h), and the name in the --kernel-name
 * style (by default short: the qualified name and the template arguments that tell kernels of
 * one name apart, gpuprof/short_names.h), fuller where that style would show two kernels alike
 * (gp_kernel_names_format), a kernel's variant (one of several codes of one name) followed by
 * "[variant 2 of 3]".
 * The kernel summary, the metric blocks, the GPU activities, --launches, CSV, JSON and HTML
 * all number a kernel alike, so that a row of one is found in another. */
#ifndef GPUPROF_KERNEL_LABELS_H
#define GPUPROF_KERNEL_LABELS_H

#include "gpuprof/exec_summary.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/kernel_name.h"

#include <stddef.h>

#define GP_LABEL_LEN 4096
#define GP_SOURCES_LEN 48

typedef struct {
    gp_hashmap numbers;          /* a kernel's full name and variant: its number (size_t) */
    char *names;                 /* per number - 1: its name in the style, GP_LABEL_LEN */
    char (*sources)[GP_SOURCES_LEN]; /* per number - 1, in a merged report: the files its
                                        launches came from, "[1]", "[1,2]"; else NULL */
    size_t n;
} gp_kernel_labels;

/* The labels of the summary's kernels, in their order. GP_OK or out of host memory. */
int gp_kernel_labels_init(gp_kernel_labels *kl, const gp_exec_kernel *k, size_t nk,
                          gp_kernel_name_style style);
/* A kernel's variant among its codes, as its label says it (0 of 0: one code). */
typedef struct {
    unsigned variant, variants;
} gp_label_variant;

/* The labels of kernels named in order (a rank view's): `fulls` their demangled names, and
 * their variants (NULL: none). */
int gp_kernel_labels_init_names(gp_kernel_labels *kl, const char *const *fulls,
                                const gp_label_variant *variants, size_t nk,
                                gp_kernel_name_style style);
void gp_kernel_labels_free(gp_kernel_labels *kl);
/* Kernel `number`'s name in the style (1..n): two kernels of one name apart by number. */
const char *gp_kernel_labels_label(const gp_kernel_labels *kl, size_t number);
/* A merged report's: each kernel's files ("[1,2]", by their index in the report's sources,
 * from 1), from its launches. GP_OK or out of host memory. */
int gp_kernel_labels_sources(gp_kernel_labels *kl, const gp_report *r);
/* A kernel's files, "" when the report is not merged (or the merge did not record them). */
const char *gp_kernel_labels_from(const gp_kernel_labels *kl, const char *kernel,
                                  unsigned variant);
/* The same by the kernel's number (0: none). */
const char *gp_kernel_labels_from_number(const gp_kernel_labels *kl, size_t number);
/* A launch's file in a merged report, "[2]"; "" otherwise. */
void gp_launch_source_tag(const gp_report *r, const gp_exec_launch *l, char *buf, size_t len);
/* A kernel's number (1..N) by its full name and variant (0: its only code); 0 for one the
 * summary does not have. */
size_t gp_kernel_labels_number(const gp_kernel_labels *kl, const char *kernel, unsigned variant);
/* A kernel's name in the style (control characters shown as '?'), by its full name and
 * variant: the full name itself for one the summary does not have. */
const char *gp_kernel_labels_name(const gp_kernel_labels *kl, const char *kernel,
                                  unsigned variant);

#endif
