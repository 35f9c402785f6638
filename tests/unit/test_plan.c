/* Expanding requests into problems and configurations: how many, in which order, with which
 * resolved settings, and the usage errors only a family's launch arithmetic reveals. */
#include "tap.h"

#include "gpuprof/cli.h"
#include "gpuprof/plan.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static gp_request req;
static gp_plan plan;

/* Parse "gpuprof" + the NULL-terminated arguments and expand; the expansion's status. */
static int expand(const char *first, ...)
{
    static char *argv[32];
    int argc = 0;
    argv[argc++] = "gpuprof";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    gp_plan_free(&plan);
    gp_clear_error();
    int rc = gp_parse_command_line(argc, argv, &req);
    if (rc != GP_OK) {
        tap_diag("parse failed: %s", gp_error());
        return rc;
    }
    return gp_plan_expand(&req, &plan);
}

static const gp_config *config_at(size_t problem, size_t i)
{
    return problem < plan.n_problems && i < plan.problems[problem].n_configs
               ? &plan.problems[problem].configs[i]
               : NULL;
}

/* The families' parameters, as the plan resolved them. */
static double pad(const gp_config *c)
{
    return c->params[GP_TRANSPOSE_PAD];
}

static double grid(const gp_config *c)
{
    return c->params[GP_SAXPY_GRID];
}

static double group(const gp_problem *p)
{
    return p->params[GP_REDUCE2D_GROUP];
}

static void default_reduce(void)
{
    tap_ok(expand("reduce", NULL) == GP_OK, "reduce expands");
    tap_ok(plan.n_problems == 1 && plan.n_configs == gp_find_family("reduce")->n_variants,
           "one problem, one configuration per variant (%zu)", plan.n_configs);
    bool in_order = true;
    for (size_t i = 0; i < plan.n_configs; i++)
        in_order &= config_at(0, i) && config_at(0, i)->result == i &&
                    config_at(0, i)->block.x == 512;
    tap_ok(in_order, "results numbered in order, each at its variant's default block");
    tap_ok(plan.problems[0].restores_input && plan.problems[0].size.n == (1u << 24) &&
               plan.problems[0].dtype == GP_INT32,
           "the book's in-place kernels make the problem restore its input; 2^24 int32");
}

static void sizes_types_and_blocks(void)
{
    tap_ok(expand("reduce", "--variant=shfl,cub", "--block=128,256", "--size=1000,2000",
                  "--type=int32,float32", NULL) == GP_OK, "reduce lists expand");
    tap_ok(plan.n_problems == 4 && plan.n_configs == 16,
           "2 sizes x 2 types = 4 problems of 2 variants x 2 blocks (%zu, %zu)",
           plan.n_problems, plan.n_configs);
    const gp_problem *p1 = &plan.problems[1];
    tap_ok(plan.problems[0].size.n == 1000 && p1->size.n == 1000 && p1->dtype == GP_FLOAT32 &&
               plan.problems[2].size.n == 2000,
           "problems by size, then type");
    const gp_config *c = p1->configs;
    tap_ok(p1->n_configs == 4 && strcmp(c[0].variant->name, "shfl") == 0 &&
               c[0].block.x == 128 && c[1].block.x == 256 &&
               strcmp(c[2].variant->name, "cub") == 0 && c[3].result == 7,
           "configurations by variant, then block; results numbered across problems");
}

static void pads_and_groups(void)
{
    tap_ok(expand("transpose", "--pad=0,1,2", "--block=32x8,32x16", NULL) == GP_OK,
           "transpose --pad=0,1,2 --block=32x8,32x16 expands");
    tap_ok(plan.n_configs == 3 * 3 * 2, "the three padded variants x 3 pads x 2 blocks (%zu)",
           plan.n_configs);
    const gp_config *c = plan.problems[0].configs;
    tap_ok(strcmp(c[0].variant->name, "smem") == 0 && c[0].block.y == 8 && pad(&c[0]) == 0 &&
               pad(&c[1]) == 1 && pad(&c[2]) == 2 && c[3].block.y == 16,
           "blocks, then pads, within a variant");
    tap_ok(expand("transpose", "--variant=copy,smemunroll", NULL) == GP_OK &&
               pad(&plan.problems[0].configs[1]) == 2 && plan.n_configs == 2,
           "without --pad each padded variant takes its own default (smemunroll: 2)");
    tap_ok(expand("reduce2d", "--group=8,16", "--block=8x8", NULL) == GP_OK &&
               plan.n_problems == 2 && group(&plan.problems[1]) == 16 &&
               plan.problems[0].configs[0].block.x == 8 && plan.problems[1].configs[0].block.x == 16,
           "reduce2d: a problem per group; inner's block is group x group, whatever --block");
    tap_ok(plan.problems[0].configs[1].block.x == 8 && plan.problems[0].configs[1].block.y == 8,
           "reduce2d outer takes --block");
    tap_ok(expand("saxpy", "--grid=4,8", NULL) == GP_OK && plan.n_configs == 4 &&
               grid(&plan.problems[0].configs[0]) == 4 && grid(&plan.problems[0].configs[3]) == 8,
           "saxpy --grid=4,8 selects the grid-stride variants, two grids each");
}

