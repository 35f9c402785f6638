/* The renderers: text for people, JSON and CSV for scripts, of reports and of the catalogue
 * commands' documents. They write; main() checks that the writing succeeded. */
#ifndef GPUPROF_RENDER_H
#define GPUPROF_RENDER_H

#include "gpuprof/compare.h"
#include "gpuprof/metrics.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    bool no_header;              /* CSV without its header line */
    bool metrics_detail;         /* text: nvprof's long per-kernel metric listing */
    bool launches;               /* text of exec reports: a row per launch, not per kernel */
} gp_render_options;

int gp_render_text(FILE *out, const gp_report *r, const gp_render_options *o);
int gp_render_json(FILE *out, const gp_report *r);
int gp_render_csv(FILE *out, const gp_report *r, const gp_render_options *o);
/* The same for exec reports (the three above call them). */
int gp_render_exec_text(FILE *out, const gp_report *r, const gp_render_options *o);
int gp_render_exec_csv(FILE *out, const gp_report *r, const gp_render_options *o);

/* One self-contained HTML page (inline SVG charts, inline CSS, no scripts or fetches). */
int gp_render_html(FILE *out, const gp_report *r);
int gp_render_exec_html(FILE *out, const gp_report *r);

/* compare: the matched rows side by side. */
int gp_render_compare_text(FILE *out, const gp_comparison *c);
int gp_render_compare_json(FILE *out, const gp_comparison *c);
int gp_render_compare_csv(FILE *out, const gp_comparison *c, const gp_render_options *o);
int gp_render_compare_html(FILE *out, const gp_comparison *c);

/* list: every family and variant. */
int gp_render_list_text(FILE *out);
int gp_render_list_csv(FILE *out, const gp_render_options *o);
int gp_render_list_json(FILE *out);

/* device: the GPUs described. */
int gp_render_devices_text(FILE *out, const gp_device_info *devices, size_t n);
int gp_render_devices_json(FILE *out, const gp_device_info *devices, size_t n);

/* metrics: the catalogue, and for a chip (NULL: none) what it provides. */
typedef struct {
    const char *chip;
    const gp_metric_availability *availability;   /* one per catalogue row, when chip */
    int passes_default, passes_all;
} gp_chip_metrics;

int gp_render_metrics_text(FILE *out, const gp_chip_metrics *m);
int gp_render_metrics_json(FILE *out, const gp_chip_metrics *m);

#endif
