/* A kernel's per-line view (--source) beside its warp-stall samples (--stalls). The two come
 * from two runs (patched code spoils PC sampling): an exec report of each merged by `gpuprof
 * report`, or a kernel command's --source --stalls. Where a report holds both for one kernel
 * code (the same mangled name and cubin CRC, as gp_stall_summarize keys its kernels), each
 * line of the view (by file and line; without line information, by its one instruction's
 * offset) and each instruction (by offset) is joined to its samples: their share of the
 * kernel's and their top group. Derived whenever a view is rendered, from the report's
 * gp_stall_summary (gpuprof/exec_stalls.h); report layer: never prints, never exits. */
#ifndef GPUPROF_SOURCE_STALLS_H
#define GPUPROF_SOURCE_STALLS_H

#include "gpuprof/exec_stalls.h"
#include "gpuprof/report.h"
#include "gpuprof/source_view.h"

#include <stdbool.h>
#include <stdint.h>

/* The summary's kernel of that mangled name and code; NULL: none was sampled (s NULL: no
 * summary). */
const gp_stall_kernel *gp_source_stall_kernel(const gp_stall_summary *s, const char *mangled,
                                              uint64_t code);
/* Whether k's lines are shown in a per-line view of e (a view with a launch, of its name and
 * code): people's views then give its lines' samples there, beside the sectors, and not
 * again in the stall section. */
bool gp_stall_kernel_has_lines(const gp_exec_info *e, const gp_stall_kernel *k);
/* Whether some view of e with lines is joined to s's samples. */
bool gp_source_any_stalls(const gp_exec_info *e, const gp_stall_summary *s);

/* The samples of line l of view v (NULL: none sampled); of the instruction at offset pc. */
const gp_stall_line *gp_source_line_stalls(const gp_stall_kernel *k, const gp_source_kernel *v,
                                           const gp_source_line *l);
const gp_stall_line *gp_source_pc_stalls(const gp_stall_kernel *k, uint32_t pc);

/* Whether people's views list a line or an instruction: it moves memory, or it holds
 * GP_STALL_LINE_MIN_PERCENT of k's samples at least (k NULL: the view has none joined): a
 * slow line that moves nothing is listed too. */
bool gp_source_line_listed(const gp_stall_kernel *k, const gp_source_kernel *v,
                           const gp_source_line *l);
bool gp_source_pc_listed(const gp_stall_kernel *k, const gp_source_pc *p);

/* The group of the most samples (ties: the first, memory first); GP_STALL_GROUPS: none. */
gp_stall_group gp_stall_top_group(const gp_stall_counts *c);

#endif
