/* --nvtx's records read into the report (gpuprof/record_format.h): `range` records (a
 * process's NVTX range paths by number), the `range` of a launch record, and `R` lines (the
 * range of the kernel whose `K` line comes just before). Each launch keeps its path
 * (gp_exec_launch.range). Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_RANGES_H
#define GPUPROF_RECORDS_READ_RANGES_H

#include "records/reader.h"

#include <stdint.h>

int gp_records_read_range(reader *rd, const cJSON *o);
/* A launch record's "range" (absent or 0: none) given to its launch. */
int gp_records_launch_range(reader *rd, const cJSON *o, gp_exec_launch *l);
/* `R` lines: the field out of range (NULL: none), and the range given to the launch. */
const char *gp_records_range_out_of_range(const uint64_t *r);
int gp_records_read_range_line(reader *rd, const uint64_t *r);
void gp_records_free_ranges(reader *rd);

#endif
