/* The reduce family's host side: n seeded values, generated on the device, their exact
 * (int64) or double sum, regenerated on the host without storing them, and the check of what
 * a variant left behind: block partials (the book's kernels, summed here as the book's host
 * code does) or one total (single-pass variants and cub). */
#include "catalogue/workload.h"

#include "gpuprof/reduce.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gp_workload_state base;   /* the problem, and the buffers destroy frees */
    void *d_in, *d_pristine;  /* the input the kernels see, and a copy to restore it from */
    void *d_partials;         /* GP_PARTIAL_BYTES per slot */
    uint64_t partial_slots;
    void *d_total;            /* int64 or float */
    unsigned *d_counter;
    void *d_scratch;
    size_t scratch_bytes;
    int64_t ref_int;
    double ref_float, ref_abs;
    int multiprocessors;
    bool input_dirty;         /* an in-place variant ran since the last restore */
} reduce_state;

static uint64_t partial_slots(const gp_problem *p, int sms)
{
    /* The book's kernels: a block of at least 32 threads per partial. Persistent kernels:
     * at most GP_MAX_BLOCKS_PER_SM blocks per multiprocessor. */
    return (p->size.n + 31) / 32 + (uint64_t)sms * GP_MAX_BLOCKS_PER_SM;
}

/* cub's temporary storage and the total, generously: its scratch is known only once a
 * device is open. */
#define LIBRARY_SCRATCH_BYTES (16u << 20)

static uint64_t input_bytes(const gp_problem *p)
{
    return p->size.n * GP_ELEMENT_BYTES;
}

static uint64_t reduce_device_bytes(const gp_problem *p, const gp_device_info *dev)
{
    return input_bytes(p) * (p->restores_input ? 2 : 1) +
           GP_PARTIAL_BYTES * partial_slots(p, dev->multiprocessors) + LIBRARY_SCRATCH_BYTES;
}

/* The book's kernels launch a block per `block × unrolling` elements. */
static int reduce_check(const gp_problem *p, const gp_config *c)
{
    if (!(c->variant->flags & GP_VF_PARTIALS))
        return GP_OK;
    const uint64_t per_thread = c->variant->elements_per_thread ? c->variant->elements_per_thread
                                                                : 1;
    char what[96];
    snprintf(what, sizeof what, "reduce %s with blocks of %u", c->variant->name, c->block.x);
    return gp_check_grid_x(p->size.n, (uint64_t)c->block.x * per_thread, what);
}

static void compute_reference(reduce_state *s)
{
    const gp_problem *p = &s->base.p;
    if (p->dtype == GP_INT32) {
        s->ref_int = gp_seeded_int32_sum(p->size.n, p->seed);
        s->ref_float = (double)s->ref_int;
        s->ref_abs = s->ref_float; /* inputs are non-negative */
    } else {
        gp_seeded_float_sum(p->size.n, p->seed, &s->ref_float, &s->ref_abs);
    }
}

static int fill_input(reduce_state *s)
{
    const gp_problem *p = &s->base.p;
    return p->dtype == GP_INT32 ? gp_fill_int32_device(s->d_in, p->size.n, p->seed)
                                : gp_fill_float_device(s->d_in, p->size.n, p->seed);
}

static int allocate(reduce_state *s)
{
    gp_workload_state *w = &s->base;
    const uint64_t bytes = input_bytes(&w->p);
    GP_TRY(gp_state_device_alloc(w, &s->d_in, bytes, "the input"));
    s->partial_slots = partial_slots(&w->p, s->multiprocessors);
    GP_TRY(gp_state_device_alloc(w, &s->d_partials, GP_PARTIAL_BYTES * s->partial_slots,
                                 "the block partials"));
    GP_TRY(gp_state_device_alloc(w, &s->d_total, GP_PARTIAL_BYTES, "the total"));
    GP_TRY(gp_state_device_alloc(w, (void **)&s->d_counter, sizeof(unsigned),
                                 "the block counter"));
    GP_CUDA(cudaMemset(s->d_counter, 0, sizeof(unsigned)));
    GP_TRY(gp_reduce_cub_scratch(w->p.dtype, w->p.size.n, &s->scratch_bytes));
    GP_TRY(gp_state_device_alloc(w, &s->d_scratch, s->scratch_bytes, "cub's temporary storage"));
    if (w->p.restores_input)
        GP_TRY(gp_state_device_alloc(w, &s->d_pristine, bytes, "the copy of the input"));
    return GP_OK;
}

/* The device generates the input while the host sums the same stream; the copy that
 * in-place variants are restored from is taken after both. */
