/* list: every family and variant with its summary, allowed and default blocks. */
#include "gpuprof/commands.h"

#include "gpuprof/render.h"

int gp_cmd_list(const gp_request *req, FILE *out, gp_report *report)
{
    (void)report;
    gp_render_options o = {.no_header = req->no_header};
    switch (req->output) {
    case GP_OUT_JSON: return gp_render_list_json(out);
    case GP_OUT_CSV: return gp_render_list_csv(out, &o);
    case GP_OUT_TEXT:
    case GP_OUT_HTML: break; /* list takes no --html */
    }
    return gp_render_list_text(out);
}
