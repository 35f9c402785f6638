/* The renderers: text for people, JSON and CSV for scripts, HTML pages; of the kernel
 * commands' and exec's reports, of comparisons and of the catalogue commands' documents.
 * One table (render/formats.c) has a row per format; each entry point below renders its
 * document in the format of the options. They write; main() checks that the writing
 * succeeded. */
#ifndef GPUPROF_RENDER_H
#define GPUPROF_RENDER_H

#include "gpuprof/compare.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/metrics.h"
#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    gp_output format;
    bool no_header;              /* CSV without its header line */
    bool metrics_detail;         /* text: nvprof's long per-kernel metric listing */
    bool sass;                   /* text: each source line's instructions under it */
    bool source_rows;            /* CSV: the per-line document (--source), a row per line, not
                                    the per-kernel one; the other formats show the per-line
                                    part wherever the report has it (gp_exec_has_source) */
    bool launches;               /* exec reports: a row per launch, not per kernel */
    bool by_rank;                /* rank views: a row per kernel and rank, not per kernel */
    bool by_range;               /* exec reports: a row per NVTX range, not per kernel */
    bool stall_rows;             /* CSV: exec --stalls' document, a row per kernel and line;
                                    the other formats show the stalls wherever the report has
                                    them */
    const char *csv_columns;     /* CSV: the columns chosen (--csv-columns); NULL: all */
    bool wide;                   /* text: full headers and names, no 120-column page */
    gp_kernel_name_style kernel_name;   /* how kernel names are shown (--kernel-name) */
} gp_render_options;

/* The options the command line asks for: the one place they are read from a request. */
gp_render_options gp_render_options_for(const gp_request *req);

/* --csv-columns of a kernel command or exec, checked against its columns before anything
 * runs: a usage error for an unknown, repeated or empty name. (report checks the list
 * against the report's own columns when it renders.) */
int gp_csv_check_columns(const gp_request *req);

/* A kernel command's report, or an exec report. HTML: one self-contained page (inline SVG
 * charts, inline CSS, no scripts or fetches). */
int gp_render_report(FILE *out, const gp_report *r, gp_render_options o);

/* A kernel command's report written while it runs: open before the first result is final;
 * gp_stream_result when results[i] is (and every one before it), which writes the text and
 * CSV rows at once, flushed, so that a sweep cut short keeps them; close writes the rest (the
 * text's notes and failures, the JSON or HTML document whole) when complete, every result
 * final, and frees the stream either way. The text's tables have widths decided before
 * their rows (a wider value pushes the rest of its line); one that would not fit the page is
 * written whole when its problem ends. */
typedef struct gp_report_stream gp_report_stream;
int gp_stream_open(FILE *out, const gp_report *r, gp_render_options o, gp_report_stream **s);
int gp_stream_result(gp_report_stream *s, size_t i);
int gp_stream_close(gp_report_stream *s, bool complete);

/* A long run's progress on a terminal: `what` on one line, written over the one before;
 * cleared before anything else is written there. */
void gp_render_progress(FILE *term, const char *what);
void gp_render_progress_clear(FILE *term);

/* compare: the matched rows side by side. */
int gp_render_compare(FILE *out, const gp_comparison *c, gp_render_options o);

/* list: every family and variant. */
int gp_render_list(FILE *out, gp_render_options o);

/* device: the GPUs described. */
int gp_render_devices(FILE *out, const gp_device_info *devices, size_t n,
                      gp_render_options o);

/* metrics: the catalogue, and for a chip (NULL: none) what it provides. */
typedef struct {
    const char *chip;
    const gp_metric_availability *availability;   /* one per catalogue row, when chip */
    int group_passes[GP_METRIC_GROUPS];           /* per group, when chip; 0: none there */
    int passes_all;
} gp_chip_metrics;

int gp_render_chip_metrics(FILE *out, const gp_chip_metrics *m, gp_render_options o);

/* help and version: a text for people as lines, each written as it is (GP_HELP_AS_IS) or
 * wrapped at spaces to the text format's 120 columns, its later lines indented by `indent`.
 * The lines are the text's own (gp_help_add copies, gp_help_free frees). */
#define GP_HELP_AS_IS (-1)

typedef struct {
    char *text;                  /* one line, or several joined by newlines (as it is) */
    int indent;
} gp_help_line;

typedef struct {
    gp_help_line *lines;
    size_t n, capacity;
} gp_help_text;

int gp_help_add(gp_help_text *h, const char *text, int indent);
void gp_help_free(gp_help_text *h);
int gp_render_help(FILE *out, const gp_help_text *h);

#endif
