/* The kernel catalogue: one row per variant, read by list, help, validation and runner. */
#include "gpuprof/registry.h"

#include "gpuprof/launchers.h"

#include <stdio.h>
#include <string.h>

/* Block masks: bit k allows 2^k. */
#define POW2_RANGE(lo, hi) ((unsigned)(((1u << ((hi) + 1)) - 1u) & ~((1u << (lo)) - 1u)))
#define ONLY_1 POW2_RANGE(0, 0)

static const gp_variant variants[] = {
    /* ---- reduce: ch. 3.4–3.5 of the book, then the modern references ---- */
    {GP_FAM_REDUCE, "neighbored", "neighbored pairs in place; divergent (tid % (2*stride))",
     "book 3.4.2 reduceNeighbored", {.reduce = gp_reduce_neighbored}, POW2_RANGE(5, 10), ONLY_1,
     {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "neighboredless", "neighbored pairs, contiguous active threads",
     "book 3.4.3 reduceNeighboredLess", {.reduce = gp_reduce_neighboredless}, POW2_RANGE(5, 10),
     ONLY_1, {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "interleaved", "interleaved pairs: stride halves from blockDim/2",
     "book 3.4.4 reduceInterleaved", {.reduce = gp_reduce_interleaved}, POW2_RANGE(5, 10), ONLY_1,
     {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "unrolling2", "each block first adds 2 data blocks, then interleaved",
     "book 3.5.1 reduceUnrolling2", {.reduce = gp_reduce_unrolling2}, POW2_RANGE(5, 10), ONLY_1,
     {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "unrolling4", "each block first adds 4 data blocks, then interleaved",
     "book 3.5.1 reduceUnrolling4", {.reduce = gp_reduce_unrolling4}, POW2_RANGE(5, 10), ONLY_1,
     {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "unrolling8", "each block first adds 8 data blocks, then interleaved",
     "book 3.5.1 reduceUnrolling8", {.reduce = gp_reduce_unrolling8}, POW2_RANGE(5, 10), ONLY_1,
     {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "unrollwarps8", "unrolling8 + the last warp unrolled (__syncwarp)",
     "book 3.5.2 reduceUnrollWarps8", {.reduce = gp_reduce_unrollwarps8}, POW2_RANGE(6, 10),
     ONLY_1, {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "completeunrollwarps8", "unrollwarps8 with the stride loop fully unrolled",
     "book 3.5.3 reduceCompleteUnrollWarps8", {.reduce = gp_reduce_completeunrollwarps8},
     POW2_RANGE(6, 10), ONLY_1, {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "completeunroll", "completeunrollwarps8 with the block size as a template",
     "book 3.5.4 reduceCompleteUnroll<iBlockSize>", {.reduce = gp_reduce_completeunroll},
     POW2_RANGE(6, 10), ONLY_1, {512, 1, 1}, GP_VF_IN_PLACE | GP_VF_PARTIALS, 0},
    {GP_FAM_REDUCE, "threadfence", "single pass: partials, __threadfence, last block adds up",
     "CUDA C Programming Guide, memory fence example", {.reduce = gp_reduce_threadfence},
     POW2_RANGE(5, 10), ONLY_1, {512, 1, 1}, 0, 0},
    {GP_FAM_REDUCE, "shfl", "modern: 16-byte loads, grid-stride, warp shuffles, single pass",
     "modern", {.reduce = gp_reduce_shfl}, POW2_RANGE(5, 10), ONLY_1, {512, 1, 1}, 0, 0},
    {GP_FAM_REDUCE, "cub", "reference: cub::DeviceReduce from the CUDA Toolkit", "CUB",
     {.reduce = gp_reduce_cub}, POW2_RANGE(5, 10), ONLY_1, {512, 1, 1}, GP_VF_LIBRARY, 0},

    /* ---- transpose: ch. 5.4 of the book, then the modern tiled transpose ---- */
    {GP_FAM_TRANSPOSE, "copy", "row-wise copy, same launch shape: the book's upper bound",
     "book 5.4.1 copyGmem", {.transpose = gp_transpose_copy}, POW2_RANGE(3, 10),
     POW2_RANGE(0, 10), {32, 16, 1}, 0, 0},
    {GP_FAM_TRANSPOSE, "naive", "coalesced reads, strided writes", "book 5.4.1 naiveGmem",
     {.transpose = gp_transpose_naive}, POW2_RANGE(3, 10), POW2_RANGE(0, 10), {32, 16, 1}, 0, 0},
    {GP_FAM_TRANSPOSE, "smem", "tile in shared memory, coalesced both ways (pad 0: the book's)",
     "book 5.4.2-5.4.3 transposeSmem / transposeSmemPad", {.transpose = gp_transpose_smem},
     POW2_RANGE(3, 10), POW2_RANGE(0, 10), {32, 16, 1}, GP_VF_PADDED, 0},
    {GP_FAM_TRANSPOSE, "smemunroll", "two padded tiles per block, two elements per thread",
     "book 5.4.4 transposeSmemUnrollPad", {.transpose = gp_transpose_smemunroll},
     POW2_RANGE(3, 10), POW2_RANGE(0, 10), {32, 16, 1}, GP_VF_PADDED, 2},
    {GP_FAM_TRANSPOSE, "tile", "modern: 64x64 padded tile, float2 loads and stores", "modern",
     {.transpose = gp_transpose_tile}, POW2_RANGE(5, 5), POW2_RANGE(3, 5), {32, 8, 1},
     GP_VF_PADDED, 1},

    /* ---- reduce2d: the OpenCL 2-D multi-pass reduction, ported to CUDA ---- */
    {GP_FAM_REDUCE2D, "inner", "group x group tile in shared memory, reduced along x then y",
     "seed reductionInner (OpenCL)", {.reduce2d = gp_reduce2d_inner}, POW2_RANGE(1, 5),
     POW2_RANGE(1, 5), {16, 16, 1}, GP_VF_GROUP_BLOCK, 0},
    {GP_FAM_REDUCE2D, "outer", "each thread sums a group x group tile from global memory",
     "seed reductionOuter (OpenCL)", {.reduce2d = gp_reduce2d_outer}, POW2_RANGE(0, 10),
     POW2_RANGE(0, 10), {16, 16, 1}, 0, 0},

    /* ---- saxpy: grid-stride loops ---- */
    {GP_FAM_SAXPY, "monolithic", "one thread per element", "grid-stride article, monolithic",
     {.saxpy = gp_saxpy_monolithic}, POW2_RANGE(0, 10), ONLY_1, {256, 1, 1}, GP_VF_IN_PLACE, 0},
    {GP_FAM_SAXPY, "gridstride", "a grid-stride loop over a fixed grid (--grid)",
     "grid-stride article", {.saxpy = gp_saxpy_gridstride}, POW2_RANGE(0, 10), ONLY_1,
     {256, 1, 1}, GP_VF_IN_PLACE | GP_VF_GRID, 0},
    {GP_FAM_SAXPY, "vec4", "modern: the grid-stride loop over 16-byte float4 accesses", "modern",
     {.saxpy = gp_saxpy_vec4}, POW2_RANGE(0, 10), ONLY_1, {256, 1, 1},
     GP_VF_IN_PLACE | GP_VF_GRID, 0},
};

static const struct {
    const char *name;
    const char *summary;
    bool two_d;
} families[GP_FAM_COUNT] = {
    [GP_FAM_REDUCE] = {"reduce", "parallel reduction (sum) of a 1-D array", false},
    [GP_FAM_TRANSPOSE] = {"transpose", "matrix transpose through global and shared memory", true},
    [GP_FAM_REDUCE2D] = {"reduce2d", "multi-pass sum of a 2-D matrix", true},
    [GP_FAM_SAXPY] = {"saxpy", "y = a*x + y, one thread per element or grid-stride", false},
};

const gp_variant *gp_variant_table(size_t *count)
{
    *count = sizeof variants / sizeof variants[0];
    return variants;
}

const gp_variant *gp_find_variant(gp_family family, const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (variants[i].family == family && strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

size_t gp_family_variants(gp_family family, const gp_variant **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (variants[i].family == family) {
            if (n < max)
                out[n] = &variants[i];
            n++;
        }
    return n;
}

const char *gp_family_name(gp_family family)
{
    return family < GP_FAM_COUNT ? families[family].name : "?";
}

const char *gp_family_summary(gp_family family)
{
    return family < GP_FAM_COUNT ? families[family].summary : "?";
}

bool gp_family_from_name(const char *name, gp_family *family)
{
    for (int f = 0; f < GP_FAM_COUNT; f++)
        if (strcmp(families[f].name, name) == 0) {
            *family = (gp_family)f;
            return true;
        }
    return false;
}

bool gp_family_is_2d(gp_family family)
{
    return family < GP_FAM_COUNT && families[family].two_d;
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

void gp_describe_blocks(const gp_variant *v, char *buf, size_t len)
{
    if (v->flags & GP_VF_GROUP_BLOCK) {
        snprintf(buf, len, "group x group (--group)");
        return;
    }
    char xs[32], ys[32];
    describe_mask(v->block_x_mask, xs, sizeof xs);
    describe_mask(v->block_y_mask, ys, sizeof ys);
    if (gp_family_is_2d(v->family) || v->block_y_mask != ONLY_1)
        snprintf(buf, len, "XxY, X %s, Y %s, X*Y <= %u", xs, ys, GP_MAX_THREADS_PER_BLOCK);
    else
        snprintf(buf, len, "%s, powers of two", xs);
}

void gp_format_block(gp_dim3 block, bool two_d, char *buf, size_t len)
{
    if (two_d)
        snprintf(buf, len, "%ux%u", block.x, block.y);
    else
        snprintf(buf, len, "%u", block.x);
}
