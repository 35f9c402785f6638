/* gpuprof exec's copies, memsets and unified memory (report/exec_activities.c, the renderers)
 * on tests/fixtures/exec-activities.json (records of tests/fixtures/records/activities read by
 * exec): the rows by kind and host memory, the pageable share, and --launches' order. */
#include "tap.h"

#include "gpuprof/exec_activities.h"
#include "gpuprof/render.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gp_activity_row *row_of(const gp_activity_row *rows, size_t n, gp_activity_kind k,
                                     gp_memory_kind m)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].kind == k && rows[i].host == m)
            return &rows[i];
    return NULL;
}

static void rows_by_kind(const gp_exec_info *e)
{
    gp_activity_tables t;
    tap_ok(gp_exec_activity_tables(e, &t) == GP_OK && t.n == 4 && t.n_host == 4,
           "activity rows: 4 kinds (HtoD, DtoH, DtoD, memset), 4 by host memory");
    const gp_activity_row *htod = row_of(t.rows, t.n, GP_ACTIVITY_HTOD, GP_MEMORY_UNKNOWN);
    tap_ok(htod && htod->calls == 2 && htod->bytes == 8388608 && htod->timed == 2,
           "activity rows: HtoD's calls and bytes");
    tap_near(htod ? htod->total_ms : 0, 0.402112 + 0.16384, 1e-12, "activity rows: HtoD's time");
    tap_near(htod ? htod->min_ms : 0, 0.16384, 1e-12, "activity rows: HtoD's shortest");
    tap_ok(t.n == 4 && t.rows[0].kind == GP_ACTIVITY_HTOD && t.rows[3].kind == GP_ACTIVITY_DTOD,
           "activity rows: the most time first");
    const gp_activity_row *pageable = row_of(t.host, t.n_host, GP_ACTIVITY_HTOD, GP_MEMORY_PAGEABLE),
                          *pinned = row_of(t.host, t.n_host, GP_ACTIVITY_HTOD, GP_MEMORY_PINNED);
    tap_ok(pageable && pinned && pageable->calls == 1 && pinned->bytes == 4194304,
           "host memory rows: HtoD pageable and pinned apart");
    tap_near(pinned ? gp_activity_gbps(pinned) : 0, 4194304 / 0.16384e-3 / 1e9, 1e-9,
             "host memory rows: throughput is bytes over time, GB/s");
    tap_ok(!row_of(t.host, t.n_host, GP_ACTIVITY_DTOD, GP_MEMORY_DEVICE),
           "host memory rows: a device-to-device copy has no host side");
    tap_near(gp_exec_pageable_percent(e), 50, 1e-9, "the pageable share of host copies' bytes");
    gp_activity_tables_free(&t);
}

static char *render_text(const gp_report *r, bool launches)
{
    return tap_render_report(r, (gp_render_options){.format = GP_OUT_TEXT, .launches = launches});
}

/* --launches: the memset, the two HtoD copies, the kernel, then the rest, as issued. */
static void launches_in_order(const gp_report *r)
{
    char *text = render_text(r, true);
    static const char *const order[] = {"[CUDA memset] 4.19MB\n", "[CUDA memcpy HtoD] 4.19MB pageable",
                                        "[CUDA memcpy HtoD] 4.19MB pinned", "#1 scale\n",
                                        "[CUDA memcpy DtoD]", "[CUDA memcpy DtoH] 4.19MB pageable",
                                        "[CUDA memcpy DtoH] 4.19MB pinned", "[CUDA memset]"};
    const char *at = text;
    for (size_t i = 0; at && i < sizeof order / sizeof order[0]; i++) {
        at = strstr(at, order[i]);
        if (at)
            at += strlen(order[i]);
    }
    tap_ok(at != NULL, "--launches: copies and memsets among the kernels, in issue order");
    free(text);
    text = render_text(r, false);
    tap_ok(text && strstr(text, "GPU activities:") && strstr(text, "Unified memory:") &&
               strstr(text, "pageable: 50.0%") &&
               strstr(text, " 0.45%   5.12us     1   5.12us") &&
               strstr(text, "    2      1      1      1      2        -  CPU Page faults"),
           "text: the GPU activities, the pageable share, the unified-memory counters");
    free(text);
}

static void report_without_activities(void)
{
    gp_report r;
    gp_report_init(&r);
    r.is_exec = true;
    tap_ok(!gp_exec_has_activities(&r.exec) && isnan(gp_exec_pageable_percent(&r.exec)),
           "a report without copies has no activities and no pageable share");
    char *text = render_text(&r, false);
    tap_ok(text && !strstr(text, "GPU activities"), "text: no GPU activities section then");
    free(text);
    gp_report_free(&r);
}

/* A copy whose time is unknown counts as a call, not in the time, the throughput or the
 * least and most; copies to managed and pinned memory make no pageable share. */
static void untimed_copy(void)
{
    gp_exec_info e = {0};
    gp_exec_activity *a;
    if (gp_exec_add_activity(&e, &a) == GP_OK)
        *a = (gp_exec_activity){.kind = GP_ACTIVITY_DTOH, .dst = GP_MEMORY_MANAGED,
                                .bytes = 1000000, .start_ns = 0, .end_ns = 1000};
    if (gp_exec_add_activity(&e, &a) == GP_OK)
        *a = (gp_exec_activity){.kind = GP_ACTIVITY_DTOH, .dst = GP_MEMORY_PINNED,
                                .bytes = 5000000, .start_ns = 1, .end_ns = 0};
    gp_activity_row *rows = NULL;
    size_t n = 0;
    tap_ok(gp_exec_activity_rows(&e, &rows, &n) == GP_OK && n == 1 && rows[0].calls == 2 &&
               rows[0].timed == 1 && rows[0].bytes == 6000000 && rows[0].max_ms == 0.001,
           "an untimed copy: a call and its bytes, not in the time");
    tap_near(n ? gp_activity_gbps(&rows[0]) : 0, 1000, 1e-9,
             "an untimed copy: the throughput of the timed ones (1 MB in 1 us: 1000 GB/s)");
    tap_near(gp_exec_pageable_percent(&e), 0, 0, "managed and pinned copies: nothing pageable");
    free(rows);
    free(e.activities);
}

void test_activities(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/exec-activities.json", tap_fixtures);
    gp_report r;
    gp_report_init(&r);
    if (tap_ok(gp_report_read_json(path, &r) == GP_OK, "exec-activities.json reads")) {
        rows_by_kind(&r.exec);
        launches_in_order(&r);
    }
    gp_report_free(&r);
    report_without_activities();
    untimed_copy();
}
