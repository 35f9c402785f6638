/* gpuprof exec's copies, memsets and unified memory as rows of exec's CSV (csv_activities.c):
 * the same header as the kernels' rows (csv.c), told apart by the kind column. */
#ifndef GPUPROF_RENDER_CSV_ACTIVITIES_H
#define GPUPROF_RENDER_CSV_ACTIVITIES_H

#include "gpuprof/report.h"

#include <stddef.h>

/* One row besides the kernels': a kind of copy or memset (and host memory), or a
 * unified-memory counter. NAN where a cell does not apply. */
/* The row column's values: a row to sum, or a part of one by host memory. */
#define GP_CSV_ROW_TOTAL "total"
#define GP_CSV_ROW_BY_HOST_MEMORY "by_host_memory"

typedef struct {
    char kind[48];        /* "memcpy HtoD", "memset", "unified_memory cpu_page_faults" ... */
    const char *host;     /* pageable, pinned, managed; "" for every host memory or none */
    const char *row;      /* GP_CSV_ROW_TOTAL, or GP_CSV_ROW_BY_HOST_MEMORY for a share of
                             a total row (summing by kind counts those rows only) */
    size_t calls;         /* copies or memsets; a counter's records */
    double total_ms, avg_ms, min_ms, max_ms;
    double bytes, gbps;   /* bytes copied or set (a byte counter's bytes), GB/s */
    double count;         /* a counter of faults or events: their number */
} gp_csv_activity_line;

/* The rows of e's activities, nvprof's "GPU activities" besides the kernels: per kind, per
 * kind and host memory, per unified-memory counter. *lines NULL when there are none; free
 * it with free(). */
int gp_csv_activity_lines(const gp_exec_info *e, gp_csv_activity_line **lines, size_t *n);

#endif
