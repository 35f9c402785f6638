/* The saxpy family's host side: seeded x and y, a pristine device copy of y to restore it from
 * before every launch (saxpy overwrites y), and the element-wise check against a*x + y in
 * double. */
#include "catalogue/workload.h"

#include "gpuprof/saxpy.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - ref| <= REL_TOL * (|a*x| + |y|) + ABS_TOL per element. A fused multiply-add rounds
 * once (error <= 2^-24 * |result|), a separate multiply and add round twice (<= about 2^-23 *
 * (|a*x| + |y|)); 2^-22 covers both with a margin, and ABS_TOL keeps 0 == 0 a pass. */
#define REL_TOL (1.0 / 4194304.0) /* 2^-22 */
#define ABS_TOL 1e-30
/* Elements downloaded at a time by the check: 16 MiB of host memory, not another copy of y. */
#define CHECK_CHUNK ((uint64_t)1 << 22)

typedef struct {
    gp_workload_state base; /* the problem, and the buffers destroy frees */
    float *x, *y0;          /* host inputs, kept for the reference */
    float *chunk;           /* download buffer of the check */
    float *d_x, *d_y, *d_y0;
} saxpy_state;

/* The first element outside the tolerance, and how many there are. */
typedef struct {
    uint64_t mismatches;
    uint64_t first;
    float got;
    double expected;
} saxpy_errors;

static uint64_t array_bytes(const gp_problem *p)
{
    return p->size.n * GP_ELEMENT_BYTES;
}

static uint64_t saxpy_device_bytes(const gp_problem *p, const gp_device_info *dev)
{
    (void)dev;
    return 3 * array_bytes(p); /* x, y, and the copy of y */
}

/* One thread per element: the grid grows with the size. */
static int saxpy_check(const gp_problem *p, const gp_config *c)
{
    if (c->variant->flags & GP_VF_GRID)
        return GP_OK;
    char what[96];
    snprintf(what, sizeof what, "saxpy %s with blocks of %u", c->variant->name, c->block.x);
    return gp_check_grid_x(p->size.n, c->block.x, what);
}

/* a in y = a*x + y. */
static float alpha_of(const gp_problem *p)
{
    return (float)p->params[GP_SAXPY_ALPHA];
}

static int allocate_host(saxpy_state *s)
{
    const uint64_t n = s->base.p.size.n;
    const uint64_t chunk = n < CHECK_CHUNK ? n : CHECK_CHUNK;
    s->x = gp_state_host_alloc(&s->base, n * sizeof *s->x);
    s->y0 = gp_state_host_alloc(&s->base, n * sizeof *s->y0);
    s->chunk = gp_state_host_alloc(&s->base, (chunk ? chunk : 1) * sizeof *s->chunk);
    if (!s->x || !s->y0 || !s->chunk)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory for %llu elements of x and y",
                       (unsigned long long)n);
    return GP_OK;
}

static int allocate_device(saxpy_state *s)
{
    gp_workload_state *w = &s->base;
    const uint64_t bytes = array_bytes(&w->p);
    GP_TRY(gp_state_device_alloc(w, (void **)&s->d_x, bytes, "x"));
    GP_TRY(gp_state_device_alloc(w, (void **)&s->d_y, bytes, "y"));
    GP_TRY(gp_state_device_alloc(w, (void **)&s->d_y0, bytes, "the copy of y"));
    /* Generated on the device, with the same seeds as the host copies the check uses. */
    GP_TRY(gp_fill_float_device(s->d_x, w->p.size.n, w->p.seed));
    GP_TRY(gp_fill_float_device(s->d_y0, w->p.size.n, w->p.seed + 1));
    return GP_OK;
}

static int saxpy_create(void *state, const gp_device_info *dev)
{
    (void)dev;
    saxpy_state *s = state;
    GP_TRY(allocate_host(s));
    /* Different seeds: x and y must not be the same sequence. */
    GP_TRY(allocate_device(s));
    gp_fill_float(s->x, s->base.p.size.n, s->base.p.seed);
    gp_fill_float(s->y0, s->base.p.size.n, s->base.p.seed + 1);
    GP_CUDA(cudaDeviceSynchronize());
    return GP_OK;
}

