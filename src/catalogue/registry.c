/* The kernel catalogue: the family rows and their variant rows, read by list, help,
 * validation, the plan and the runner. */
#include "gpuprof/registry.h"

#include "gpuprof/reduce.h"
#include "gpuprof/reduce2d.h"
#include "gpuprof/saxpy.h"
#include "gpuprof/transpose.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Each family's host side (src/workload_<family>.c). */
extern const struct gp_workload_ops gp_reduce_workload, gp_transpose_workload,
    gp_reduce2d_workload, gp_saxpy_workload;

/* Block masks: bit k allows 2^k. */
#define POW2_RANGE(lo, hi) ((unsigned)(((1u << ((hi) + 1)) - 1u) & ~((1u << (lo)) - 1u)))
#define ONLY_1 POW2_RANGE(0, 0)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROWS(field, count_field, array) .field = (array), .count_field = COUNT(array)

/* ---- reduce: ch. 3.4–3.5 of the book, then the modern references ---- */
#define BOOK_REDUCE(variant_name, what, book, fn, lowest_block, unroll)                        \
    {.name = (variant_name), .summary = (what), .origin = (book), .launch = GP_LAUNCHER(fn),  \
     .block_x_mask = POW2_RANGE(lowest_block, 10), .block_y_mask = ONLY_1,                     \
     .default_block = {512, 1, 1}, .flags = GP_VF_IN_PLACE | GP_VF_PARTIALS,                   \
     .elements_per_thread = (unroll)}

/* The single-pass references leave one total: no partials for the host to add. */
#define SINGLE_PASS(variant_name, what, source, fn, flag_bits)                                 \
    {.name = (variant_name), .summary = (what), .origin = (source), .launch = GP_LAUNCHER(fn),\
     .block_x_mask = POW2_RANGE(5, 10), .block_y_mask = ONLY_1, .default_block = {512, 1, 1},  \
     .flags = (flag_bits)}

static const gp_variant reduce_variants[] = {
    BOOK_REDUCE("neighbored", "neighbored pairs in place; divergent (tid % (2*stride))",
                "book 3.4.2 reduceNeighbored", gp_reduce_neighbored, 5, 1),
    BOOK_REDUCE("neighboredless", "neighbored pairs, contiguous active threads",
                "book 3.4.3 reduceNeighboredLess", gp_reduce_neighboredless, 5, 1),
    BOOK_REDUCE("interleaved", "interleaved pairs: stride halves from blockDim/2",
                "book 3.4.4 reduceInterleaved", gp_reduce_interleaved, 5, 1),
    BOOK_REDUCE("unrolling2", "each block first adds 2 data blocks, then interleaved",
                "book 3.5.1 reduceUnrolling2", gp_reduce_unrolling2, 5, 2),
    BOOK_REDUCE("unrolling4", "each block first adds 4 data blocks, then interleaved",
                "book 3.5.1 reduceUnrolling4", gp_reduce_unrolling4, 5, 4),
    BOOK_REDUCE("unrolling8", "each block first adds 8 data blocks, then interleaved",
                "book 3.5.1 reduceUnrolling8", gp_reduce_unrolling8, 5, 8),
    BOOK_REDUCE("unrollwarps8", "unrolling8 + the last warp unrolled (__syncwarp)",
                "book 3.5.2 reduceUnrollWarps8", gp_reduce_unrollwarps8, 6, 8),
    BOOK_REDUCE("completeunrollwarps8", "unrollwarps8 with the stride loop fully unrolled",
                "book 3.5.3 reduceCompleteUnrollWarps8", gp_reduce_completeunrollwarps8, 6, 8),
    BOOK_REDUCE("completeunroll", "completeunrollwarps8 with the block size as a template",
                "book 3.5.4 reduceCompleteUnroll<iBlockSize>", gp_reduce_completeunroll, 6, 8),
    SINGLE_PASS("threadfence", "single pass: partials, __threadfence, last block adds up",
                "CUDA C Programming Guide, memory fence example", gp_reduce_threadfence, 0),
    SINGLE_PASS("shfl", "modern: 16-byte loads, grid-stride, warp shuffles, single pass",
                "modern", gp_reduce_shfl, 0),
    SINGLE_PASS("cub", "reference: cub::DeviceReduce from the CUDA Toolkit", "CUB",
                gp_reduce_cub, GP_VF_LIBRARY),
};

