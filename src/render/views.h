/* A view: how one format renders one document. Every format's view of a document has that
 * document's signature, so that a format is a row of the table in render/formats.c and each
 * format's header (text.h, json.h, csv.h, html.h) names the views it has. */
#ifndef GPUPROF_RENDER_VIEWS_H
#define GPUPROF_RENDER_VIEWS_H

#include "gpuprof/render.h"

/* A kernel command's report, or an exec report. */
typedef int gp_report_view(FILE *out, const gp_report *r, const gp_render_options *o);
typedef int gp_compare_view(FILE *out, const gp_comparison *c, const gp_render_options *o);
typedef int gp_list_view(FILE *out, const gp_render_options *o);
typedef int gp_devices_view(FILE *out, const gp_device_info *devices, size_t n,
                            const gp_render_options *o);
typedef int gp_chip_metrics_view(FILE *out, const gp_chip_metrics *m,
                                 const gp_render_options *o);

#endif
