/* --stalls' records read into the report (gpuprof/record_format.h): a context's `stalls`
 * record (its period, reasons and CUPTI's totals) and its `stall` records (an instruction's
 * samples per reason), into gp_exec_info.stalls. CUPTI's reason names lose their prefix
 * (smsp__pcsamp_warps_issue_stalled_); a reason's _not_issued twin counts a part of its
 * samples (those in which the warp did not issue), added into the instruction's not_issued. An instruction sampled in several contexts of a
 * process is one instruction of the report. Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_STALLS_H
#define GPUPROF_RECORDS_READ_STALLS_H

#include "records/reader.h"

int gp_records_read_stalls(reader *rd, const cJSON *o);
int gp_records_read_stall(reader *rd, const cJSON *o);
void gp_records_free_stalls(reader *rd);

#endif
