/* The kernel summary's part context (gpuprof/report_parts.h) as the views need it: the graph
 * nodes each kernel ran as, written for people (gpuprof/exec_graph.h), and whether some
 * total is estimated. */
#ifndef GPUPROF_RENDER_KERNEL_ROWS_H
#define GPUPROF_RENDER_KERNEL_ROWS_H

#include "gpuprof/report_parts.h"

typedef struct {
    gp_kernels_context ctx;
    char **graph;                /* per kernel; NULL: none ran in a graph */
} gp_kernel_rows;

/* The context of the summary's nk kernels k, labelled by kl (NULL where no view names them
 * through it); gp_kernel_rows_free frees it. */
int gp_kernel_rows_init(gp_kernel_rows *kr, const gp_report *r, const gp_exec_kernel *k,
                        size_t nk, const gp_kernel_labels *kl);
void gp_kernel_rows_free(gp_kernel_rows *kr);

#endif
