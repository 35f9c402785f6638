/* The `profiler` records: each context's counters, metrics, replay and one-pass groups, as
 * its launches' values are to be read, rebuilt as a collector without a profiler; the first
 * one gives the report its profiler section. Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_PROFILERS_H
#define GPUPROF_RECORDS_READ_PROFILERS_H

#include "records/reader.h"

int gp_records_read_profiler(reader *rd, const cJSON *o);
/* A `footprint` record: --replay=auto's decision, into the profiler section. */
int gp_records_read_footprint(reader *rd, const cJSON *o);

#endif