/* Usage errors that depend on the variant's launch arithmetic: before any device. */
static void variant_errors(void)
{
    tap_ok(expand("saxpy", "--variant=monolithic", "--block=1", "--size=2^32", NULL) ==
                   GP_ERR_USAGE && strstr(gp_error(), "more than a grid holds"),
           "saxpy monolithic, blocks of 1, 2^32 elements: a usage error before any device (%s)",
           gp_error());
    tap_ok(plan.n_problems == 0 && plan.problems == NULL, "a refused plan holds nothing");
    tap_ok(expand("saxpy", "--variant=gridstride", "--block=1", "--size=2^32", NULL) == GP_OK,
           "the grid-stride loop covers 2^32 elements with any grid");
    tap_ok(expand("reduce", "--variant=neighbored", "--block=32", "--size=2^36", NULL) ==
               GP_ERR_USAGE, "reduce neighbored, blocks of 32, 2^36 elements: 2^31 blocks");
    tap_ok(expand("reduce", "--variant=unrolling2", "--block=32", "--size=2^36", NULL) == GP_OK,
           "unrolling2 halves the grid: 2^30 blocks are fine");
}

/* A sweep over variants not named runs each at the blocks it takes; named ones must take
 * them all. */
static void block_sweeps(void)
{
    tap_ok(expand("transpose", "--pad=0,1,2", "--block=32x8,32x16,16x16", "--size=4096x4096",
                  NULL) == GP_OK,
           "transpose --pad=0,1,2 --block=32x8,32x16,16x16 expands");
    size_t tile = 0, smem16 = 0;
    for (size_t i = 0; i < plan.n_configs; i++) {
        const gp_config *c = config_at(0, i);
        tile += c && strcmp(c->variant->name, "tile") == 0;
        smem16 += c && strcmp(c->variant->name, "smem") == 0 && c->block.x == 16;
    }
    tap_ok(plan.n_configs == 24 && tile == 6 && smem16 == 3,
           "smem and smemunroll at 3 blocks x 3 pads, tile at its 2 blocks x 3 pads (%zu)",
           plan.n_configs);
    tap_ok(expand("transpose", "--variant=tile,smem", "--block=16x16", NULL) == GP_ERR_USAGE &&
               strstr(gp_error(), "16x16 is not allowed for transpose tile"),
           "a named variant that does not take a block is refused");
    tap_ok(expand("transpose", "--pad=1", "--block=8x8", NULL) == GP_OK &&
               plan.n_configs == 2,
           "a variant that takes none of the blocks is left out of a sweep (%zu)",
           plan.n_configs);
}

/* transpose --pad=0,1,2 --block=32x8,32x16,16x16: variant, then block, then pad; tile takes
 * neither 16-wide block. */
static void documented_order(void)
{
    const int rc = expand("transpose", "--pad=0,1,2", "--block=32x8,32x16,16x16", NULL);
    tap_ok(rc == GP_OK && plan.n_problems == 1 && plan.n_configs == 24,
           "transpose --pad=0,1,2 --block=32x8,32x16,16x16: 24 results (%zu)", plan.n_configs);
    static const struct {
        const char *variant;
        unsigned bx, by;
    } runs[] = {{"smem", 32, 8}, {"smem", 32, 16}, {"smem", 16, 16}, {"smemunroll", 32, 8},
                {"smemunroll", 32, 16}, {"smemunroll", 16, 16}, {"tile", 32, 8},
                {"tile", 32, 16}};
    bool in_order = true;
    for (size_t i = 0; i < 24; i++) {
        const gp_config *c = config_at(0, i);
        in_order &= c && c->result == i && strcmp(c->variant->name, runs[i / 3].variant) == 0 &&
                    c->block.x == runs[i / 3].bx && c->block.y == runs[i / 3].by &&
                    pad(c) == (double)(i % 3);
    }
    tap_ok(in_order, "each result where plan.h says: variant, block, pad");

    const int rc2d = expand("reduce2d", "--group=2,4,8", NULL);
    tap_ok(rc2d == GP_OK && plan.n_problems == 3 && plan.n_configs == 6,
           "reduce2d --group=2,4,8: three problems of two variants (%zu, %zu)",
           plan.n_problems, plan.n_configs);
    bool groups = true;
    for (size_t p = 0; p < plan.n_problems; p++) {
        const gp_config *inner = config_at(p, 0), *outer = config_at(p, 1);
        const unsigned g = 2u << p;
        groups &= group(&plan.problems[p]) == g && inner && inner->block.x == g &&
                  inner->block.y == g && outer && outer->block.x == 16 &&
                  outer->result == 2 * p + 1;
    }
    tap_ok(groups, "problems by group in the order given; inner's block is group x group");

    tap_ok(expand("saxpy", "--grid=3,5", "--size=1000,2000", NULL) == GP_OK &&
               plan.n_problems == 2 && plan.n_configs == 8,
           "saxpy --grid=3,5 --size=1000,2000: 2 problems of 2 grid-stride variants x 2 grids");
    const gp_config *c = plan.problems[1].configs;
    tap_ok(strcmp(c[0].variant->name, "gridstride") == 0 && grid(&c[0]) == 3 &&
               grid(&c[1]) == 5 && strcmp(c[2].variant->name, "vec4") == 0 &&
               grid(&c[3]) == 5 && c[3].result == 7,
           "within a problem: variant, then grid");
}

