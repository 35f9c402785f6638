/* The runner: expand a request into configurations and, for each, warm up, time with CUDA
 * events (inputs restored and L2 flushed before every launch, outside the timed region),
 * check against the CPU, then profile and check again. Measures only: no printing. */
#include "gpuprof/runner.h"

#include "gpuprof/device.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"
#include "workload.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAUNCHES 64

/* Per-launch CUDA events recorded by the launch hooks of one timed run. */
typedef struct {
    cudaEvent_t start[MAX_LAUNCHES], stop[MAX_LAUNCHES];
    gp_kernel_info info[MAX_LAUNCHES];
    size_t count;
    size_t created;
} launch_timer;

static int timer_before(void *ctx, const gp_kernel_info *info)
{
    launch_timer *t = ctx;
    if (t->count >= MAX_LAUNCHES)
        return gp_fail(GP_ERR_RUNTIME, "more than %d kernel launches in one run", MAX_LAUNCHES);
    if (t->count == t->created) {
        GP_CUDA(cudaEventCreate(&t->start[t->count]));
        GP_CUDA(cudaEventCreate(&t->stop[t->count]));
        t->created++;
    }
    t->info[t->count] = *info;
    GP_CUDA(cudaEventRecord(t->start[t->count], 0));
    return GP_OK;
}

static int timer_after(void *ctx)
{
    launch_timer *t = ctx;
    GP_CUDA(cudaEventRecord(t->stop[t->count], 0));
    t->count++;
    return GP_OK;
}

static void timer_destroy(launch_timer *t)
{
    for (size_t i = 0; i < t->created; i++) {
        cudaEventDestroy(t->start[i]);
        cudaEventDestroy(t->stop[i]);
    }
    t->created = 0;
}

typedef struct {
    const gp_workload_ops *ops;
    void *state;
    const gp_config *config;
    void *flush_buf;
    size_t flush_bytes;
} run_context;

