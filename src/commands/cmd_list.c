/* list: every family and variant with its summary, allowed and default blocks. */
#include "gpuprof/commands.h"

#include "gpuprof/render.h"

int gp_cmd_list(const gp_request *req, FILE *out, gp_report *report)
{
    (void)report;
    return gp_render_list(out, gp_render_options_for(req));
}
