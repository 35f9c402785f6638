/* Kernel names short enough for a chart's label or a table's first line (html_names.c).
 * The HTML pages' own helper: a shared one (issue 29's --kernel-name) may replace it. */
#ifndef GPUPROF_RENDER_HTML_NAMES_H
#define GPUPROF_RENDER_HTML_NAMES_H

#include <stddef.h>

/* The function's name without its return type, namespaces, template arguments and
 * parameters, keeping what follows the parameters ("#6", "[kernel 1 of 2]") that tells
 * kernels of one name apart: "void cusparse::csrmv_kernel<float, int>(int, float *) #2" →
 * "csrmv_kernel #2". A name it cannot take apart is kept whole. */
void gp_html_short_kernel_name(const char *full, char *buf, size_t len);

/* Labels that read alike for different full names (two instances of one template) get
 * " (1)", " (2)", … in their order, so that no two rows of a chart look the same; each label
 * is a buffer of `len` bytes, `stride` bytes after the one before. */
void gp_html_tell_apart(char *labels, size_t stride, size_t len, const char *const *fulls,
                        size_t n);

#endif
