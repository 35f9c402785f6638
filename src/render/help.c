/* The help text of gpuprof/render.h: built by the command line (src/cli/help.c), written
 * here. */
#include "gpuprof/render.h"

#include "gpuprof/report.h"
#include "gpuprof/status.h"
#include "render/text_layout.h"

#include <stdlib.h>
#include <string.h>

int gp_help_add(gp_help_text *h, const char *text, int indent)
{
    gp_help_line *line = gp_append_zeroed(&h->lines, &h->n, &h->capacity, sizeof *line);
    if (!line)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *line = (gp_help_line){strdup(text), indent}; /* counted already: gp_help_free frees it */
    return line->text ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

void gp_help_free(gp_help_text *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->lines[i].text);
    free(h->lines);
    memset(h, 0, sizeof *h);
}

int gp_render_help(FILE *out, const gp_help_text *h)
{
    for (size_t i = 0; i < h->n; i++) {
        if (h->lines[i].indent == GP_HELP_AS_IS)
            fprintf(out, "%s\n", h->lines[i].text);
        else
            gp_text_paragraph(out, h->lines[i].text, GP_TEXT_WIDTH, h->lines[i].indent);
    }
    return GP_OK;
}
