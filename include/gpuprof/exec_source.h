/* gpuprof exec --source: each kernel's per-line view (gp_exec_source_view, gpuprof/report.h)
 * tied to the launches of the report: the launch patched, the kernel's name as the summary
 * names it, and the launch's place among its kernel's launches (what ncu's --launch-skip
 * counts). */
#ifndef GPUPROF_EXEC_SOURCE_H
#define GPUPROF_EXEC_SOURCE_H

#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether the report has the per-line part: --source was asked (a view per kernel, or a
 * note on why there are none). The one test every view of the part makes. */
bool gp_exec_has_source(const gp_exec_info *e);

/* The launch the view was patched in (its source, pid and id); NULL: none, or not in the
 * report. */
const gp_exec_launch *gp_exec_source_launch(const gp_exec_info *e, const gp_exec_source_view *v);
/* The kernel's full name as the summary names it: its patched launch's, else that of a launch
 * of the same mangled name in its process, else the mangled name demangled (or as it is).
 * malloc'd; NULL when out of host memory. */
char *gp_exec_source_kernel(const gp_exec_info *e, const gp_exec_source_view *v);
/* The variant of its kernel the view is of (gp_exec_launch.variant, by the view's code); 0
 * when the kernel ran one code. */
unsigned gp_exec_source_variant(const gp_exec_info *e, const gp_exec_source_view *v);
/* The patched launch's place among its kernel's launches (all its variants, as ncu counts
 * them by name) in its process, from 1 (ncu
 * --launch-skip=N-1 with the kernel's name profiles it); 0: unknown. */
uint64_t gp_exec_source_ordinal(const gp_exec_info *e, const gp_exec_source_view *v);

/* Whether some view of e was counted in gpuprof's own run (GP_OWN_RUN). */
bool gp_exec_source_own_run(const gp_exec_info *e);

#endif
