/* The kernel summary's part context for the views (render/kernel_rows.h). */
#include "render/kernel_rows.h"

#include "gpuprof/status.h"
#include "render/text_graph.h"

#include <stdlib.h>

#define NODES_LEN 256

/* The graph nodes each kernel ran as, for the summary's column; NULL where none did. */
static int graph_cells(const gp_report *r, const gp_exec_kernel *k, size_t nk, char ***cells)
{
    *cells = NULL;
    if (!gp_text_has_graph_nodes(&r->exec))
        return GP_OK;
    gp_text_graph_use *graph = NULL;
    GP_TRY(gp_text_graph_uses(&r->exec, k, nk, &graph));
    const size_t n = nk ? nk : 1;
    char **out = malloc(n * (sizeof *out + NODES_LEN));
    if (!out) {
        free(graph);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    char *text = (char *)(out + n);
    for (size_t i = 0; i < nk; i++) {
        out[i] = text + NODES_LEN * i;
        gp_text_graph_use_cell(out[i], NODES_LEN, &graph[i]);
    }
    free(graph);
    *cells = out;
    return GP_OK;
}

int gp_kernel_rows_init(gp_kernel_rows *kr, const gp_report *r, const gp_exec_kernel *k,
                        size_t nk, const gp_kernel_labels *kl)
{
    GP_TRY(graph_cells(r, k, nk, &kr->graph));
    kr->ctx = (gp_kernels_context){r, k, kl, (const char *const *)kr->graph,
                                   gp_exec_any_estimated(k, nk)};
    return GP_OK;
}

void gp_kernel_rows_free(gp_kernel_rows *kr)
{
    free(kr->graph);
    kr->graph = NULL;
}
