/* Kernel names short enough for a chart's label or a table's first line (report/short_names.c),
 * as the HTML pages label kernels: a kernel's naming, beside its label in the --kernel-name
 * styles (gpuprof/kernel_labels.h), computed in report/ where every view can take it. */
#ifndef GPUPROF_SHORT_NAMES_H
#define GPUPROF_SHORT_NAMES_H

#include <stddef.h>

/* The function's name without its return type, namespaces, template arguments and
 * parameters, keeping what follows the parameters ("#6", "[kernel 1 of 2]") that tells
 * kernels of one name apart: "void cusparse::csrmv_kernel<float, int>(int, float *) #2" →
 * "csrmv_kernel #2". A name it cannot take apart is kept whole. */
void gp_kernel_short_name(const char *full, char *buf, size_t len);

/* Labels that read alike for different full names (two instances of one template) get
 * " (1)", " (2)", … in their order, so that no two rows of a chart look the same; each label
 * is a buffer of `len` bytes, `stride` bytes after the one before. */
void gp_kernel_short_names_apart(char *labels, size_t stride, size_t len, const char *const *fulls,
                        size_t n);

#endif
