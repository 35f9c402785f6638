/* The transpose family's host side: an ny × nx float matrix of seeded values, and the check
 * of what a variant wrote: every element of the nx × ny transpose (or, for the copy variant,
 * of the input itself), compared bit for bit — a transpose only moves values, so the result
 * must be exact. */
#include "catalogue/workload.h"

#include "gpuprof/transpose.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host reference is read in square blocks: the transposed order walks it down columns,
 * and a block keeps the lines it touches in the CPU cache. */
#define CHECK_BLOCK 64

typedef struct {
    gp_workload_state base;  /* the problem, and the buffers destroy frees */
    float *host;             /* the input as generated */
    float *result;           /* the latest output, downloaded */
    float *d_in, *d_out;
} transpose_state;

typedef struct {
    uint64_t mismatches;
    uint64_t first;          /* output index of the first mismatch (row-major) */
    float first_got, first_expected;
} mismatch_log;

static uint64_t matrix_bytes(const gp_problem *p)
{
    return p->size.n * GP_ELEMENT_BYTES;
}

static uint64_t transpose_device_bytes(const gp_problem *p, const gp_device_info *dev)
{
    (void)dev;
    return 2 * matrix_bytes(p); /* input and output */
}

static int transpose_create(void *state, const gp_device_info *dev)
{
    (void)dev;
    transpose_state *s = state;
    const gp_problem *p = &s->base.p;
    const uint64_t bytes = matrix_bytes(p);
    s->host = gp_state_host_alloc(&s->base, bytes);
    s->result = gp_state_host_alloc(&s->base, bytes);
    if (!s->host || !s->result)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory for 2 x %llu matrix elements",
                       (unsigned long long)p->size.n);
    /* The device generates the input while the host generates the copy the check compares
     * with: element-wise checks also prove the two generators agree, bit for bit. */
    GP_TRY(gp_state_device_alloc(&s->base, (void **)&s->d_in, bytes, "the input matrix"));
    GP_TRY(gp_state_device_alloc(&s->base, (void **)&s->d_out, bytes, "the output matrix"));
    GP_TRY(gp_fill_float_device(s->d_in, p->size.n, p->seed));
    gp_fill_float(s->host, p->size.n, p->seed);
    GP_CUDA(cudaDeviceSynchronize());
    return GP_OK;
}

static int transpose_prepare(void *state, const gp_config *c)
{
    (void)c;
    transpose_state *s = state;
    /* All bits set is a NaN no input holds: an element the variant does not write fails. */
    GP_CUDA(cudaMemsetAsync(s->d_out, 0xff, matrix_bytes(&s->base.p), 0));
    return GP_OK;
}

static int transpose_launch(void *state, const gp_config *c, const gp_hooks *hooks)
{
    transpose_state *s = state;
    gp_transpose_args a = {
        .in = s->d_in,
        .out = s->d_out,
        .nx = s->base.p.size.nx,
        .ny = s->base.p.size.ny,
        .block = c->block,
        .pad = (int)c->params[GP_TRANSPOSE_PAD],
    };
    return ((gp_transpose_fn)c->variant->launch)(&a, hooks);
}

static void compare(mismatch_log *log, uint64_t index, float got, float expected)
{
    if (memcmp(&got, &expected, sizeof got) == 0)
        return;
    if (log->mismatches == 0 || index < log->first) {
        log->first = index;
        log->first_got = got;
        log->first_expected = expected;
    }
    log->mismatches++;
}

/* The copy variant: out is the input, element for element. */
static void compare_copy(const transpose_state *s, mismatch_log *log)
{
    for (uint64_t i = 0; i < s->base.p.size.n; i++)
        compare(log, i, s->result[i], s->host[i]);
}

/* out (nx rows of ny) against the transpose of in (ny rows of nx), block by block. */
static void compare_transpose(const transpose_state *s, mismatch_log *log)
{
    const uint64_t nx = s->base.p.size.nx, ny = s->base.p.size.ny;
    for (uint64_t c0 = 0; c0 < nx; c0 += CHECK_BLOCK)
        for (uint64_t r0 = 0; r0 < ny; r0 += CHECK_BLOCK)
            for (uint64_t c = c0; c < nx && c < c0 + CHECK_BLOCK; c++)
                for (uint64_t r = r0; r < ny && r < r0 + CHECK_BLOCK; r++)
                    compare(log, c * ny + r, s->result[c * ny + r], s->host[r * nx + c]);
}

static void describe(const transpose_state *s, bool copy, const mismatch_log *log,
                     gp_check *check)
{
    const unsigned long long n = (unsigned long long)s->base.p.size.n;
    if (log->mismatches == 0) {
        snprintf(check->detail, sizeof check->detail, "all %llu elements match", n);
        return;
    }
    /* The output is ny × nx for the copy, nx × ny for the transposes. */
    const uint64_t out_cols = copy ? s->base.p.size.nx : s->base.p.size.ny;
    snprintf(check->detail, sizeof check->detail,
             "%llu of %llu elements differ; first at row %llu, col %llu: got %.9g, expected %.9g",
             (unsigned long long)log->mismatches, n, (unsigned long long)(log->first / out_cols),
             (unsigned long long)(log->first % out_cols), (double)log->first_got,
             (double)log->first_expected);
}

static int transpose_verify(void *state, const gp_config *c, const gp_result *res,
                            gp_check *check)
{
    (void)res;
    transpose_state *s = state;
    GP_CUDA(cudaDeviceSynchronize());
    GP_TRY(gp_download(s->result, s->d_out, matrix_bytes(&s->base.p)));
    const bool copy = c->variant->launch == GP_LAUNCHER(gp_transpose_copy);
    mismatch_log log = {0};
    if (copy)
        compare_copy(s, &log);
    else
        compare_transpose(s, &log);
    memset(check, 0, sizeof *check);
    check->exact = true;
    check->mismatches = log.mismatches;
    check->expected = (double)s->base.p.size.n;
    check->got = (double)(s->base.p.size.n - log.mismatches);
    check->status = log.mismatches == 0 ? GP_CHECK_PASSED : GP_CHECK_FAILED;
    describe(s, copy, &log, check);
    return GP_OK;
}

static uint64_t transpose_bytes_moved(const gp_problem *p)
{
    return 2 * matrix_bytes(p); /* every element read once and written once */
}

const gp_workload_ops gp_transpose_workload = {
    .device_bytes = transpose_device_bytes, .bytes_moved = transpose_bytes_moved,
    .state_bytes = sizeof(transpose_state),
    .create = transpose_create, .destroy = gp_workload_destroy,
    .prepare = transpose_prepare, .launch = transpose_launch, .verify = transpose_verify,
};