/* ---- transpose: ch. 5.4 of the book, then the modern tiled transpose ---- */
#define TRANSPOSE(variant_name, what, book, fn, flag_bits, pad)                                \
    {.name = (variant_name), .summary = (what), .origin = (book), .launch = GP_LAUNCHER(fn),  \
     .block_x_mask = POW2_RANGE(3, 10), .block_y_mask = POW2_RANGE(0, 10),                     \
     .default_block = {32, 16, 1}, .flags = (flag_bits), .default_pad = (pad)}

static const gp_variant transpose_variants[] = {
    TRANSPOSE("copy", "row-wise copy, same launch shape: the book's upper bound",
              "book 5.4.1 copyGmem", gp_transpose_copy, 0, 0),
    TRANSPOSE("naive", "coalesced reads, strided writes", "book 5.4.1 naiveGmem",
              gp_transpose_naive, 0, 0),
    TRANSPOSE("smem", "tile in shared memory, coalesced both ways (pad 0: the book's)",
              "book 5.4.2-5.4.3 transposeSmem / transposeSmemPad", gp_transpose_smem,
              GP_VF_PADDED, 0),
    TRANSPOSE("smemunroll", "two padded tiles per block, two elements per thread",
              "book 5.4.4 transposeSmemUnrollPad", gp_transpose_smemunroll, GP_VF_PADDED, 2),
    {.name = "tile", .summary = "modern: 64x64 padded tile, float2 loads and stores",
     .origin = "modern", .launch = GP_LAUNCHER(gp_transpose_tile),
     .block_x_mask = POW2_RANGE(5, 5), .block_y_mask = POW2_RANGE(3, 5),
     .default_block = {32, 8, 1}, .flags = GP_VF_PADDED, .default_pad = 1},
};

/* ---- reduce2d: the OpenCL 2-D multi-pass reduction, ported to CUDA ---- */
static const gp_variant reduce2d_variants[] = {
    {.name = "inner", .summary = "group x group tile in shared memory, reduced along x then y",
     .origin = "seed reductionInner (OpenCL)", .launch = GP_LAUNCHER(gp_reduce2d_inner),
     .block_x_mask = POW2_RANGE(1, 5), .block_y_mask = POW2_RANGE(1, 5),
     .default_block = {16, 16, 1}, .flags = GP_VF_GROUP_BLOCK},
    {.name = "outer", .summary = "each thread sums a group x group tile from global memory",
     .origin = "seed reductionOuter (OpenCL)", .launch = GP_LAUNCHER(gp_reduce2d_outer),
     .block_x_mask = POW2_RANGE(0, 10), .block_y_mask = POW2_RANGE(0, 10),
     .default_block = {16, 16, 1}},
};

/* ---- saxpy: grid-stride loops ---- */
#define SAXPY(variant_name, what, article, fn, flag_bits)                                      \
    {.name = (variant_name), .summary = (what), .origin = (article), .launch = GP_LAUNCHER(fn),\
     .block_x_mask = POW2_RANGE(0, 10), .block_y_mask = ONLY_1, .default_block = {256, 1, 1},  \
     .flags = (flag_bits)}

static const gp_variant saxpy_variants[] = {
    SAXPY("monolithic", "one thread per element", "grid-stride article, monolithic",
          gp_saxpy_monolithic, GP_VF_IN_PLACE),
    SAXPY("gridstride", "a grid-stride loop over a fixed grid (--grid)", "grid-stride article",
          gp_saxpy_gridstride, GP_VF_IN_PLACE | GP_VF_GRID),
    SAXPY("vec4", "modern: the grid-stride loop over 16-byte float4 accesses", "modern",
          gp_saxpy_vec4, GP_VF_IN_PLACE | GP_VF_GRID),
};

