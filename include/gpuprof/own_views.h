/* A kernel command's --source --stalls (commands/kernel_stalls.c): the lines gpuprof's own run
 * of the command counted, after the sampled child, adopted as the exec report's views. */
#ifndef GPUPROF_OWN_VIEWS_H
#define GPUPROF_OWN_VIEWS_H

#include "gpuprof/report.h"

/* The lines its own run counted (each result's kernels in `from`, moved: from keeps none), in
 * process pid, made e's views (GP_OWN_RUN, each noted with its result), and --source asked. */
int gp_exec_add_own_views(gp_exec_info *e, gp_report *from, int pid);

#endif
