/* The help text of gpuprof/render.h: built by the command line (src/cli/help.c), written
 * here. */
#include "gpuprof/render.h"

#include "gpuprof/status.h"
#include "render/text_layout.h"

#include <stdlib.h>
#include <string.h>

int gp_help_add(gp_help_text *h, const char *text, int indent)
{
    if (h->n == h->capacity) {
        const size_t bigger = h->capacity ? 2 * h->capacity : 32;
        gp_help_line *grown = realloc(h->lines, bigger * sizeof *grown);
        if (!grown)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        h->lines = grown;
        h->capacity = bigger;
    }
    char *copy = strdup(text);
    if (!copy)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    h->lines[h->n++] = (gp_help_line){copy, indent};
    return GP_OK;
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