/* ---- the families' parameters ---- */
static const gp_param_def transpose_params[] = {
    [GP_TRANSPOSE_PAD] = {.name = "pad", .option = OPT_PAD, .axis = GP_PARAM_CONFIG,
                          .variants = GP_VF_PADDED, .min = 0, .max = 32,
                          .default_kind = GP_PARAM_DEFAULT_VARIANT_PAD},
};

/* The group is the tile side of every pass: it shapes the passes' outputs, hence a problem. */
static const gp_param_def reduce2d_params[] = {
    [GP_REDUCE2D_GROUP] = {.name = "group", .option = OPT_GROUP, .axis = GP_PARAM_PROBLEM,
                           .min = 2, .max = 32, .power_of_two = true, .value = 16,
                           .block_side = true},
};

static const gp_param_def saxpy_params[] = {
    [GP_SAXPY_GRID] = {.name = "grid", .option = OPT_GRID, .axis = GP_PARAM_CONFIG,
                       .variants = GP_VF_GRID, .min = 1, .max = GP_MAX_GRID_X,
                       .default_kind = GP_PARAM_DEFAULT_LAUNCHER},
    /* a in y = a*x + y: fixed, and recorded so that a result says what it computed */
    [GP_SAXPY_ALPHA] = {.name = "alpha", .option = GP_NO_OPTION, .axis = GP_PARAM_PROBLEM,
                        .value = 2.0},
};

/* ---- the families ---- */
static const gp_family families[] = {
    {.name = "reduce", .summary = "parallel reduction (sum) of a 1-D array",
     .command_summary = "time, check and profile the parallel reductions",
     .default_size = {.n = (uint64_t)1 << 24}, .default_type = GP_INT32,
     GP_OPTION_LIST(options, n_options, OPT_TYPE), ROWS(variants, n_variants, reduce_variants),
     .workload = &gp_reduce_workload},
    {.name = "transpose", .summary = "matrix transpose through global and shared memory",
     .command_summary = "time, check and profile the matrix transposes", .two_d = true,
     .default_size = {.n = 4096 * 4096, .nx = 4096, .ny = 4096}, .default_type = GP_FLOAT32,
     GP_OPTION_LIST(options, n_options, OPT_PAD), ROWS(params, n_params, transpose_params),
     ROWS(variants, n_variants, transpose_variants), .workload = &gp_transpose_workload},
    {.name = "reduce2d", .summary = "multi-pass sum of a 2-D matrix",
     .command_summary = "time, check and profile the 2-D multi-pass reductions", .two_d = true,
     .default_size = {.n = 4096 * 4096, .nx = 4096, .ny = 4096}, .default_type = GP_FLOAT32,
     GP_OPTION_LIST(options, n_options, OPT_GROUP), ROWS(params, n_params, reduce2d_params),
     ROWS(variants, n_variants, reduce2d_variants), .workload = &gp_reduce2d_workload},
    {.name = "saxpy", .summary = "y = a*x + y, one thread per element or grid-stride",
     .command_summary = "time, check and profile saxpy: one thread per element or grid-stride",
     .default_size = {.n = (uint64_t)1 << 26}, .default_type = GP_FLOAT32,
     GP_OPTION_LIST(options, n_options, OPT_GRID), ROWS(params, n_params, saxpy_params),
     ROWS(variants, n_variants, saxpy_variants), .workload = &gp_saxpy_workload},
};

const gp_family *gp_family_table(size_t *count)
{
    *count = COUNT(families);
    return families;
}

/* The row called `name` among n rows of `size` bytes, or NULL: the one search of the family
 * and variant tables, whose rows begin with their name (a pointer to a struct is a pointer to
 * its first member). */
_Static_assert(offsetof(gp_family, name) == 0 && offsetof(gp_variant, name) == 0,
               "family and variant rows begin with their name");
static const void *row_named(const void *rows, size_t n, size_t size, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const void *row = (const char *)rows + i * size;
        if (strcmp(*(const char *const *)row, name) == 0)
            return row;
    }
    return NULL;
}

