/* The exec page's "GPU activities" section: nvprof's rows for copies (by direction) and
 * memsets, each followed by its copies split by host memory (pageable, pinned, managed),
 * the pageable share, and the unified-memory counters. */
#include "render/html_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"

#include <math.h>

static void row_cells(FILE *out, const gp_activity_row *row)
{
    gp_html_td_num(out, "%.0f", (double)row->calls);
    gp_html_td_num(out, "%.4f", gp_activity_total_ms(row));
    gp_html_td_num(out, "%.4f", gp_activity_average_ms(row));
    gp_html_td_num(out, "%.4f", row->min_ms);
    gp_html_td_num(out, "%.4f", row->max_ms);
    gp_html_td_num(out, "%.0f", (double)row->bytes);
    gp_html_td_num(out, "%.2f", gp_activity_gbps(row));
}

static void copies_table(FILE *out, const gp_activity_tables *t)
{
    const gp_activity_row *rows = t->rows, *host = t->host;
    const size_t n = t->n, n_host = t->n_host;
    static const char *const titles[] = {"activity", "host memory", "calls", "total_ms",
                                         "avg_ms", "min_ms", "max_ms", "bytes", "GB/s"};
    fputs("<table class=\"activities\"><tr>", out);
    gp_html_th_list(out, titles, sizeof titles / sizeof titles[0], 2);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr>", out);
        gp_html_td_text(out, gp_activity_title(rows[i].kind));
        gp_html_td_text(out, "");
        row_cells(out, &rows[i]);
        fputs("</tr>\n", out);
        for (size_t k = 0; k < n_host; k++) {
            if (host[k].kind != rows[i].kind)
                continue;
            fputs("<tr>", out);
            gp_html_td_text(out, "");
            gp_html_td_text(out, gp_memory_names[host[k].host]);
            row_cells(out, &host[k]);
            fputs("</tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

static void pageable_note(FILE *out, const gp_exec_info *e)
{
    const double pageable = gp_exec_pageable_percent(e);
    if (!(pageable > 0))
        return;
    fprintf(out, "<p class=\"note\">Pageable: %.1f %% of the bytes copied between host and "
                 "device. Pageable copies go through a staging buffer and do not overlap "
                 "kernels: pin the memory (cudaMallocHost, cudaHostRegister).</p>\n",
            pageable);
}

static void unified_table(FILE *out, const gp_exec_info *e)
{
    gp_um_row rows[GP_UM_COUNTERS];
    const size_t n = gp_unified_rows(e, rows);
    if (!n)
        return;
    fputs("<h3>Unified memory</h3>\n", out);
    gp_part_html(out, &gp_unified_part, rows, n, NULL, "unified");
    fputs("<p class=\"note\">Bytes for the transfers; faults, fault groups or events for the "
          "others.</p>\n", out);
}

int gp_html_activities(FILE *out, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    if (!gp_exec_has_activities(e))
        return GP_OK;
    gp_activity_tables t;
    const int rc = gp_exec_activity_tables(e, &t);
    if (rc == GP_OK) {
        fputs("<h2>GPU activities</h2>\n", out);
        if (t.n)
            copies_table(out, &t);
        pageable_note(out, e);
        unified_table(out, e);
    }
    gp_activity_tables_free(&t);
    return rc;
}
