/* The kernel catalogue: one row per family, one row per variant (src/catalogue/registry.c). `list`,
 * `--help`, the parser, the plan, the runner and the man-page test all read these tables:
 * adding a variant means adding one row, adding a family one family row (its kernel file,
 * its workload file and the man page aside), adding a family parameter one descriptor on its
 * family's row (and its option's id and row). */
#ifndef GPUPROF_REGISTRY_H
#define GPUPROF_REGISTRY_H

#include "gpuprof/kernels.h"
#include "gpuprof/option_ids.h"

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

/* A family parameter varies the problems (the inputs and the CPU reference change with it) or
 * only the configurations, the launches of a problem timed one after the other on its data. */
typedef enum { GP_PARAM_PROBLEM, GP_PARAM_CONFIG } gp_param_axis;

/* Where a parameter's value comes from when its option is not given, or does not apply. */
typedef enum {
    GP_PARAM_DEFAULT_VALUE,       /* the descriptor's `value` (always, without an option) */
    GP_PARAM_DEFAULT_VARIANT_PAD, /* the variant's own default_pad */
    GP_PARAM_DEFAULT_LAUNCHER     /* 0: the launcher chooses, and results record no value */
} gp_param_default;

/* A family parameter without an option: a fixed value the results record (saxpy's alpha). */
#define GP_NO_OPTION OPT_COUNT

typedef struct {
    const char *name;          /* as results carry it */
    gp_option_id option;       /* the option listing its values, or GP_NO_OPTION */
    gp_param_axis axis;
    unsigned variants;         /* the flag of the variants it applies to (GP_VF_PADDED, …);
                                  0: every variant. A problem parameter applies to every one. */
    uint64_t min, max;         /* the option's range */
    bool power_of_two;         /* the option takes powers of two only */
    gp_param_default default_kind;
    double value;              /* GP_PARAM_DEFAULT_VALUE: the default */
    bool block_side;           /* GP_VF_GROUP_BLOCK variants' block is value x value */
} gp_param_def;

/* Each family's parameters, by their index in its row's `params`: the request, the plan and
 * the workloads hold their values so. */
enum { GP_TRANSPOSE_PAD };
enum { GP_REDUCE2D_GROUP };
enum { GP_SAXPY_GRID, GP_SAXPY_ALPHA };

struct gp_workload_ops;

typedef struct gp_family {
    const char *name;                 /* also the name of its command */
    const char *summary;              /* what it computes */
    const char *command_summary;      /* its command's line in `gpuprof --help` */
    bool two_d;                       /* sizes NXxNY, blocks XxY */
    gp_size default_size;
    gp_dtype default_type;
    const gp_option_id *options;      /* its own options besides every kernel command's (its
                                         parameters' among them), in the order help lists them */
    size_t n_options;
    const gp_param_def *params;       /* its parameters, in the order its results carry them */
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

/* Whether the parameter applies to the variant. */
bool gp_param_applies(const gp_param_def *d, const gp_variant *v);
/* The parameter's value for the variant when its option is not given or does not apply. */
double gp_param_default_for(const gp_param_def *d, const gp_variant *v);

bool gp_block_allowed(const gp_variant *v, gp_dim3 block);
/* "64..1024, powers of two" / "XxY, X 8..1024, Y 1..1024, X*Y <= 1024". */
void gp_describe_blocks(const gp_family *f, const gp_variant *v, char *buf, size_t len);
/* The same as list's table has it, within 120 columns: "X 8..1024, Y 1..1024, X*Y <= 1024"
 * (its default block beside it shows the XxY form), "-" for a library call (a note under
 * the table says GP_LIBRARY_SHAPE). */
void gp_describe_blocks_brief(const gp_family *f, const gp_variant *v, char *buf, size_t len);
/* A library call's launch shape, said alike by every view: "-" and this (JSON null, CSV
 * empty). gpuprof times and profiles the call's kernels but does not capture their shape. */
#define GP_LIBRARY_SHAPE "CUB's own launch shape, not captured"
/* A variant's default block as list and --help show it: "512", "32x8"; "-" for a library
 * call, whose blocks are its own. */
void gp_describe_default_block(const gp_family *f, const gp_variant *v, char *buf, size_t len);
void gp_format_block(gp_dim3 block, bool two_d, char *buf, size_t len);
/* "a, b, c": the variant names of a family. */
void gp_list_variant_names(const gp_family *f, char *buf, size_t len);

/* `gpuprof list`'s rows: every variant of every family, family by family, in plain words and
 * numbers (report/'s variants part, gpuprof/report_parts.h), into *out (free() it). */
struct gp_variant_row;
int gp_variant_rows(struct gp_variant_row **out, size_t *n);

#endif
