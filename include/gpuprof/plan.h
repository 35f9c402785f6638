/* A kernel command's request expanded once into what will run: problems (the inputs and
 * their CPU reference: family, size, type, group) and, in each, configurations (variant,
 * block, pad, grid), each with the index of its result. Expanding checks every combination,
 * so each usage error surfaces before any device is opened. The expansion is one cartesian
 * product, read off the family's parameter descriptors: problems are size x type x each
 * problem parameter's values, configurations variant x block x each configuration
 * parameter's values (its one default for a variant it does not apply to). */
#ifndef GPUPROF_PLAN_H
#define GPUPROF_PLAN_H

#include "gpuprof/registry.h"
#include "gpuprof/request.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One launch configuration of one variant. */
typedef struct {
    const gp_variant *variant;
    gp_dim3 block;
    double params[GP_MAX_PARAMS]; /* the configuration parameters' values (pad, grid) by their
                                     index in the family's row, resolved: a default where not
                                     given or not applying; NAN for problem parameters */
    size_t result;         /* index of its result in the report */
} gp_config;

/* What the inputs and the reference depend on: shared by the configurations of one problem,
 * which are timed one after the other on the same data and profiled together. */
typedef struct {
    const gp_family *family;
    gp_size size;
    gp_dtype dtype;
    double params[GP_MAX_PARAMS]; /* the problem parameters' values (group, alpha) by their
                                     index in the family's row; NAN for the configurations' */
    uint64_t seed;
    bool restores_input;   /* some variant overwrites its input */
    gp_config *configs;
    size_t n_configs;
} gp_problem;

typedef struct {
    gp_problem *problems;
    size_t n_problems;
    size_t n_configs;      /* over all problems: the number of results */
} gp_plan;

/* Results come in this order: size, type and group (each in the order given), then, within
 * a problem, variant, block, pad and grid. GP_ERR_USAGE with the message for a combination
 * that cannot run; the plan is empty then. */
int gp_plan_expand(const gp_request *req, gp_plan *plan);
void gp_plan_free(gp_plan *plan);

/* The value results carry for the family's parameter i: NAN where it does not apply to the
 * configuration's variant, or where the launcher chooses it. */
double gp_recorded_param(const gp_problem *p, const gp_config *c, size_t i);

#endif