static int saxpy_prepare(void *state, const gp_config *c)
{
    (void)c;
    saxpy_state *s = state;
    /* Every launch overwrites y: start each one from the same y. */
    GP_CUDA(cudaMemcpyAsync(s->d_y, s->d_y0, array_bytes(&s->base.p), cudaMemcpyDeviceToDevice, 0));
    return GP_OK;
}

static int saxpy_launch(void *state, const gp_config *c, const gp_hooks *hooks)
{
    saxpy_state *s = state;
    gp_saxpy_args a = {
        .x = s->d_x,
        .y = s->d_y,
        .n = s->base.p.size.n,
        .a = alpha_of(&s->base.p),
        .block = c->block.x,
        .grid = (unsigned)c->params[GP_SAXPY_GRID], /* 0: the launcher's default */
    };
    return ((gp_saxpy_fn)c->variant->launch)(&a, hooks);
}

/* Compare count elements of the device result starting at `base` with a*x + y in double. */
static void check_chunk(const saxpy_state *s, uint64_t base, uint64_t count, saxpy_errors *e)
{
    const double a = alpha_of(&s->base.p);
    for (uint64_t k = 0; k < count; k++) {
        const uint64_t i = base + k;
        const double ax = a * s->x[i], y = s->y0[i];
        const double ref = ax + y;
        const double tol = REL_TOL * (fabs(ax) + fabs(y)) + ABS_TOL;
        if (!(fabs((double)s->chunk[k] - ref) <= tol)) { /* NaN fails */
            if (e->mismatches == 0) {
                e->first = i;
                e->got = s->chunk[k];
                e->expected = ref;
            }
            e->mismatches++;
        }
    }
}

static void describe(gp_check *check, uint64_t n, const saxpy_errors *e)
{
    if (e->mismatches == 0)
        snprintf(check->detail, sizeof check->detail, "all %llu elements within tolerance",
                 (unsigned long long)n);
    else
        snprintf(check->detail, sizeof check->detail,
                 "%llu of %llu differ; first at %llu: got %.9g expected %.9g",
                 (unsigned long long)e->mismatches, (unsigned long long)n,
                 (unsigned long long)e->first, (double)e->got, e->expected);
}

static int saxpy_verify(void *state, const gp_config *c, const gp_result *res, gp_check *check)
{
    (void)c;
    (void)res;
    saxpy_state *s = state;
    const uint64_t n = s->base.p.size.n;
    GP_CUDA(cudaDeviceSynchronize());
    saxpy_errors e = {0};
    for (uint64_t base = 0; base < n; base += CHECK_CHUNK) {
        const uint64_t count = n - base < CHECK_CHUNK ? n - base : CHECK_CHUNK;
        GP_TRY(gp_download(s->chunk, s->d_y + base, count * GP_ELEMENT_BYTES));
        check_chunk(s, base, count, &e);
    }
    memset(check, 0, sizeof *check);
    check->exact = false;
    check->expected = (double)n;             /* elements expected within tolerance … */
    check->got = (double)(n - e.mismatches); /* … and elements that are */
    check->tolerance = 0.0;                  /* on the counts; per element: see REL_TOL */
    check->mismatches = e.mismatches;
    check->status = e.mismatches == 0 ? GP_CHECK_PASSED : GP_CHECK_FAILED;
    describe(check, n, &e);
    return GP_OK;
}

static uint64_t saxpy_bytes_moved(const gp_problem *p)
{
    return 3 * array_bytes(p); /* x read, y read, y written */
}

const gp_workload_ops gp_saxpy_workload = {
    .check = saxpy_check, .device_bytes = saxpy_device_bytes, .bytes_moved = saxpy_bytes_moved,
    .state_bytes = sizeof(saxpy_state),
    .create = saxpy_create, .destroy = gp_workload_destroy,
    .prepare = saxpy_prepare, .launch = saxpy_launch, .verify = saxpy_verify,
};
