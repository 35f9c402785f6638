/* The cubin copies of inject/cubin_copies.h. */
#include "inject/cubin_copies.h"

#include "gpuprof/sass_source.h"
#include "gpuprof/status.h"

static bool keep; /* Guard: none, set before any callback */

void gp_cubin_copies_start(bool want)
{
    keep = want;
}

void gp_cubin_copies_on_module(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    if (!keep || cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED || !r || !r->resourceDescriptor)
        return;
    const CUpti_ModuleResourceData *m = r->resourceDescriptor;
    if (!m->pCubin || gp_cubins_add(m->pCubin, m->cubinSize) != GP_OK)
        gp_clear_error(); /* the module's lines stay unknown: its records lack them */
}
