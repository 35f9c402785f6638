/* The tables' invariants: the family and variant rows complete and consistent, the option
 * table in step with its enum, the command table's options known. */
#include "tap.h"

#include "catalogue/workload.h"
#include "cli/command_table.h"
#include "gpuprof/options.h"
#include "gpuprof/registry.h"

#include <string.h>

static void variant_rows_are_complete(const gp_family *f)
{
    for (size_t i = 0; i < f->n_variants; i++) {
        const gp_variant *r = &f->variants[i];
        bool complete = r->name && r->name[0] && r->summary && r->summary[0] && r->origin &&
                        r->origin[0] && r->launch && r->block_x_mask && r->block_y_mask;
        tap_ok(complete, "%s %s: name, summary, origin, launcher, block masks", f->name,
               r->name);
        tap_ok(gp_block_allowed(r, r->default_block), "%s %s: the default block is allowed",
               f->name, r->name);
        tap_ok(gp_find_variant(f, r->name) == r, "%s %s: found by name, unique in its family",
               f->name, r->name);
        tap_ok(strcmp(r->name, "all") != 0 && !strchr(r->name, ','),
               "%s: the name cannot clash with list syntax", r->name);
        /* The profiler sizes its first session from this flag before anything runs. */
        const bool library = (r->flags & GP_VF_LIBRARY) != 0;
        tap_ok(library == (strcmp(r->origin, "CUB") == 0),
               "%s %s: marked a library call exactly when a library launches its kernels",
               f->name, r->name);
        if (r->flags & GP_VF_PADDED)
            tap_ok(gp_family_has_option(f, OPT_PAD) && r->default_pad >= 0 &&
                       r->default_pad <= 32,
                   "%s %s: a padded variant of a family with --pad, default pad 0..32", f->name,
                   r->name);
        if (r->flags & GP_VF_GRID)
            tap_ok(gp_family_has_option(f, OPT_GRID), "%s %s: --grid is its family's option",
                   f->name, r->name);
    }
}

/* Each parameter has a name and a value for every variant: its option's, or a default. */
static bool params_give_values(const gp_family *f)
{
    for (size_t i = 0; i < f->n_params; i++) {
        const gp_param_def *d = &f->params[i];
        const bool listed = d->option != GP_NO_OPTION && gp_family_has_option(f, d->option);
        if (!d->name || !d->name[0] || (d->option != GP_NO_OPTION && !listed) ||
            (d->option == GP_NO_OPTION && d->default_kind != GP_PARAM_DEFAULT_VALUE))
            return false;
    }
    return true;
}

/* A family row names its command, sizes, options, parameters, variants and host side. */
static void family_rows_are_complete(void)
{
    size_t n;
    const gp_family *families = gp_family_table(&n);
    tap_ok(n >= 4, "the family table has rows (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        const gp_family *f = &families[i];
        tap_ok(f->name && f->summary && f->command_summary && f->n_variants > 0 && f->workload,
               "%s: name, summaries, variants, workload", f->name);
        const gp_workload_ops *ops = f->workload;
        tap_ok(ops->create && ops->prepare && ops->launch && ops->verify && ops->destroy &&
                   ops->bytes_moved && ops->device_bytes,
               "%s: its workload has every operation", f->name);
        tap_ok(params_give_values(f), "%s: a family with parameters gives their values",
               f->name);
        tap_ok(f->n_params <= GP_MAX_PARAMS, "%s: at most %d parameters", f->name, GP_MAX_PARAMS);
        const bool size_ok = f->two_d ? f->default_size.nx * (uint64_t)f->default_size.ny ==
                                            f->default_size.n && f->default_size.nx > 0
                                      : f->default_size.n > 0 && f->default_size.nx == 0;
        tap_ok(size_ok, "%s: the default size fits its shape", f->name);
        for (size_t k = 0; k < f->n_options; k++)
            tap_ok(gp_option(f->options[k]) != NULL, "%s: its option %zu is in the table",
                   f->name, k);
        const gp_family *unused;
        tap_ok(gp_find_command(f->name, &unused) && unused == f, "%s is a command", f->name);
        tap_ok(gp_find_family(f->name) == f, "%s: found by name", f->name);
        variant_rows_are_complete(f);
    }
}

/* A parameter's descriptor: its default within its range, the variants it applies to among
 * its family's, and a problem parameter the same for every variant. */
static void param_is_consistent(const gp_family *f, const gp_param_def *d)
{
    const bool problem = d->axis == GP_PARAM_PROBLEM;
    tap_ok(!problem || (d->variants == 0 && d->default_kind == GP_PARAM_DEFAULT_VALUE),
           "%s %s: a problem parameter only if the same for every variant",
           f->name, d->name);
    tap_ok(!d->block_side || problem, "%s %s: a block side shapes the problem", f->name,
           d->name);
    const uint64_t v = (uint64_t)d->value;
    tap_ok(d->option == GP_NO_OPTION || d->default_kind != GP_PARAM_DEFAULT_VALUE ||
               (d->value == (double)v && v >= d->min && v <= d->max &&
                (!d->power_of_two || (v & (v - 1)) == 0)),
           "%s %s: a default the option would take", f->name, d->name);
    bool applies = false, defaults_fit = true;
    for (size_t k = 0; k < f->n_variants; k++) {
        const gp_variant *var = &f->variants[k];
        const double def = gp_param_default_for(d, var);
        applies |= gp_param_applies(d, var);
        defaults_fit &= d->default_kind != GP_PARAM_DEFAULT_VARIANT_PAD ||
                        !gp_param_applies(d, var) ||
                        (def >= (double)d->min && def <= (double)d->max);
    }
    tap_ok(applies, "%s %s: applies to some variant of its family", f->name, d->name);
    tap_ok(defaults_fit, "%s %s: each variant's own default within the range", f->name,
           d->name);
    for (const gp_param_def *o = f->params; o < d; o++)
        tap_ok(d->option == GP_NO_OPTION || o->option != d->option,
               "%s %s: its option lists no other parameter", f->name, d->name);
}

