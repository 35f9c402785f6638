/* Expanding a kernel command's request into problems and configurations, once, checking each
 * combination before anything touches a GPU: one cartesian product, read off the family's
 * parameter descriptors. */
#include "gpuprof/plan.h"

#include "gpuprof/status.h"
#include "catalogue/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a parameter's values ---------------------------------------------------------------- */

/* Whether the request lists values of parameter i for variant v (NULL: a problem parameter,
 * which applies to every variant). */
static bool listed_for(const gp_request *req, size_t i, const gp_variant *v)
{
    return req->params[i].n && (!v || gp_param_applies(&req->family->params[i], v));
}

/* The values of parameter i for variant v: the request's list, else its one default. */
static size_t value_count(const gp_request *req, size_t i, const gp_variant *v)
{
    return listed_for(req, i, v) ? req->params[i].n : 1;
}

static double value_at(const gp_request *req, size_t i, const gp_variant *v, size_t k)
{
    return listed_for(req, i, v) ? req->params[i].values[k]
                                 : gp_param_default_for(&req->family->params[i], v);
}

/* Every parameter's slot NAN, until a combination fills those of its axis. */
static double *no_values(double *values)
{
    for (size_t i = 0; i < GP_MAX_PARAMS; i++)
        values[i] = NAN;
    return values;
}

/* ---- combinations of one axis's parameters ------------------------------------------------ */

typedef struct {
    const gp_request *req;
    gp_param_axis axis;
    const gp_variant *variant;  /* a configuration's: whose lists and defaults apply */
    int (*each)(void *ctx, const double *values);
    void *ctx;
} combinations;

static size_t count_combinations(const gp_request *req, gp_param_axis axis,
                                 const gp_variant *v)
{
    size_t n = 1;
    for (size_t i = 0; i < req->family->n_params; i++)
        if (req->family->params[i].axis == axis)
            n *= value_count(req, i, v);
    return n;
}

/* each() for every combination of the values of parameters i and after, the first varying
 * slowest: the order of nested loops, the order results are documented in. */
static int combine(const combinations *c, double *values, size_t i)
{
    const gp_family *f = c->req->family;
    if (i == f->n_params)
        return c->each(c->ctx, values);
    if (f->params[i].axis != c->axis)
        return combine(c, values, i + 1);
    for (size_t k = 0; k < value_count(c->req, i, c->variant); k++) {
        values[i] = value_at(c->req, i, c->variant, k);
        GP_TRY(combine(c, values, i + 1));
    }
    return GP_OK;
}

/* ---- one problem's configurations ------------------------------------------------------ */

/* GP_VF_GROUP_BLOCK variants: a square block, its side the problem parameter that says so. */
static gp_dim3 group_block(const gp_problem *p, const gp_variant *v)
{
    const gp_family *f = p->family;
    for (size_t i = 0; i < f->n_params; i++)
        if (f->params[i].block_side) {
            const unsigned side = (unsigned)p->params[i];
            return (gp_dim3){side, side, 1};
        }
    return v->default_block;
}

/* The blocks the variant runs, in order: group-sized blocks ignore --block, and in a sweep
 * over variants not named a variant skips the listed blocks it does not take (named ones
 * were checked to take every one). */
static size_t blocks_to_run(const gp_request *req, const gp_problem *p, const gp_variant *v,
                            gp_dim3 *blocks)
{
    if (v->flags & GP_VF_GROUP_BLOCK) {
        blocks[0] = group_block(p, v);
        return 1;
    }
    if (req->n_blocks == 0) {
        blocks[0] = v->default_block;
        return 1;
    }
    size_t n = 0;
    for (size_t b = 0; b < req->n_blocks; b++)
        if (!req->skip_disallowed_blocks || gp_block_allowed(v, req->blocks[b]))
            blocks[n++] = req->blocks[b];
    return n;
}

static size_t count_configs(const gp_request *req, const gp_problem *p)
{
    size_t n = 0;
    for (size_t v = 0; v < req->n_variants; v++) {
        gp_dim3 blocks[GP_MAX_LIST];
        n += blocks_to_run(req, p, req->variants[v], blocks) *
             count_combinations(req, GP_PARAM_CONFIG, req->variants[v]);
    }
    return n;
}

/* The configurations of one variant at one block, one per combination of its values. */
typedef struct {
    gp_problem *problem;
    const gp_variant *variant;
    gp_dim3 block;
    size_t *next_result;
} config_seed;

/* One configuration, checked by its family. */
static int add_config(void *ctx, const double *values)
{
    const config_seed *s = ctx;
    gp_problem *p = s->problem;
    gp_config *c = &p->configs[p->n_configs++];
    *c = (gp_config){.variant = s->variant, .block = s->block, .result = (*s->next_result)++};
    memcpy(c->params, values, sizeof c->params);
    const gp_workload_ops *ops = p->family->workload;
    return ops->check ? ops->check(p, c) : GP_OK;
}

/* Every variant × block × configuration parameter values of the problem. */
static int fill_configs(const gp_request *req, gp_problem *p, size_t *next_result)
{
    for (size_t v = 0; v < req->n_variants; v++) {
        gp_dim3 blocks[GP_MAX_LIST];
        const size_t n = blocks_to_run(req, p, req->variants[v], blocks);
        for (size_t b = 0; b < n; b++) {
            config_seed seed = {p, req->variants[v], blocks[b], next_result};
            const combinations c = {req, GP_PARAM_CONFIG, req->variants[v], add_config, &seed};
            double values[GP_MAX_PARAMS];
            GP_TRY(combine(&c, no_values(values), 0));
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

/* The problems of one size and type, one per combination of the problem parameters' values. */
typedef struct {
    const gp_request *req;
    gp_plan *plan;
    gp_size size;
    gp_dtype dtype;
} problem_seed;

static int add_problem(void *ctx, const double *values)
{
    const problem_seed *s = ctx;
    const gp_request *req = s->req;
    gp_problem *p = &s->plan->problems[s->plan->n_problems++];
    *p = (gp_problem){.family = req->family, .size = s->size, .dtype = s->dtype,
                      .seed = req->seed, .restores_input = any_in_place(req)};
    memcpy(p->params, values, sizeof p->params);
    p->configs = calloc(count_configs(req, p), sizeof *p->configs);
    if (!p->configs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return fill_configs(req, p, &s->plan->n_configs);
}

int gp_plan_expand(const gp_request *req, gp_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->problems = calloc(req->n_sizes * req->n_types *
                                count_combinations(req, GP_PARAM_PROBLEM, NULL),
                            sizeof *plan->problems);
    if (!plan->problems)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = GP_OK;
    for (size_t s = 0; rc == GP_OK && s < req->n_sizes; s++)
        for (size_t t = 0; rc == GP_OK && t < req->n_types; t++) {
            problem_seed seed = {req, plan, req->sizes[s], req->types[t]};
            const combinations c = {req, GP_PARAM_PROBLEM, NULL, add_problem, &seed};
            double values[GP_MAX_PARAMS];
            rc = combine(&c, no_values(values), 0);
        }
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

double gp_recorded_param(const gp_problem *p, const gp_config *c, size_t i)
{
    const gp_param_def *d = &p->family->params[i];
    if (d->axis == GP_PARAM_PROBLEM)
        return p->params[i];
    const bool launchers =
        d->default_kind == GP_PARAM_DEFAULT_LAUNCHER && c->params[i] == 0; /* its choice */
    return gp_param_applies(d, c->variant) && !launchers ? c->params[i] : NAN;
}
