/* Expanding a kernel command's request into problems and configurations, once, checking each
 * combination before anything touches a GPU. */
#include "gpuprof/plan.h"

#include "gpuprof/status.h"
#include "catalogue/workload.h"

#include <stdlib.h>
#include <string.h>

/* The values of a list option, or its one default when the list is empty. */
typedef struct {
    const void *items;
    size_t count, size;
} choices;

static size_t choice_count(choices c)
{
    return c.count ? c.count : 1;
}

/* ---- one problem's configurations ------------------------------------------------------ */

static choices blocks_of(const gp_request *req, const gp_variant *v)
{
    /* Group-sized blocks ignore --block. */
    if (req->n_blocks && !(v->flags & GP_VF_GROUP_BLOCK))
        return (choices){req->blocks, req->n_blocks, sizeof req->blocks[0]};
    return (choices){NULL, 0, 0};
}

static choices pads_of(const gp_request *req, const gp_variant *v)
{
    if (req->n_pads && (v->flags & GP_VF_PADDED))
        return (choices){req->pads, req->n_pads, sizeof req->pads[0]};
    return (choices){NULL, 0, 0};
}

static choices grids_of(const gp_request *req, const gp_variant *v)
{
    if (req->n_grids && (v->flags & GP_VF_GRID))
        return (choices){req->grids, req->n_grids, sizeof req->grids[0]};
    return (choices){NULL, 0, 0};
}

/* Block b of the list for this variant: false when the variant does not take it (only
 * in a sweep over variants not named; named ones were checked to take every block). */
static bool runs_block(const gp_request *req, const gp_variant *v, size_t b)
{
    return !blocks_of(req, v).count || !req->skip_disallowed_blocks ||
           gp_block_allowed(v, req->blocks[b]);
}

static size_t configs_of_variant(const gp_request *req, const gp_variant *v)
{
    size_t blocks = 0;
    for (size_t b = 0; b < choice_count(blocks_of(req, v)); b++)
        blocks += runs_block(req, v, b);
    return blocks * choice_count(pads_of(req, v)) * choice_count(grids_of(req, v));
}

static gp_config make_config(const gp_request *req, const gp_problem *p, const gp_variant *v,
                             size_t b, size_t k, size_t g)
{
    gp_config c = {.variant = v, .block = v->default_block, .pad = v->default_pad};
    if (v->flags & GP_VF_GROUP_BLOCK)
        c.block = (gp_dim3){p->group, p->group, 1};
    else if (blocks_of(req, v).count)
        c.block = req->blocks[b];
    if (pads_of(req, v).count)
        c.pad = (int)req->pads[k];
    if (grids_of(req, v).count)
        c.grid = req->grids[g];
    return c;
}

/* Every variant × block × pad × grid of the problem, checked by its family. */
static int fill_configs(const gp_request *req, gp_problem *p, size_t *next_result)
{
    const gp_workload_ops *ops = p->family->workload;
    size_t n = 0;
    for (size_t v = 0; v < req->n_variants; v++) {
        const gp_variant *var = req->variants[v];
        for (size_t b = 0; b < choice_count(blocks_of(req, var)); b++)
            for (size_t k = 0; runs_block(req, var, b) && k < choice_count(pads_of(req, var));
                 k++)
                for (size_t g = 0; g < choice_count(grids_of(req, var)); g++) {
                    gp_config *c = &p->configs[n++];
                    *c = make_config(req, p, var, b, k, g);
                    c->result = (*next_result)++;
                    if (ops->check)
                        GP_TRY(ops->check(p, c));
                }
    }
    return GP_OK;
}

/* ---- problems ---------------------------------------------------------------------------- */

static bool any_in_place(const gp_request *req)
{
    for (size_t v = 0; v < req->n_variants; v++)
        if (req->variants[v]->flags & GP_VF_IN_PLACE)
            return true;
    return false;
}

static int add_problem(const gp_request *req, gp_plan *plan, gp_size size, gp_dtype dtype,
                       unsigned group)
{
    gp_problem *p = &plan->problems[plan->n_problems++];
    *p = (gp_problem){.family = req->family, .size = size, .dtype = dtype, .group = group,
                      .alpha = req->alpha, .seed = req->seed,
                      .restores_input = any_in_place(req)};
    size_t n = 0;
    for (size_t v = 0; v < req->n_variants; v++)
        n += configs_of_variant(req, req->variants[v]);
    p->configs = calloc(n, sizeof *p->configs);
    if (!p->configs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    p->n_configs = n;
    return fill_configs(req, p, &plan->n_configs);
}

int gp_plan_expand(const gp_request *req, gp_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    const size_t groups = req->n_groups ? req->n_groups : 1;
    plan->problems = calloc(req->n_sizes * req->n_types * groups, sizeof *plan->problems);
    if (!plan->problems)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = GP_OK;
    for (size_t s = 0; rc == GP_OK && s < req->n_sizes; s++)
        for (size_t t = 0; rc == GP_OK && t < req->n_types; t++)
            for (size_t g = 0; rc == GP_OK && g < groups; g++)
                rc = add_problem(req, plan, req->sizes[s], req->types[t],
                                 req->n_groups ? req->groups[g] : 0);
    if (rc != GP_OK)
        gp_plan_free(plan);
    return rc;
}

void gp_plan_free(gp_plan *plan)
{
    for (size_t i = 0; i < plan->n_problems; i++)
        free(plan->problems[i].configs);
    free(plan->problems);
    memset(plan, 0, sizeof *plan);
}