/* Every family's parameters; a family whose variants take group-sized blocks says which
 * parameter gives the side. */
static void params_are_described(void)
{
    size_t n;
    const gp_family *families = gp_family_table(&n);
    for (size_t i = 0; i < n; i++) {
        const gp_family *f = &families[i];
        size_t sides = 0;
        bool group_blocks = false;
        for (size_t k = 0; k < f->n_params; k++) {
            param_is_consistent(f, &f->params[k]);
            sides += f->params[k].block_side;
        }
        for (size_t k = 0; k < f->n_variants; k++)
            group_blocks |= (f->variants[k].flags & GP_VF_GROUP_BLOCK) != 0;
        tap_ok(sides == (group_blocks ? 1u : 0u), "%s: %zu parameter(s) give a block side",
               f->name, sides);
    }
    const gp_family *saxpy = gp_find_family("saxpy");
    tap_ok(saxpy && saxpy->n_params == 2 &&
               strcmp(saxpy->params[GP_SAXPY_GRID].name, "grid") == 0 &&
               strcmp(saxpy->params[GP_SAXPY_ALPHA].name, "alpha") == 0 &&
               saxpy->params[GP_SAXPY_ALPHA].option == GP_NO_OPTION &&
               saxpy->params[GP_SAXPY_ALPHA].value == 2.0,
           "saxpy: grid, then alpha, fixed at 2 without an option");
    const gp_family *transpose = gp_find_family("transpose");
    const gp_variant *unroll = transpose ? gp_find_variant(transpose, "smemunroll") : NULL;
    tap_ok(unroll && gp_param_default_for(&transpose->params[GP_TRANSPOSE_PAD], unroll) == 2 &&
               gp_param_default_for(&saxpy->params[GP_SAXPY_GRID], unroll) == 0,
           "defaults: a variant's own pad; the launcher's grid, 0");
}

/* The option table's rows are indexed by the enum: each row's id is its own index. */
static void option_table_matches_enum(void)
{
    for (int id = 0; id < OPT_COUNT; id++) {
        const gp_option_def *o = gp_option((gp_option_id)id);
        tap_ok(o && (int)o->id == id && o->name && o->name[0] && o->help && o->help[0],
               "option %d (--%s): its row has its id, a name and a help line", id,
               o && o->name ? o->name : "?");
        for (int other = 0; o && other < id; other++)
            if (strcmp(gp_option((gp_option_id)other)->name, o->name) == 0)
                tap_ok(false, "option --%s is unique", o->name);
    }
    tap_ok(gp_option(OPT_COUNT) == NULL, "no option past the table");
}

static void command_rows_are_complete(void)
{
    size_t n;
    const gp_command_def *cmds = gp_command_table(&n);
    for (size_t i = 0; i < n; i++) {
        bool known = true, help = false;
        for (size_t k = 0; k < cmds[i].n_options; k++) {
            known &= gp_option(cmds[i].options[k]) != NULL;
            help |= cmds[i].options[k] == OPT_HELP;
        }
        tap_ok(cmds[i].name && cmds[i].summary && cmds[i].run && known && help,
               "%s: name, summary, handler, known options, --help", cmds[i].name);
        tap_ok(cmds[i].min_operands <= cmds[i].max_operands &&
                   (cmds[i].max_operands == 0) == (cmds[i].operands == NULL),
               "%s: operands described exactly when it takes some", cmds[i].name);
        bool refusals_apart = true;  /* a refused option is one it does not take */
        for (size_t r = 0; r < cmds[i].n_refusals; r++)
            for (size_t k = 0; k < cmds[i].n_options; k++)
                refusals_apart &= cmds[i].refusals[r].option != cmds[i].options[k] &&
                                  cmds[i].refusals[r].instead != NULL;
        tap_ok(refusals_apart, "%s: each refused option not among its options, with its way",
               cmds[i].name);
        const gp_family *family = NULL;
        tap_ok(gp_find_family(cmds[i].name) == NULL &&
                   gp_find_command(cmds[i].name, &family) == &cmds[i] && family == NULL,
               "%s: not also a family name", cmds[i].name);
    }
}

static void blocks_are_checked(void)
{
    const gp_family *reduce = gp_find_family("reduce");
    const gp_variant *n = reduce ? gp_find_variant(reduce, "neighbored") : NULL;
    const gp_variant *w = reduce ? gp_find_variant(reduce, "unrollwarps8") : NULL;
    tap_ok(n && w, "neighbored and unrollwarps8 exist");
    if (!n || !w)
        return;
    tap_ok(gp_block_allowed(n, (gp_dim3){32, 1, 1}), "neighbored allows 32");
    tap_ok(!gp_block_allowed(w, (gp_dim3){32, 1, 1}), "unrollwarps8 refuses 32 (needs 64)");
    tap_ok(!gp_block_allowed(n, (gp_dim3){96, 1, 1}), "96 is not a power of two");
    tap_ok(!gp_block_allowed(n, (gp_dim3){2048, 1, 1}), "2048 is too many threads");
    tap_ok(!gp_block_allowed(n, (gp_dim3){512, 2, 1}), "a 1-D family refuses a 2-D block");
    char buf[96];
    gp_describe_blocks(reduce, w, buf, sizeof buf);
    tap_str_eq(buf, "64..1024, powers of two", "allowed blocks described");
}

void test_registry(void)
{
    family_rows_are_complete();
    params_are_described();
    option_table_matches_enum();
    command_rows_are_complete();
    blocks_are_checked();
}
