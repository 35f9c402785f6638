/* A kernel command's --stalls (gpuprof transpose --stalls): its kernels' warp stalls are
 * sampled in a child process, since CUPTI's PC sampling gives no PC in a context where the
 * range profiler ran (bench/README.md, PC sampling beside the other collectors). The command
 * runs again, as the program of exec --stalls, without counters; the report is exec's: each
 * kernel's times and its stall section. The child's own table passes through in text and
 * Markdown, and goes to /dev/null in the other formats, where it would break the report.
 * With --source, once the child has ended, this process runs the command once more, its
 * instructions counted, and the report holds those lines too, each beside its stalls
 * (gpuprof/source_stalls.h). */
#ifndef GPUPROF_COMMANDS_KERNEL_STALLS_H
#define GPUPROF_COMMANDS_KERNEL_STALLS_H

#include "gpuprof/report.h"
#include "gpuprof/request.h"

#include <stdbool.h>
#include <stdio.h>

/* Whether this process is that child: exec --stalls' library options are in its environment
 * (its kernels are then run and sampled here, its --stalls asked of the parent). */
bool gp_kernel_stalls_child(void);
/* The parent's work: the command line run again under exec --stalls. */
int gp_kernel_stalls(const gp_request *req, FILE *out, gp_report *report);

#endif