/* A parameter that does not apply to a variant gives it its one default (the parser refuses
 * such a request; the plan still holds it). */
static void parameter_not_applying(void)
{
    tap_ok(expand("transpose", "--variant=copy,smem", NULL) == GP_OK, "transpose copy,smem");
    req.params[GP_TRANSPOSE_PAD] = (gp_param_values){.values = {1, 2}, .n = 2};
    gp_plan_free(&plan);
    const int rc = gp_plan_expand(&req, &plan);
    tap_ok(rc == GP_OK && plan.n_configs == 3,
           "pads 1 and 2: copy runs once, smem twice (%zu)", plan.n_configs);
    const gp_config *c = plan.problems[0].configs;
    tap_ok(strcmp(c[0].variant->name, "copy") == 0 && pad(&c[0]) == 0 && pad(&c[1]) == 1 &&
               pad(&c[2]) == 2,
           "copy at its default pad 0, smem at each listed pad");
    tap_ok(isnan(gp_recorded_param(&plan.problems[0], &c[0], GP_TRANSPOSE_PAD)) &&
               gp_recorded_param(&plan.problems[0], &c[2], GP_TRANSPOSE_PAD) == 2,
           "results record no pad where it does not apply");
}

/* What results carry: the values the families' former params() hooks gave. */
static void recorded_values(void)
{
    tap_ok(expand("transpose", NULL) == GP_OK && plan.n_configs == 5, "transpose expands");
    const gp_problem *p = &plan.problems[0];
    tap_ok(isnan(gp_recorded_param(p, config_at(0, 0), GP_TRANSPOSE_PAD)) &&
               isnan(gp_recorded_param(p, config_at(0, 1), GP_TRANSPOSE_PAD)) &&
               gp_recorded_param(p, config_at(0, 2), GP_TRANSPOSE_PAD) == 0 &&
               gp_recorded_param(p, config_at(0, 3), GP_TRANSPOSE_PAD) == 2 &&
               gp_recorded_param(p, config_at(0, 4), GP_TRANSPOSE_PAD) == 1,
           "transpose: no pad for copy and naive, each padded variant's own default");
    tap_ok(expand("saxpy", NULL) == GP_OK && plan.n_configs == 3, "saxpy expands");
    p = &plan.problems[0];
    bool no_grid = true, alpha = true;
    for (size_t i = 0; i < plan.n_configs; i++) {
        no_grid &= isnan(gp_recorded_param(p, config_at(0, i), GP_SAXPY_GRID)) &&
                   grid(config_at(0, i)) == 0;
        alpha &= gp_recorded_param(p, config_at(0, i), GP_SAXPY_ALPHA) == 2.0;
    }
    tap_ok(no_grid && alpha, "saxpy: the launcher's grid recorded as none, alpha 2 everywhere");
    tap_ok(expand("saxpy", "--grid=7", NULL) == GP_OK &&
               gp_recorded_param(&plan.problems[0], config_at(0, 0), GP_SAXPY_GRID) == 7,
           "saxpy --grid=7: recorded");
    tap_ok(expand("saxpy", "--grid=2147483647", NULL) == GP_OK &&
               grid(config_at(0, 0)) == 2147483647.0 &&
               gp_recorded_param(&plan.problems[0], config_at(0, 0), GP_SAXPY_GRID) ==
                   2147483647.0,
           "a grid above 2^24 launches as given and is recorded exactly");
    tap_ok(expand("reduce2d", NULL) == GP_OK &&
               gp_recorded_param(&plan.problems[0], config_at(0, 1), GP_REDUCE2D_GROUP) == 16,
           "reduce2d: group 16 by default, recorded for every variant");
}

void test_plan(void)
{
    documented_order();
    parameter_not_applying();
    recorded_values();
    block_sweeps();
    default_reduce();
    sizes_types_and_blocks();
    pads_and_groups();
    variant_errors();
    gp_plan_free(&plan);
}
