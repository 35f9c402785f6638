/* gpuprof exec's GPU activities besides kernels, as nvprof printed them: one row per kind
 * of memory copy (by direction) and one for memsets, with their calls, times, bytes and
 * throughput, and the host memory the copies used (pageable, pinned, managed). Derived
 * from the report's activities whenever a report is rendered. */
#ifndef GPUPROF_EXEC_ACTIVITIES_H
#define GPUPROF_EXEC_ACTIVITIES_H

#include "gpuprof/activity_names.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies or memsets of one kind, or of one kind and one host memory. */
typedef struct {
    gp_activity_kind kind;
    gp_memory_kind host;          /* the host side's memory (GP_MEMORY_UNKNOWN: none, or the
                                     row of every host memory) */
    size_t calls, timed;          /* timed: calls whose time is known */
    uint64_t bytes, timed_bytes;  /* timed_bytes: of the timed calls */
    double total_ms, min_ms, max_ms;   /* min/max NAN when none was timed */
} gp_activity_row;

/* Rows per kind of activity, the most time first (ties: by kind). *out NULL when none. */
int gp_exec_activity_rows(const gp_exec_info *e, gp_activity_row **out, size_t *n);
/* Rows per kind and host memory, of the copies with a host side, by kind then memory. */
int gp_exec_host_memory_rows(const gp_exec_info *e, gp_activity_row **out, size_t *n);

/* Both: the rows by kind and by kind and host memory (free with gp_activity_tables_free). */
typedef struct {
    gp_activity_row *rows, *host;
    size_t n, n_host;
} gp_activity_tables;
int gp_exec_activity_tables(const gp_exec_info *e, gp_activity_tables *t);
void gp_activity_tables_free(gp_activity_tables *t);

/* Throughput in GB/s (1e9 bytes/s): the timed calls' bytes over their time; NAN when no
 * time was measured. */
double gp_activity_gbps(const gp_activity_row *row);
/* The timed calls' total and average time in ms; NAN when none was timed. */
double gp_activity_total_ms(const gp_activity_row *row);
double gp_activity_average_ms(const gp_activity_row *row);
/* The share (%) of the bytes copied between host and device that came from or went to
 * pageable memory; NAN when no copy touched host memory. */
double gp_exec_pageable_percent(const gp_exec_info *e);
/* The host side's memory of a copy (source for HtoD/HtoA/HtoH, destination for DtoH/AtoH),
 * GP_MEMORY_UNKNOWN where the copy has none. */
gp_memory_kind gp_activity_host_memory(const gp_exec_activity *a);
/* Whether the report has copies, memsets or unified-memory counts. */
bool gp_exec_has_activities(const gp_exec_info *e);
/* Whether any unified-memory counter counted. */
bool gp_exec_has_unified(const gp_exec_info *e);

/* The activity's duration in ms, or NAN when its time is unknown. */
double gp_activity_ms(const gp_exec_activity *a);
/* Whether the program issued the copy or memset before the launch (an earlier pid, or the
 * same pid and a smaller correlation id); true for every one when l is NULL (the end). The
 * order in which --launches lists them among the launches, in text and CSV. */
bool gp_activity_issued_before(const gp_exec_activity *a, const gp_exec_launch *l);

#endif
