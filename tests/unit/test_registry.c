/* The variant table's invariants: every row complete, names unique, defaults allowed. */
#include "tap.h"

#include "../../src/workload.h"
#include "gpuprof/cli.h"
#include "gpuprof/registry.h"

#include <string.h>

static void rows_are_complete(void)
{
    size_t n;
    const gp_variant *v = gp_variant_table(&n);
    tap_ok(n >= 12, "the table has rows (%zu)", n);
    for (size_t i = 0; i < n; i++) {
        const gp_variant *r = &v[i];
        bool complete = r->name && r->name[0] && r->summary && r->summary[0] && r->origin &&
                        r->origin[0] && r->launch.reduce && r->block_x_mask && r->block_y_mask;
        tap_ok(complete, "%s %s: name, summary, origin, launcher, block masks",
               gp_family_name(r->family), r->name);
        tap_ok(gp_block_allowed(r, r->default_block), "%s %s: the default block is allowed",
               gp_family_name(r->family), r->name);
        bool unique = true;
        for (size_t j = 0; j < n; j++)
            if (j != i && v[j].family == r->family && strcmp(v[j].name, r->name) == 0)
                unique = false;
        tap_ok(unique, "%s %s: name unique in its family", gp_family_name(r->family), r->name);
        tap_ok(strcmp(r->name, "all") != 0 && !strchr(r->name, ','),
               "%s: the name cannot clash with list syntax", r->name);
        tap_ok(gp_find_variant(r->family, r->name) == r, "%s: found by name", r->name);
        /* The profiler sizes its first session from this flag before anything runs. */
        const bool library = (r->flags & GP_VF_LIBRARY) != 0;
        tap_ok(library == (strcmp(r->origin, "CUB") == 0),
               "%s %s: marked a library call exactly when a library launches its kernels",
               gp_family_name(r->family), r->name);
    }
}

/* Every family that has variants has a workload and a command of its own name. */
static void families_are_wired(void)
{
    for (int f = 0; f < GP_FAM_COUNT; f++) {
        const gp_variant *vs[64];
        if (gp_family_variants((gp_family)f, vs, 64) == 0)
            continue;
        const char *name = gp_family_name((gp_family)f);
        tap_ok(gp_workload_for((gp_family)f) != NULL, "%s has a workload", name);
        const gp_command_def *cmd = gp_find_command(name);
        tap_ok(cmd && cmd->command == GP_CMD_KERNEL && cmd->family == f, "%s is a command", name);
    }
}

static void blocks_are_checked(void)
{
    const gp_variant *n = gp_find_variant(GP_FAM_REDUCE, "neighbored");
    const gp_variant *w = gp_find_variant(GP_FAM_REDUCE, "unrollwarps8");
    tap_ok(n && w, "neighbored and unrollwarps8 exist");
    if (!n || !w)
        return;
    tap_ok(gp_block_allowed(n, (gp_dim3){32, 1, 1}), "neighbored allows 32");
    tap_ok(!gp_block_allowed(w, (gp_dim3){32, 1, 1}), "unrollwarps8 refuses 32 (needs 64)");
    tap_ok(!gp_block_allowed(n, (gp_dim3){96, 1, 1}), "96 is not a power of two");
    tap_ok(!gp_block_allowed(n, (gp_dim3){2048, 1, 1}), "2048 is too many threads");
    tap_ok(!gp_block_allowed(n, (gp_dim3){512, 2, 1}), "a 1-D family refuses a 2-D block");
    char buf[96];
    gp_describe_blocks(w, buf, sizeof buf);
    tap_str_eq(buf, "64..1024, powers of two", "allowed blocks described");
}

void test_registry(void)
{
    rows_are_complete();
    families_are_wired();
    blocks_are_checked();
}