static int prepare_and_flush(run_context *rc)
{
    GP_TRY(rc->ops->prepare(rc->state, rc->config));
    return gp_flush_l2(rc->flush_buf, rc->flush_bytes);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int record_launches(gp_result *res, const launch_timer *t)
{
    for (size_t i = 0; i < t->count; i++) {
        gp_launch_record *l;
        GP_TRY(gp_result_add_launch(res, &l));
        const gp_kernel_info *k = &t->info[i];
        snprintf(l->kernel, sizeof l->kernel, "%s", k->kernel);
        l->grid = k->grid;
        l->block = k->block;
        l->shared_bytes = k->shared_bytes;
        l->in_nx = k->in_nx;
        l->in_ny = k->in_ny;
        l->out_nx = k->out_nx;
        l->out_ny = k->out_ny;
        l->opaque = k->opaque;
    }
    if (t->count > 0) {
        res->grid = t->info[0].grid;
        res->block = t->info[0].block;
        res->shared_bytes = t->info[0].shared_bytes;
    }
    return GP_OK;
}

/* Timed repeats: total time from the first launch's start to the last one's stop, and each
 * launch on its own. */
static int time_config(run_context *rc, unsigned repeats, gp_result *res)
{
    launch_timer t = {0};
    gp_hooks hooks = {&t, timer_before, timer_after};
    double *total = calloc(repeats, sizeof *total);
    double *each = calloc((size_t)repeats * MAX_LAUNCHES, sizeof *each);
    int status = total && each ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t launches = 0;
    for (unsigned r = 0; status == GP_OK && r < repeats; r++) {
        t.count = 0;
        status = prepare_and_flush(rc);
        if (status == GP_OK)
            status = rc->ops->launch(rc->state, rc->config, &hooks);
        if (status == GP_OK && t.count == 0)
            status = gp_fail(GP_ERR_RUNTIME, "internal error: a launcher reported no launch");
        if (status == GP_OK && cudaEventSynchronize(t.stop[t.count - 1]) != cudaSuccess)
            status = gp_fail_cuda((int)cudaGetLastError(), "cudaEventSynchronize", __FILE__,
                                  __LINE__);
        for (size_t i = 0; status == GP_OK && i < t.count; i++) {
            float ms;
            cudaError_t e = cudaEventElapsedTime(&ms, t.start[i], t.stop[i]);
            if (e == cudaSuccess) {
                each[(size_t)r * MAX_LAUNCHES + i] = ms;
                e = cudaEventElapsedTime(&ms, t.start[0], t.stop[t.count - 1]);
                total[r] = ms;
            }
            if (e != cudaSuccess)
                status = gp_fail_cuda((int)e, "cudaEventElapsedTime", __FILE__, __LINE__);
        }
        if (status == GP_OK && r == 0) {
            launches = t.count;
            status = record_launches(res, &t);
        }
    }
    if (status == GP_OK) {
        res->timing.repeats = repeats;
        res->timing.median_ms = median(total, repeats);
        res->timing.min_ms = total[0];
        res->timing.max_ms = total[repeats - 1];
        double *per = calloc(repeats, sizeof *per);
        for (size_t i = 0; per && i < launches && launches > 1; i++) {
            for (unsigned r = 0; r < repeats; r++)
                per[r] = each[(size_t)r * MAX_LAUNCHES + i];
            res->launches[i].median_ms = median(per, repeats);
        }
        if (launches == 1)
            res->launches[0].median_ms = res->timing.median_ms;
        free(per);
    }
    free(total);
    free(each);
    timer_destroy(&t);
    return status;
}

/* ---- the profiler's view of a run ---------------------------------------------------- */

static int target_prepare(void *ctx)
{
    return prepare_and_flush(ctx);
}

static int target_launch(void *ctx, const gp_hooks *hooks)
{
    run_context *rc = ctx;
    return rc->ops->launch(rc->state, rc->config, hooks);
}

static int target_flush(void *ctx)
{
    run_context *rc = ctx;
    return gp_flush_l2(rc->flush_buf, rc->flush_bytes);
}

/* ---- one configuration ------------------------------------------------------------------ */

typedef struct {
    const gp_request *req;
    gp_report *report;
    gp_profiler *profiler;
    void *flush_buf;
    size_t flush_bytes;
} runner;

static void describe_result(gp_result *res, const gp_problem *p, const gp_config *c)
{
    snprintf(res->family, sizeof res->family, "%s", gp_family_name(p->family));
    snprintf(res->variant, sizeof res->variant, "%s", c->variant->name);
    snprintf(res->type, sizeof res->type, "%s", gp_dtype_name(p->dtype));
    res->n = p->size.n;
    res->nx = p->size.nx;
    res->ny = p->size.ny;
    res->block = c->block;
    res->pad = (c->variant->flags & GP_VF_PADDED) ? c->pad : -1;
    res->group = p->family == GP_FAM_REDUCE2D ? p->group : 0;
    res->grid_param = (c->variant->flags & GP_VF_GRID) ? c->grid : 0;
    res->alpha = p->family == GP_FAM_SAXPY ? p->alpha : 0.0;
}

static int run_config(runner *r, const gp_workload_ops *ops, void *state, const gp_problem *p,
                      const gp_config *c, gp_result *res)
{
    const gp_request *req = r->req;
    run_context rc = {ops, state, c, r->flush_buf, r->flush_bytes};
    describe_result(res, p, c);
    for (unsigned w = 0; w < req->warmup; w++) {
        GP_TRY(prepare_and_flush(&rc));
        GP_TRY(ops->launch(state, c, NULL));
    }
    GP_TRY(time_config(&rc, req->repeat, res));
    res->timing.warmup = req->warmup;
    res->bytes_moved = ops->bytes_moved(p);
    res->gbps = (double)res->bytes_moved / (res->timing.median_ms * 1e-3) / 1e9;
    res->percent_of_peak = 100.0 * res->gbps / r->report->device.peak_gbps;
    GP_TRY(ops->verify(state, c, res, &res->check));
    if (!r->profiler)
        return GP_OK;
    gp_profile_target target = {&rc, target_prepare, target_launch, target_flush};
    GP_TRY(gp_profiler_collect(r->profiler, &target, res));
    /* Profiling replays the kernels: the result must still be right afterwards. */
    gp_check after;
    GP_TRY(ops->verify(state, c, res, &after));
    res->check.rechecked = true;
    res->check.after_profile = after.status;
    if (after.status != GP_CHECK_PASSED)
        res->check.status = GP_CHECK_FAILED;
    return GP_OK;
}

static gp_config make_config(const gp_request *req, const gp_variant *v, size_t block_index)
{
    gp_config c = {v, req->n_blocks ? req->blocks[block_index] : v->default_block,
                   req->pad >= 0 ? req->pad : v->default_pad, req->grid};
    if (v->flags & GP_VF_GROUP_BLOCK)
        c.block = (gp_dim3){req->group, req->group, 1};
    return c;
}

/* Block shapes a variant runs with: the requested ones, or its own (group-sized blocks
 * ignore --block). */
static size_t blocks_for(const gp_request *req, const gp_variant *v)
{
    return req->n_blocks && !(v->flags & GP_VF_GROUP_BLOCK) ? req->n_blocks : 1;
}

static int check_memory(const gp_workload_ops *ops, const gp_problem *p,
                        const gp_device_info *dev, size_t flush_bytes)
{
    uint64_t free_bytes, total;
    GP_TRY(gp_device_memory(&free_bytes, &total));
    uint64_t need = ops->device_bytes(p, dev) + flush_bytes;
    if (need > free_bytes)
        return gp_fail(GP_ERR_RUNTIME, "%s of size %llu needs %llu bytes of device memory, "
                                       "%llu are free", gp_family_name(p->family),
                       (unsigned long long)p->size.n, (unsigned long long)need,
                       (unsigned long long)free_bytes);
    return GP_OK;
}

static int run_problem(runner *r, const gp_problem *p, size_t *failed)
{
    const gp_request *req = r->req;
    const gp_workload_ops *ops = gp_workload_for(p->family);
    if (!ops)
        return gp_fail(GP_ERR_RUNTIME, "internal error: no workload for %s",
                       gp_family_name(p->family));
    GP_TRY(check_memory(ops, p, &r->report->device, r->flush_bytes));
    void *state = NULL;
    int status = ops->create(p, &r->report->device, &state);
    for (size_t v = 0; status == GP_OK && v < req->n_variants; v++) {
        size_t n_blocks = blocks_for(req, req->variants[v]);
        for (size_t b = 0; status == GP_OK && b < n_blocks; b++) {
            gp_config c = make_config(req, req->variants[v], b);
            gp_result *res;
            status = gp_report_add_result(r->report, &res);
            if (status == GP_OK)
                status = run_config(r, ops, state, p, &c, res);
            if (status == GP_OK && res->check.status == GP_CHECK_FAILED)
                (*failed)++;
        }
    }
    ops->destroy(state);
    return status;
}

static int open_profiler(runner *r)
{
    const gp_request *req = r->req;
    gp_profiler_info *info = &r->report->profiler;
    if (req->metrics.kind == GP_METRICS_NONE) {
        info->state = GP_PROF_DISABLED;
        return GP_OK;
    }
    int rc = gp_profiler_open(&r->report->device, &req->metrics, &r->profiler, info);
    if (rc == GP_OK)
        return GP_OK;
    /* Timing and checks still run; the metrics become null with the reason. */
    info->state = GP_PROF_UNAVAILABLE;
    snprintf(info->reason, sizeof info->reason, "%s", gp_error());
    char warning[GP_TEXT_LEN + 64];
    snprintf(warning, sizeof warning, "metrics unavailable: %s", info->reason);
    GP_TRY(gp_report_add_warning(r->report, warning));
    if (gp_hint()[0])
        GP_TRY(gp_report_add_warning(r->report, gp_hint()));
    gp_clear_error();
    return GP_OK;
}

int gp_run_kernels(const gp_request *req, gp_report *report, size_t *failed_checks)
{
    runner r = {req, report, NULL, NULL, 0};
    *failed_checks = 0;
    report->repeat = req->repeat;
    report->warmup = req->warmup;
    report->seed = req->seed;
    snprintf(report->command, sizeof report->command, "%s", gp_family_name(req->family));
    GP_TRY(gp_device_open(req->device, &report->device));
    report->has_device = true;
    GP_TRY(open_profiler(&r));

    /* Three times the L2: enough to push out everything earlier work left there. */
    r.flush_bytes = 3 * (size_t)report->device.l2_bytes;
    if (r.flush_bytes < ((size_t)1 << 20))
        r.flush_bytes = (size_t)1 << 20;
    int status = gp_device_alloc(&r.flush_buf, r.flush_bytes, "the L2 flush buffer");
    if (status == GP_OK && cudaMemset(r.flush_buf, 0, r.flush_bytes) != cudaSuccess)
        status = gp_fail(GP_ERR_RUNTIME, "cudaMemset of the L2 flush buffer failed");

    bool in_place = false;
    for (size_t v = 0; v < req->n_variants; v++)
        in_place |= (req->variants[v]->flags & GP_VF_IN_PLACE) != 0;
    for (size_t s = 0; status == GP_OK && s < req->n_sizes; s++)
        for (size_t t = 0; status == GP_OK && t < req->n_types; t++) {
            gp_problem p = {req->family, req->sizes[s], req->types[t], req->group,
                            req->alpha, req->seed, in_place};
            status = run_problem(&r, &p, failed_checks);
        }
    cudaFree(r.flush_buf);
    if (r.profiler)
        gp_profiler_close(r.profiler);
    return status;
}
