/* A view: how one format renders one document. Every format's view of a document has that
 * document's signature, so that a format is a row of the table in render/formats.c and each
 * format's header (text.h, json.h, csv.h, html.h) names the views it has. */
#ifndef GPUPROF_RENDER_VIEWS_H
#define GPUPROF_RENDER_VIEWS_H

#include "gpuprof/render.h"

/* A kernel command's report, an exec report, or a rank view. */
typedef int gp_report_view(FILE *out, const gp_report *r, const gp_render_options *o);
typedef int gp_compare_view(FILE *out, const gp_comparison *c, const gp_render_options *o);
typedef int gp_list_view(FILE *out, const gp_render_options *o);
typedef int gp_devices_view(FILE *out, const gp_device_info *devices, size_t n,
                            const gp_render_options *o);
typedef int gp_chip_metrics_view(FILE *out, const gp_chip_metrics *m,
                                 const gp_render_options *o);

/* A kernel command's report written while its results become final (render/stream.c):
 * open before the first, result(i) for each in order, close for the rest of the document
 * (complete: every result is final) and to free the state. ahead: the results' measured
 * values are not known yet, so that a text table's widths are decided before its rows. */
typedef struct {
    int (*open)(FILE *out, const gp_report *r, const gp_render_options *o, bool ahead,
                void **state);
    int (*result)(void *state, size_t i);
    int (*close)(void *state, bool complete);
} gp_stream_view;

/* A report whose results are all final through a stream view: the same code writes a saved
 * report and a live run, so that their text and CSV differ only where the live text had to
 * decide its columns' widths ahead (render/stream.c). */
int gp_stream_whole(const gp_stream_view *v, FILE *out, const gp_report *r,
                    const gp_render_options *o);

/* The format's stream view (render/formats.c), or NULL: written whole at the end. */
const gp_stream_view *gp_stream_view_of(gp_output f);

#endif
