/* The reduce2d family's host side: an nx × ny float matrix of seeded values, its double sum,
 * the two ping-pong buffers the passes alternate between, and the check of the one value the
 * last pass leaves behind. */
#include "catalogue/workload.h"

#include "gpuprof/reduce2d.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
    gp_workload_state base; /* the problem, and the buffers destroy frees */
    float *d_in;          /* the matrix; no variant modifies it */
    float *d_buf[2];      /* each holds the first pass's output; later passes are smaller */
    uint64_t buf_elems;
    float *result_ptr;    /* set by the launcher: the buffer holding the final 1 × 1 value */
    double ref, ref_abs;
} reduce2d_state;

static uint64_t matrix_elems(const gp_problem *p)
{
    return (uint64_t)p->size.nx * p->size.ny;
}

/* The tile side of every pass. */
static unsigned group_of(const gp_problem *p)
{
    return (unsigned)p->params[GP_REDUCE2D_GROUP];
}

/* Elements of the first pass's output: ceil(nx / g) × ceil(ny / g). */
static uint64_t first_output_elems(const gp_problem *p)
{
    const uint64_t g = group_of(p) ? group_of(p) : 1; /* the launcher rejects a bad group */
    return ((p->size.nx + g - 1) / g) * ((p->size.ny + g - 1) / g);
}

static uint64_t reduce2d_device_bytes(const gp_problem *p, const gp_device_info *dev)
{
    (void)dev;
    return (matrix_elems(p) + 2 * first_output_elems(p)) * GP_ELEMENT_BYTES;
}

/* The matrix is generated on the device; the host sums the same stream for the reference. */
static int create_input(reduce2d_state *s)
{
    const uint64_t n = matrix_elems(&s->base.p);
    GP_TRY(gp_state_device_alloc(&s->base, (void **)&s->d_in, n * GP_ELEMENT_BYTES, "the matrix"));
    GP_TRY(gp_fill_float_device(s->d_in, n, s->base.p.seed));
    gp_seeded_float_sum(n, s->base.p.seed, &s->ref, &s->ref_abs);
    GP_CUDA(cudaDeviceSynchronize());
    return GP_OK;
}

static int reduce2d_create(void *state, const gp_device_info *dev)
{
    (void)dev;
    reduce2d_state *s = state;
    GP_TRY(create_input(s));
    /* Allocated once: no pass allocates, and pass k + 1 never outgrows pass k's output. */
    s->buf_elems = first_output_elems(&s->base.p);
    const uint64_t buf_bytes = s->buf_elems * GP_ELEMENT_BYTES;
    GP_TRY(gp_state_device_alloc(&s->base, (void **)&s->d_buf[0], buf_bytes,
                                 "the first pass buffer"));
    return gp_state_device_alloc(&s->base, (void **)&s->d_buf[1], buf_bytes,
                                 "the second pass buffer");
}

static int reduce2d_prepare(void *state, const gp_config *c)
{
    (void)c;
    reduce2d_state *s = state;
    /* NaN (all bits set) everywhere a pass may write: a pass that leaves an element unwritten
     * feeds NaN into the next pass or the result, and the check fails instead of passing on
     * the previous launch's values. */
    GP_CUDA(cudaMemsetAsync(s->d_buf[0], 0xff, s->buf_elems * GP_ELEMENT_BYTES, 0));
    GP_CUDA(cudaMemsetAsync(s->d_buf[1], 0xff, s->buf_elems * GP_ELEMENT_BYTES, 0));
    return GP_OK;
}

static int reduce2d_launch(void *state, const gp_config *c, const gp_hooks *hooks)
{
    reduce2d_state *s = state;
    gp_reduce2d_args a = {
        .in = s->d_in,
        .buf = {s->d_buf[0], s->d_buf[1]},
        .nx = s->base.p.size.nx,
        .ny = s->base.p.size.ny,
        .group = group_of(&s->base.p),
        .block = c->block,
        .result = &s->result_ptr,
    };
    return ((gp_reduce2d_fn)c->variant->launch)(&a, hooks);
}

static int reduce2d_verify(void *state, const gp_config *c, const gp_result *res,
                           gp_check *check)
{
    (void)c;
    (void)res;
    reduce2d_state *s = state;
    GP_CUDA(cudaDeviceSynchronize());
    if (!s->result_ptr)
        return gp_fail(GP_ERR_RUNTIME, "internal error: reduce2d verified before any launch");
    float f;
    GP_TRY(gp_download(&f, s->result_ptr, sizeof f));
    gp_check_float_sum(f, s->ref, s->ref_abs, check);
    return GP_OK;
}

static uint64_t reduce2d_bytes_moved(const gp_problem *p)
{
    return matrix_elems(p) * GP_ELEMENT_BYTES; /* every element read once; the passes'
                                                  outputs are extra */
}

const gp_workload_ops gp_reduce2d_workload = {
    .device_bytes = reduce2d_device_bytes, .bytes_moved = reduce2d_bytes_moved,
    .state_bytes = sizeof(reduce2d_state),
    .create = reduce2d_create, .destroy = gp_workload_destroy,
    .prepare = reduce2d_prepare, .launch = reduce2d_launch, .verify = reduce2d_verify,
};
