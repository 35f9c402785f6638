/* What the HTML pages share (html_page.c): the page around them, cells of their tables,
 * lines of their headers, the lines across bandwidth charts, and the memory-access charts of
 * both reports' pages. The pages: html_kernel.c (a kernel command's report, its parameter
 * sweeps in html_sweeps.c), html_exec.c (gpuprof exec's), html_compare.c (gpuprof
 * compare). */
#ifndef GPUPROF_RENDER_HTML_PAGE_H
#define GPUPROF_RENDER_HTML_PAGE_H

#include "gpuprof/kernel_labels.h"
#include "gpuprof/report.h"
#include "render/svg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A page: one self-contained file (inline style, inline SVG, no scripts, nothing fetched)
 * around its body, what `body` writes of `ctx`; the body's status. */
typedef int gp_html_body(FILE *out, const void *ctx);
int gp_html_page(FILE *out, const char *title, gp_html_body *body, const void *ctx);

/* printf at the end of what the buffer holds. */
void gp_html_appendf(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A number with printf's format, "-" when unknown. */
void gp_html_fmt_num(char *buf, size_t len, const char *fmt, double v);

/* Cells: a number (right-aligned, "-" when unknown), column titles (from
 * `first_num` on right-aligned), a term of a header's list. */
void gp_html_td_num(FILE *out, const char *fmt, double v);
void gp_html_th_list(FILE *out, const char *const *titles, size_t n, size_t first_num);
void gp_html_dd_text(FILE *out, const char *term, const char *text);
/* A row's metric cells (missing: n/a), and their titles with each metric's description. */
void gp_html_metric_cells(FILE *out, const gp_metric_set *s, const char *const *keys,
                          size_t n);
void gp_html_metric_titles(FILE *out, const char *const *keys, const char *const *labels,
                           size_t n);

/* The kernels of an exec report or rank view, each its label after its number ("#3 label",
 * as every view numbers them), gp_kernel_labels' first n: in *out, an array to free. */
#define GP_HTML_LABEL_LEN 512
typedef char gp_html_label[GP_HTML_LABEL_LEN];
int gp_html_numbered_labels(const gp_kernel_labels *kl, size_t n, gp_html_label **out);
/* A kernel's cell: its label in bold, `after` (HTML, NULL: none) after it, under them the
 * full name (wrapped anywhere: a C++ name has few spaces; `always`, else only where it is not
 * the label after its number), the full name on hover too. */
void gp_html_kernel_cell(FILE *out, const char *full, const char *label, const char *after,
                         bool always);

/* Lines of a header: a command line's words as code (`none` where it has none, NULL:
 * nothing; its `file` after it, NULL: none), an exec report's GPUs ("GPU 0" and the GPU in
 * words, gp_device_describe), how the metrics were collected, the report's warnings. */
void gp_html_code_line(FILE *out, const char *term, char *const *argv, size_t n,
                       const char *none, const char *file);
void gp_html_gpus(FILE *out, const gp_exec_info *e);
void gp_html_profiler_line(FILE *out, const gp_profiler_info *p, const char *replay);
void gp_html_warnings(FILE *out, const gp_report *r);

/* ---- charts: their figures, the lines across those of bandwidth ------------------------ */

/* <figure class="chart chart-ID" id="chart-ID">, to be closed by the caller. */
void gp_html_figure_start(FILE *out, const char *id);

/* The GPU a result ran on (its file's, in a merged report); NULL when none is recorded. */
const gp_device_info *gp_html_result_device(const gp_report *r, const gp_result *res);

#define GP_HTML_MAX_REFLINES 8
/* The GPU's peak and, when measured, its copy bandwidth as lines across a chart, "peak 3352
 * GB/s" and `suffix`: added to lines[n..] where not there yet, at most GP_HTML_MAX_REFLINES
 * in all; the new count. */
size_t gp_html_device_reflines(const gp_device_info *d, const char *suffix,
                               gp_svg_refline *lines, size_t n);

/* ---- the memory-access section: three charts of two metrics each ---------------------- */

typedef struct gp_html_metric_chart gp_html_metric_chart;
/* A chart's two metrics of one row (a result, or a kernel's averages) as its bars. */
void gp_html_metric_bars(gp_svg_row *row, const gp_metric_set *set,
                         const gp_html_metric_chart *mc);
/* Builds a chart's rows (NULL: out of memory): of results, or of an exec report's kernels. */
typedef gp_svg_row *(*gp_html_metric_rows)(const void *ctx, const gp_html_metric_chart *mc,
                                           size_t *n);
/* The section; `have`: whether any row has metrics, else a note on why none. */
int gp_html_metric_section(FILE *out, gp_html_metric_rows build, const void *ctx,
                           const gp_profiler_info *p, bool have);

#endif
