/* Memory copies, memsets and unified memory from CUPTI's activity records: an `M`, `S` or
 * `U` line each (gpuprof/record_format.h), written with the kernels' lines by activity_records.c's buffer
 * callback. Always on, whatever --metrics asks: they need no replay. What CUPTI refuses
 * becomes a warning record. */
#ifndef GPUPROF_INJECT_ACTIVITY_MEMORY_H
#define GPUPROF_INJECT_ACTIVITY_MEMORY_H

#include "inject/inject.h"

#include "inject/record.h"

#include <cupti.h>
#include <stdbool.h>

/* Enable the copy, memset and unified-memory records (before the first context); what CUPTI
 * does not support here is said in a warning record. */
void gp_activity_memory_enable(void);
/* Unified memory's counters, which CUPTI configures and starts only once the driver is
 * initialized, started now if the start above had to wait for it (at a context's creation,
 * a launch); with last_try, what still fails is said in a warning record. */
void gp_activity_memory_retry(bool last_try);
/* The record's line added to the batch when it is a copy, memset or unified-memory record
 * (true), else false: not one of these. */
bool gp_activity_memory_add(gp_record *batch, const CUpti_Activity *rec);

#endif
