/* The kernel catalogue: one row per family, one row per variant (src/catalogue/registry.c). `list`,
 * `--help`, the parser, the plan, the runner and the man-page test all read these tables:
 * adding a variant means adding one row, adding a family one family row (its kernel file,
 * its workload file and the man page aside). */
#ifndef GPUPROF_REGISTRY_H
#define GPUPROF_REGISTRY_H

#include "gpuprof/kernels.h"
#include "gpuprof/options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    GP_VF_IN_PLACE = 1 << 0,    /* overwrites its input: restored before every launch */
    GP_VF_PARTIALS = 1 << 1,    /* leaves one partial per block, summed on the host */
    GP_VF_PADDED = 1 << 2,      /* shared-memory tile: --pad applies */
    GP_VF_GRID = 1 << 3,        /* grid size is free: --grid applies */
    GP_VF_GROUP_BLOCK = 1 << 4, /* block shape is group × group (reduce2d inner) */
    GP_VF_LIBRARY = 1 << 5      /* a library call: launches kernels gpuprof does not see */
};

/* A launcher of any family, stored untyped: the family's workload casts it back to its own
 * launcher type (gp_reduce_fn, …), a conversion C defines for function pointers. */
typedef void (*gp_any_launcher)(void);
#define GP_LAUNCHER(fn) ((gp_any_launcher)(fn))

typedef struct {
    const char *name;
    const char *summary;
    const char *origin;        /* where it comes from: the book's kernel, or "modern" */
    gp_any_launcher launch;
    unsigned block_x_mask;     /* bit k set: block.x = 2^k allowed */
    unsigned block_y_mask;     /* bit k set: block.y = 2^k allowed */
    gp_dim3 default_block;
    unsigned flags;
    int default_pad;           /* GP_VF_PADDED variants: padding without --pad */
    unsigned elements_per_thread; /* input elements a thread of its first kernel adds up
                                     (the book's unrolling factor; 0 means 1) */
} gp_variant;

/* A problem size: n elements, or an nx × ny matrix (n = nx · ny). */
typedef struct {
    uint64_t n;
    unsigned nx, ny;           /* matrices: columns, rows; 0 for 1-D sizes */
} gp_size;

struct gp_workload_ops;

typedef struct gp_family {
    const char *name;                 /* also the name of its command */
    const char *summary;              /* what it computes */
    const char *command_summary;      /* its command's line in `gpuprof --help` */
    bool two_d;                       /* sizes NXxNY, blocks XxY */
    gp_size default_size;
    gp_dtype default_type;
    const gp_option_id *options;      /* its own options besides every kernel command's */
    size_t n_options;
    const char *const *params;        /* the parameters its results carry, by name */
    size_t n_params;
    const gp_variant *variants;
    size_t n_variants;
    const struct gp_workload_ops *workload;
} gp_family;

#define GP_MAX_PARAMS 4

const gp_family *gp_family_table(size_t *count);
const gp_family *gp_find_family(const char *name);
const gp_variant *gp_find_variant(const gp_family *f, const char *name);
bool gp_family_has_option(const gp_family *f, gp_option_id id);

bool gp_block_allowed(const gp_variant *v, gp_dim3 block);
/* "64..1024, powers of two" / "XxY, X 8..1024, Y 1..1024, X*Y <= 1024". */
void gp_describe_blocks(const gp_family *f, const gp_variant *v, char *buf, size_t len);
void gp_format_block(gp_dim3 block, bool two_d, char *buf, size_t len);
/* "a, b, c": the variant names of a family. */
void gp_list_variant_names(const gp_family *f, char *buf, size_t len);

#endif
