/* A kernel command's report written while it runs (gpuprof/render.h): the format's stream
 * view where it has one (text, CSV), else the whole document once every result is final
 * (JSON and HTML are one document each: a part of one is no document). */
#include "gpuprof/render.h"

#include "gpuprof/status.h"
#include "render/views.h"

#include <stdlib.h>

struct gp_report_stream {
    FILE *out;
    const gp_report *r;
    gp_render_options o;
    const gp_stream_view *view;   /* NULL: whole at the end */
    void *state;
};

int gp_stream_open(FILE *out, const gp_report *r, gp_render_options o, gp_report_stream **s)
{
    *s = calloc(1, sizeof **s);
    if (!*s)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    **s = (gp_report_stream){out, r, o, gp_stream_view_of(o.format), NULL};
    const int rc = (*s)->view ? (*s)->view->open(out, r, &(*s)->o, true, &(*s)->state) : GP_OK;
    if (rc != GP_OK) {
        free(*s);
        *s = NULL;
    }
    return rc;
}

int gp_stream_result(gp_report_stream *s, size_t i)
{
    return s->view ? s->view->result(s->state, i) : GP_OK;
}

int gp_stream_close(gp_report_stream *s, bool complete)
{
    int rc = GP_OK;
    if (s->view)
        rc = s->view->close(s->state, complete);
    else if (complete)
        rc = gp_render_report(s->out, s->r, s->o);
    free(s);
    return rc;
}
