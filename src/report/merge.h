/* What the two ways of making several reports one share (report/merge.c defines it; the rank
 * view's fold, report/rank_merge.c, takes the same header and counts the same processes):
 * both hand a part's header over to the merged report, and both add a part's processes and
 * the GPUs they ran on. Private to src/report/. */
#ifndef GPUPROF_REPORT_MERGE_H
#define GPUPROF_REPORT_MERGE_H

#include "gpuprof/report.h"

#include <stddef.h>

/* A command line handed over whole, the one it replaces freed: `from` is left empty, so
 * freeing it frees none of it. */
void gp_merge_move_words(char ***to, size_t *to_len, char ***from, size_t *from_len);

/* What ran and where, from `part` to `into`: gpuprof's version, the command and its command
 * line (moved), the GPU and the profiler. The rest of a header is each merge's own. */
void gp_merge_take_header(gp_report *into, gp_report *part);

/* The part's processes counted into `into`, and the GPUs they ran on that `into` lacks (the
 * same index and name: one GPU, however many processes used it). */
int gp_merge_add_processes(gp_exec_info *into, const gp_exec_info *part);

#endif
