/* The report's parts declared as tables (gpuprof/part.h): each part's row type, its
 * declaration and how its rows are taken from the report. The renderers print them
 * (src/render/part.c), the loader reads them back (src/report/part.c). */
#ifndef GPUPROF_REPORT_PARTS_H
#define GPUPROF_REPORT_PARTS_H

#include "gpuprof/part.h"
#include "gpuprof/report.h"

/* Every declared part, for the tests that hold each declaration to its rules (each view's
 * order lists exactly the columns that view shows). */
extern const gp_part *const gp_report_parts[];
extern const size_t gp_n_report_parts;

/* ---- unified memory (src/report/unified_part.c) ------------------------------------------ */

/* A counter that counted: a row of the unified-memory part. */
typedef struct {
    gp_um_counter counter;
    gp_um_stats stats;
} gp_um_row;

/* Its columns: the counter (JSON's key), its records, their average, least, most and total
 * (bytes for the transfers; faults, fault groups or events for the others) and the time of
 * those with a duration. */
extern const gp_part gp_unified_part;
/* The counters that counted, in the counters' order, into rows[GP_UM_COUNTERS]; their number. */
size_t gp_unified_rows(const gp_exec_info *e, gp_um_row *rows);

#endif
