/* The names of gpuprof exec's GPU activities besides kernels (gpuprof/report.h's
 * gp_activity_kind, gp_memory_kind, gp_um_counter): the keys the JSON report and CSV use,
 * the titles people read. One table per enum, in src/report/activity_names.c, so the
 * renderers and the report's reader agree. */
#ifndef GPUPROF_ACTIVITY_NAMES_H
#define GPUPROF_ACTIVITY_NAMES_H

#include "gpuprof/report.h"

#include <stdbool.h>

/* "memcpy HtoD", "memset": the JSON and CSV key, by kind. */
extern const char *const gp_activity_keys[GP_ACTIVITY_KINDS];
/* "pageable", "pinned", "managed", ... ("unknown" for GP_MEMORY_UNKNOWN), by kind. */
extern const char *const gp_memory_names[GP_MEMORY_KINDS];
/* "cpu_page_faults": the JSON key of each unified-memory counter. */
extern const char *const gp_um_keys[GP_UM_COUNTERS];

/* "[CUDA memcpy HtoD]", "[CUDA memset]": as nvprof named them. */
const char *gp_activity_title(gp_activity_kind k);
/* "CPU Page faults": the counter in words, as nvprof's unified-memory section named it. */
const char *gp_um_title(gp_um_counter c);
/* Whether the counter's values are bytes (else faults or events). */
bool gp_um_is_bytes(gp_um_counter c);

#endif
