/* The Markdown format's views (markdown.c): the text's documents as GitHub-flavoured Markdown,
 * for a pull request's comment or a CI job's summary. Its tables come from the text layout,
 * which hands them here whole (gp_markdown_table) where the page is Markdown's. */
#ifndef GPUPROF_RENDER_MARKDOWN_H
#define GPUPROF_RENDER_MARKDOWN_H

#include "render/text_layout.h"
#include "render/views.h"

gp_report_view gp_markdown_report;
gp_compare_view gp_markdown_compare;
gp_list_view gp_markdown_list;
gp_devices_view gp_markdown_devices;
gp_chip_metrics_view gp_markdown_chip_metrics;

/* A text table as a GFM table: its title row, the delimiter row, then each row with the
 * title row's count of cells (a line across the table is its first cell). */
void gp_markdown_table(FILE *out, const gp_text_table *t);

#endif
