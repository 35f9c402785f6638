/* The Markdown format's views (markdown.c): the text's documents as GitHub-flavoured Markdown,
 * for a pull request's comment or a CI job's summary. Its tables come from the text layout,
 * which writes them through render/markdown_table.h where the page is Markdown's. */
#ifndef GPUPROF_RENDER_MARKDOWN_H
#define GPUPROF_RENDER_MARKDOWN_H

#include "render/views.h"

gp_report_view gp_markdown_report;
gp_compare_view gp_markdown_compare;
gp_list_view gp_markdown_list;
gp_devices_view gp_markdown_devices;
gp_chip_metrics_view gp_markdown_chip_metrics;

#endif
