/* The kernel catalogue: one row per variant. `list`, `--help`, validation, the runner and
 * the man-page test all read this table; adding a variant means adding one row. */
#ifndef GPUPROF_REGISTRY_H
#define GPUPROF_REGISTRY_H

#include "gpuprof/kernels.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GP_FAM_REDUCE = 0,
    GP_FAM_TRANSPOSE,
    GP_FAM_REDUCE2D,
    GP_FAM_SAXPY,
    GP_FAM_COUNT
} gp_family;

enum {
    GP_VF_IN_PLACE = 1 << 0,   /* overwrites its input: restored before every launch */
    GP_VF_PARTIALS = 1 << 1,   /* leaves one partial per block, summed on the host */
    GP_VF_PADDED = 1 << 2,     /* shared-memory tile: --pad applies */
    GP_VF_GRID = 1 << 3,       /* grid size is free: --grid applies */
    GP_VF_GROUP_BLOCK = 1 << 4, /* block shape is group × group (reduce2d inner) */
    GP_VF_LIBRARY = 1 << 5      /* a library call: launches kernels gpuprof does not see */
};

typedef union {
    gp_reduce_fn reduce;
    gp_transpose_fn transpose;
    gp_reduce2d_fn reduce2d;
    gp_saxpy_fn saxpy;
} gp_launcher;

typedef struct {
    gp_family family;
    const char *name;
    const char *summary;
    const char *origin;        /* where it comes from: the book's kernel, or "modern" */
    gp_launcher launch;
    unsigned block_x_mask;     /* bit k set: block.x = 2^k allowed */
    unsigned block_y_mask;     /* bit k set: block.y = 2^k allowed */
    gp_dim3 default_block;
    unsigned flags;
    int default_pad;           /* GP_VF_PADDED variants: padding without --pad */
} gp_variant;

#define GP_MAX_THREADS_PER_BLOCK 1024u

const gp_variant *gp_variant_table(size_t *count);
const gp_variant *gp_find_variant(gp_family family, const char *name);
size_t gp_family_variants(gp_family family, const gp_variant **out, size_t max);

const char *gp_family_name(gp_family family);
const char *gp_family_summary(gp_family family);
bool gp_family_from_name(const char *name, gp_family *family);
bool gp_family_is_2d(gp_family family);       /* sizes are NXxNY */

bool gp_block_allowed(const gp_variant *v, gp_dim3 block);
/* "64..1024" / "32x8, 32x16, 32x32" style description of the allowed blocks. */
void gp_describe_blocks(const gp_variant *v, char *buf, size_t len);
void gp_format_block(gp_dim3 block, bool two_d, char *buf, size_t len);

#endif
