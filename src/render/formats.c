/* The output formats: one table, a row per format and a column per document, and the entry
 * points of gpuprof/render.h, which take the cell of the options' format. The render layer:
 * documents in, bytes out; nothing read from the GPU, no exits, no error printed.
 *
 * A NULL cell: the format has no view of that document (HTML of list, devices and metrics;
 * CSV of devices and metrics). The command-line parser never asks for one (list takes no
 * --html, device and metrics take no --csv); were one asked for, the text view would answer,
 * as before there was a table. A format with a stream view writes a kernel command's saved
 * report through it (its report cell NULL): the same code as a live run's. */
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include "render/csv.h"
#include "render/html.h"
#include "render/json.h"
#include "render/markdown.h"
#include "render/text.h"

typedef struct {
    gp_report_view *report, *exec, *ranks;
    gp_compare_view *compare;
    gp_list_view *list;
    gp_devices_view *devices;
    gp_chip_metrics_view *chip_metrics;
    const gp_stream_view *stream;   /* NULL: the report whole once every result is final */
} format;

static const format formats[] = {
    [GP_OUT_TEXT] = {.report = NULL, .exec = gp_text_exec, .ranks = gp_text_ranks,
                     .compare = gp_text_compare, .list = gp_text_list,
                     .devices = gp_text_devices, .chip_metrics = gp_text_chip_metrics,
                     .stream = &gp_text_stream},
    [GP_OUT_JSON] = {.report = gp_json_report, .exec = gp_json_report, .ranks = gp_json_report,
                     .compare = gp_json_compare, .list = gp_json_list,
                     .devices = gp_json_devices, .chip_metrics = gp_json_chip_metrics},
    [GP_OUT_CSV] = {.report = NULL, .exec = gp_csv_exec, .ranks = gp_csv_ranks,
                    .compare = gp_csv_compare, .list = gp_csv_list,
                    .devices = NULL, .chip_metrics = NULL, .stream = &gp_csv_stream},
    [GP_OUT_HTML] = {.report = gp_html_report, .exec = gp_html_exec, .ranks = gp_html_ranks,
                     .compare = gp_html_compare, .list = NULL,
                     .devices = NULL, .chip_metrics = NULL},
    [GP_OUT_MARKDOWN] = {.report = gp_markdown_report, .exec = gp_markdown_report,
                         .ranks = gp_markdown_report, .compare = gp_markdown_compare,
                         .list = gp_markdown_list, .devices = gp_markdown_devices,
                         .chip_metrics = gp_markdown_chip_metrics},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

static const format *row(gp_output f)
{
    return (size_t)f < N_FORMATS ? &formats[f] : &formats[GP_OUT_TEXT];
}

/* The format's view of a document, or where its cell is NULL the text view. */
#define VIEW(f, document) \
    (row(f)->document ? row(f)->document : formats[GP_OUT_TEXT].document)

gp_render_options gp_render_options_for(const gp_request *req)
{
    return (gp_render_options){.format = req->output, .no_header = req->no_header,
                               .metrics_detail = req->metrics_detail, .sass = req->sass,
                               .source_rows = req->source,
                               .launches = req->launches, .by_rank = req->by_rank,
                               .by_range = req->by_range, .stall_rows = req->stalls,
                               .csv_columns = req->csv_columns,
                               .wide = req->wide, .kernel_name = req->kernel_name};
}

int gp_render_report(FILE *out, const gp_report *r, gp_render_options o)
{
    if (r->ranks)
        return VIEW(o.format, ranks)(out, r, &o);
    if (r->is_exec)
        return VIEW(o.format, exec)(out, r, &o);
    return row(o.format)->stream ? gp_stream_whole(row(o.format)->stream, out, r, &o)
                                 : VIEW(o.format, report)(out, r, &o);
}

int gp_render_compare(FILE *out, const gp_comparison *c, gp_render_options o)
{
    return VIEW(o.format, compare)(out, c, &o);
}

int gp_render_list(FILE *out, gp_render_options o)
{
    return VIEW(o.format, list)(out, &o);
}

int gp_render_devices(FILE *out, const gp_device_info *devices, size_t n,
                      gp_render_options o)
{
    return VIEW(o.format, devices)(out, devices, n, &o);
}

int gp_render_chip_metrics(FILE *out, const gp_chip_metrics *m, gp_render_options o)
{
    return VIEW(o.format, chip_metrics)(out, m, &o);
}

/* A saved report through a stream view: opened, its last result, closed. */
int gp_stream_whole(const gp_stream_view *v, FILE *out, const gp_report *r,
                    const gp_render_options *o)
{
    void *state;
    GP_TRY(v->open(out, r, o, false, &state));
    const int rc = r->n_results ? v->result(state, r->n_results - 1) : GP_OK;
    const int end = v->close(state, rc == GP_OK);
    return rc != GP_OK ? rc : end;
}

const gp_stream_view *gp_stream_view_of(gp_output f)
{
    return row(f)->stream;
}