static int reduce_create(void *state, const gp_device_info *dev)
{
    reduce_state *s = state;
    s->multiprocessors = dev->multiprocessors;
    GP_TRY(allocate(s));
    GP_TRY(fill_input(s));
    compute_reference(s);
    if (s->d_pristine)
        GP_CUDA(cudaMemcpy(s->d_pristine, s->d_in, input_bytes(&s->base.p),
                           cudaMemcpyDeviceToDevice));
    GP_CUDA(cudaDeviceSynchronize());
    return GP_OK;
}

static int reduce_prepare(void *state, const gp_config *c)
{
    reduce_state *s = state;
    const bool in_place = (c->variant->flags & GP_VF_IN_PLACE) != 0;
    if (in_place || s->input_dirty)
        GP_CUDA(cudaMemcpyAsync(s->d_in, s->d_pristine, input_bytes(&s->base.p),
                                cudaMemcpyDeviceToDevice, 0));
    s->input_dirty = in_place;
    /* A variant that forgets to write its total must fail the check, not pass on stale data. */
    GP_CUDA(cudaMemsetAsync(s->d_total, 0xff, GP_PARTIAL_BYTES, 0));
    return GP_OK;
}

static int reduce_launch(void *state, const gp_config *c, const gp_hooks *hooks)
{
    reduce_state *s = state;
    gp_reduce_args a = {
        .dtype = s->base.p.dtype,
        .in = s->d_in,
        .partials = s->d_partials,
        .total = s->d_total,
        .counter = s->d_counter,
        .scratch = s->d_scratch,
        .scratch_bytes = s->scratch_bytes,
        .n = s->base.p.size.n,
        .block = c->block.x,
    };
    return ((gp_reduce_fn)c->variant->launch)(&a, hooks);
}

/* The book's host code: add the block partials (of the input's type) up, here in 64 bits or
 * double. */
static int sum_partials(reduce_state *s, uint64_t count, double *got, int64_t *got_int)
{
    if (count == 0 || count > s->partial_slots)
        return gp_fail(GP_ERR_RUNTIME, "internal error: %llu partials for %llu slots",
                       (unsigned long long)count, (unsigned long long)s->partial_slots);
    void *h = malloc(count * GP_ELEMENT_BYTES);
    if (!h)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = gp_download(h, s->d_partials, count * GP_ELEMENT_BYTES);
    int64_t isum = 0;
    double fsum = 0.0;
    for (uint64_t i = 0; rc == GP_OK && i < count; i++) {
        if (s->base.p.dtype == GP_INT32)
            isum += ((const int32_t *)h)[i];
        else
            fsum += ((const float *)h)[i];
    }
    free(h);
    *got_int = isum;
    *got = s->base.p.dtype == GP_INT32 ? (double)isum : fsum;
    return rc;
}

static int reduce_verify(void *state, const gp_config *c, const gp_result *res, gp_check *check)
{
    reduce_state *s = state;
    GP_CUDA(cudaDeviceSynchronize());
    double got = 0.0;
    int64_t got_int = 0;
    if (c->variant->flags & GP_VF_PARTIALS) {
        GP_TRY(sum_partials(s, res->n_launches ? res->launches[0].grid.x : 0, &got, &got_int));
    } else if (s->base.p.dtype == GP_INT32) {
        GP_TRY(gp_download(&got_int, s->d_total, sizeof got_int));
        got = (double)got_int;
    } else {
        float f;
        GP_TRY(gp_download(&f, s->d_total, sizeof f));
        got = f;
    }
    if (s->base.p.dtype != GP_INT32) {
        gp_check_float_sum(got, s->ref_float, s->ref_abs, check);
        return GP_OK;
    }
    memset(check, 0, sizeof *check);
    check->expected = s->ref_float;
    check->got = got;
    check->exact = true;
    check->status = got_int == s->ref_int ? GP_CHECK_PASSED : GP_CHECK_FAILED;
    snprintf(check->detail, sizeof check->detail, "sum %lld, expected %lld (exact)",
             (long long)got_int, (long long)s->ref_int);
    return GP_OK;
}

static uint64_t reduce_bytes_moved(const gp_problem *p)
{
    return input_bytes(p); /* every element read once */
}

const gp_workload_ops gp_reduce_workload = {
    .check = reduce_check, .device_bytes = reduce_device_bytes, .bytes_moved = reduce_bytes_moved,
    .state_bytes = sizeof(reduce_state),
    .create = reduce_create, .destroy = gp_workload_destroy,
    .prepare = reduce_prepare, .launch = reduce_launch, .verify = reduce_verify,
};
