/* The GPU activities besides kernels summarised (gpuprof/exec_activities.h): rows by kind of
 * copy and memset, rows by kind and host memory, the pageable share. */
#include "gpuprof/exec_activities.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- one activity ---------------------------------------------------------------------------- */

static bool is_host_memory(gp_memory_kind m)
{
    return m == GP_MEMORY_PAGEABLE || m == GP_MEMORY_PINNED || m == GP_MEMORY_MANAGED ||
           m == GP_MEMORY_MANAGED_STATIC;
}

/* Which side of a copy of each kind is the host's: 1 the source, 2 the destination. */
static const unsigned char host_side[GP_ACTIVITY_KINDS] = {
    [GP_ACTIVITY_HTOD] = 1, [GP_ACTIVITY_HTOA] = 1, [GP_ACTIVITY_HTOH] = 1,
    [GP_ACTIVITY_DTOH] = 2, [GP_ACTIVITY_ATOH] = 2,
};

gp_memory_kind gp_activity_host_memory(const gp_exec_activity *a)
{
    if (a->kind >= GP_ACTIVITY_KINDS || !host_side[a->kind])
        return GP_MEMORY_UNKNOWN;
    const gp_memory_kind m = host_side[a->kind] == 1 ? a->src : a->dst;
    return is_host_memory(m) ? m : GP_MEMORY_UNKNOWN;
}

double gp_activity_ms(const gp_exec_activity *a)
{
    return a->end_ns >= a->start_ns ? (double)(a->end_ns - a->start_ns) * 1e-6 : NAN;
}

bool gp_activity_issued_before(const gp_exec_activity *a, const gp_exec_launch *l)
{
    return !l || a->pid < l->pid || (a->pid == l->pid && a->id < l->id);
}

bool gp_exec_has_unified(const gp_exec_info *e)
{
    for (int c = 0; c < GP_UM_COUNTERS; c++)
        if (e->unified[c].events)
            return true;
    return false;
}

bool gp_exec_has_activities(const gp_exec_info *e)
{
    return e->n_activities > 0 || gp_exec_has_unified(e);
}

/* ---- rows -------------------------------------------------------------------------------------- */

static void add_to_row(gp_activity_row *row, const gp_exec_activity *a)
{
    const double ms = gp_activity_ms(a);
    row->calls++;
    row->bytes += a->bytes;
    if (isnan(ms))
        return;
    row->min_ms = row->timed == 0 || ms < row->min_ms ? ms : row->min_ms;
    row->max_ms = row->timed == 0 || ms > row->max_ms ? ms : row->max_ms;
    row->total_ms += ms;
    row->timed_bytes += a->bytes;
    row->timed++;
}

/* The rows in `grid` (kind × memory) that have calls, moved to a new array. */
static int gather(const gp_activity_row *grid, size_t cells, gp_activity_row **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t used = 0;
    for (size_t i = 0; i < cells; i++)
        used += grid[i].calls > 0;
    if (!used)
        return GP_OK;
    *out = malloc(used * sizeof **out);
    if (!*out)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < cells; i++)
        if (grid[i].calls)
            (*out)[(*n)++] = grid[i];
    return GP_OK;
}

static void init_grid(gp_activity_row *grid, bool by_memory)
{
    for (int k = 0; k < GP_ACTIVITY_KINDS; k++)
        for (int m = 0; m < (by_memory ? GP_MEMORY_KINDS : 1); m++)
            grid[k * (by_memory ? GP_MEMORY_KINDS : 1) + m] =
                (gp_activity_row){.kind = (gp_activity_kind)k, .host = (gp_memory_kind)m,
                                  .min_ms = NAN, .max_ms = NAN};
}

static int most_time_first(const void *a, const void *b)
{
    const gp_activity_row *x = a, *y = b;
    if (x->total_ms != y->total_ms)
        return x->total_ms > y->total_ms ? -1 : 1;
    return (int)x->kind - (int)y->kind;
}

int gp_exec_activity_rows(const gp_exec_info *e, gp_activity_row **out, size_t *n)
{
    gp_activity_row grid[GP_ACTIVITY_KINDS];
    init_grid(grid, false);
    for (size_t i = 0; i < e->n_activities; i++)
        if (e->activities[i].kind < GP_ACTIVITY_KINDS)
            add_to_row(&grid[e->activities[i].kind], &e->activities[i]);
    GP_TRY(gather(grid, GP_ACTIVITY_KINDS, out, n));
    if (*n > 1)
        qsort(*out, *n, sizeof **out, most_time_first);
    return GP_OK;
}

int gp_exec_host_memory_rows(const gp_exec_info *e, gp_activity_row **out, size_t *n)
{
    gp_activity_row grid[GP_ACTIVITY_KINDS * GP_MEMORY_KINDS];
    init_grid(grid, true);
    for (size_t i = 0; i < e->n_activities; i++) {
        const gp_exec_activity *a = &e->activities[i];
        const gp_memory_kind m = gp_activity_host_memory(a);
        if (m != GP_MEMORY_UNKNOWN)
            add_to_row(&grid[a->kind * GP_MEMORY_KINDS + m], a);
    }
    return gather(grid, GP_ACTIVITY_KINDS * GP_MEMORY_KINDS, out, n);
}

int gp_exec_activity_tables(const gp_exec_info *e, gp_activity_tables *t)
{
    *t = (gp_activity_tables){0};
    GP_TRY(gp_exec_activity_rows(e, &t->rows, &t->n));
    return gp_exec_host_memory_rows(e, &t->host, &t->n_host);
}

void gp_activity_tables_free(gp_activity_tables *t)
{
    free(t->rows);
    free(t->host);
    *t = (gp_activity_tables){0};
}

double gp_activity_gbps(const gp_activity_row *row)
{
    return row->timed && row->total_ms > 0
               ? (double)row->timed_bytes / (row->total_ms * 1e-3) / 1e9
               : NAN;
}

double gp_activity_total_ms(const gp_activity_row *row)
{
    return row->timed ? row->total_ms : NAN;
}

double gp_activity_average_ms(const gp_activity_row *row)
{
    return row->timed ? row->total_ms / (double)row->timed : NAN;
}

double gp_exec_pageable_percent(const gp_exec_info *e)
{
    double host = 0, pageable = 0;
    for (size_t i = 0; i < e->n_activities; i++) {
        const gp_memory_kind m = gp_activity_host_memory(&e->activities[i]);
        if (m == GP_MEMORY_UNKNOWN)
            continue;
        host += (double)e->activities[i].bytes;
        if (m == GP_MEMORY_PAGEABLE)
            pageable += (double)e->activities[i].bytes;
    }
    return host > 0 ? 100.0 * pageable / host : NAN;
}
