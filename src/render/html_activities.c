/* The exec page's "GPU activities" section: nvprof's rows for copies (by direction) and
 * memsets, each followed by its copies split by host memory (pageable, pinned, managed),
 * the pageable share, and the unified-memory counters; the tables are parts
 * (report/activities_part.c, report/unified_part.c). */
#include "render/html_activities.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/html_page.h"
#include "render/part.h"

#include <stdlib.h>

/* Each kind's row followed by its rows by host memory. */
static int copies_table(FILE *out, const gp_activity_tables *t)
{
    gp_activity_row *rows;
    size_t n;
    GP_TRY(gp_copies_rows(t, &rows, &n));
    if (n)
        gp_part_html(out, &gp_copies_part, rows, n, NULL, "activities");
    free(rows);
    return GP_OK;
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
    int rc = gp_exec_activity_tables(e, &t);
    if (rc == GP_OK) {
        fputs("<h2>GPU activities</h2>\n", out);
        rc = copies_table(out, &t);
    }
    if (rc == GP_OK) {
        pageable_note(out, e);
        unified_table(out, e);
    }
    gp_activity_tables_free(&t);
    return rc;
}