const gp_family *gp_find_family(const char *name)
{
    return row_named(families, COUNT(families), sizeof families[0], name);
}

const gp_variant *gp_find_variant(const gp_family *f, const char *name)
{
    return row_named(f->variants, f->n_variants, sizeof f->variants[0], name);
}

bool gp_family_has_option(const gp_family *f, gp_option_id id)
{
    for (size_t i = 0; i < f->n_options; i++)
        if (f->options[i] == id)
            return true;
    return false;
}

bool gp_param_applies(const gp_param_def *d, const gp_variant *v)
{
    return !d->variants || (v->flags & d->variants);
}

double gp_param_default_for(const gp_param_def *d, const gp_variant *v)
{
    switch (d->default_kind) {
    case GP_PARAM_DEFAULT_VARIANT_PAD: return v->default_pad;
    case GP_PARAM_DEFAULT_LAUNCHER: return 0;
    case GP_PARAM_DEFAULT_VALUE: break;
    }
    return d->value;
}

static bool pow2_allowed(unsigned mask, unsigned value)
{
    if (value == 0 || (value & (value - 1)) != 0)
        return false;
    unsigned k = 0;
    while ((1u << k) != value)
        k++;
    return k < 32 && (mask >> k) & 1u;
}

bool gp_block_allowed(const gp_variant *v, gp_dim3 block)
{
    return block.z == 1 && pow2_allowed(v->block_x_mask, block.x) &&
           pow2_allowed(v->block_y_mask, block.y) &&
           (unsigned long)block.x * block.y <= GP_MAX_THREADS_PER_BLOCK;
}

static void describe_mask(unsigned mask, char *buf, size_t len)
{
    int lo = -1, hi = -1;
    for (int k = 0; k < 31; k++)
        if ((mask >> k) & 1u) {
            if (lo < 0)
                lo = k;
            hi = k;
        }
    if (lo == hi)
        snprintf(buf, len, "%u", 1u << lo);
    else
        snprintf(buf, len, "%u..%u", 1u << lo, 1u << hi);
}

/* brief: list's table's cell, without the "XxY" form (the default block beside it shows it)
 * and a library call's "-" alone (a note under the table says why). */
static void describe_blocks(const gp_family *f, const gp_variant *v, bool brief, char *buf,
                            size_t len)
{
    if (v->flags & GP_VF_LIBRARY) {
        snprintf(buf, len, brief ? "-" : "- (%s)", GP_LIBRARY_SHAPE);
        return;
    }
    if (v->flags & GP_VF_GROUP_BLOCK) {
        snprintf(buf, len, "group x group (--group)");
        return;
    }
    char xs[32], ys[32];
    describe_mask(v->block_x_mask, xs, sizeof xs);
    describe_mask(v->block_y_mask, ys, sizeof ys);
    if (f->two_d || v->block_y_mask != ONLY_1)
        snprintf(buf, len, "%sX %s, Y %s, X*Y <= %u", brief ? "" : "XxY, ", xs, ys,
                 GP_MAX_THREADS_PER_BLOCK);
    else
        snprintf(buf, len, "%s, powers of two", xs);
}

void gp_describe_blocks(const gp_family *f, const gp_variant *v, char *buf, size_t len)
{
    describe_blocks(f, v, false, buf, len);
}

void gp_describe_blocks_brief(const gp_family *f, const gp_variant *v, char *buf, size_t len)
{
    describe_blocks(f, v, true, buf, len);
}

void gp_describe_default_block(const gp_family *f, const gp_variant *v, char *buf, size_t len)
{
    if (v->flags & GP_VF_LIBRARY)
        snprintf(buf, len, "-");
    else
        gp_format_block(v->default_block, f->two_d, buf, len);
}

void gp_format_block(gp_dim3 block, bool two_d, char *buf, size_t len)
{
    if (two_d)
        snprintf(buf, len, "%ux%u", block.x, block.y);
    else
        snprintf(buf, len, "%u", block.x);
}

void gp_list_variant_names(const gp_family *f, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < f->n_variants; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", f->variants[i].name);
    }
}
