/* The kernel summary's part context for the views (render/kernel_rows.h). */
#include "render/kernel_rows.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/status.h"

#include <stdlib.h>

int gp_kernel_rows_init(gp_kernel_rows *kr, const gp_report *r, const gp_exec_kernel *k,
                        size_t nk, const gp_kernel_labels *kl)
{
    GP_TRY(gp_exec_graph_cells(&r->exec, k, nk, &kr->graph));
    kr->ctx = (gp_kernels_context){r, k, kl, (const char *const *)kr->graph,
                                   gp_exec_any_estimated(k, nk)};
    return GP_OK;
}

void gp_kernel_rows_free(gp_kernel_rows *kr)
{
    free(kr->graph);
    kr->graph = NULL;
}
