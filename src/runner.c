/* The runner: expand a request into configurations and, for each, warm up, time with CUDA
 * events (inputs restored and L2 flushed before every launch, outside the timed region),
 * check against the CPU; then profile every configuration of the problem together and check
 * each again. Measures only: no printing. */
#include "gpuprof/runner.h"

#include "gpuprof/device.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"
#include "timing.h"
#include "workload.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

/* One configuration of a problem: what the timer and the profiler run. */
typedef struct {
    const gp_workload_ops *ops;
    void *state;
    const gp_config *config;
    void *flush_buf;
    size_t flush_bytes;
    gp_result *res;
} run_context;

static int run_restore(void *ctx)
{
    run_context *rc = ctx;
    return rc->ops->prepare(rc->state, rc->config);
}

static int run_flush(void *ctx)
{
    run_context *rc = ctx;
    return gp_flush_l2(rc->flush_buf, rc->flush_bytes);
}

static int run_prepare(void *ctx)
{
    GP_TRY(run_restore(ctx));
    return run_flush(ctx);
}

static int run_launch(void *ctx, const gp_hooks *hooks)
{
    run_context *rc = ctx;
    return rc->ops->launch(rc->state, rc->config, hooks);
}

/* After profiling, which replays the kernels: the result must still be right. */
static int run_recheck(void *ctx)
{
    run_context *rc = ctx;
    gp_check after;
    GP_TRY(rc->ops->verify(rc->state, rc->config, rc->res, &after));
    rc->res->check.rechecked = true;
    rc->res->check.after_profile = after.status;
    if (after.status != GP_CHECK_PASSED)
        rc->res->check.status = GP_CHECK_FAILED;
    return GP_OK;
}

/* ---- one configuration ------------------------------------------------------------------ */

typedef struct {
    const gp_request *req;
    gp_report *report;
    gp_profiler_opener *opener;  /* while the profiler is being opened */
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

/* Warm up, time, check against the CPU. */
static int time_and_check(runner *r, run_context *rc, const gp_problem *p)
{
    const gp_request *req = r->req;
    gp_result *res = rc->res;
    describe_result(res, p, rc->config);
    for (unsigned w = 0; w < req->warmup; w++) {
        GP_TRY(run_prepare(rc));
        GP_TRY(run_launch(rc, NULL));
    }
    gp_timed_target timed = {rc, run_prepare, run_launch};
    GP_TRY(gp_time_target(&timed, req->repeat, res));
    res->timing.warmup = req->warmup;
    res->bytes_moved = rc->ops->bytes_moved(p);
    res->gbps = (double)res->bytes_moved / (res->timing.median_ms * 1e-3) / 1e9;
    res->percent_of_peak = 100.0 * res->gbps / r->report->device.peak_gbps;
    return rc->ops->verify(rc->state, rc->config, res, &res->check);
}

/* Every configuration of one problem, profiled together. */
static int profile_configs(runner *r, run_context *runs, size_t n)
{
    gp_profile_target *targets = calloc(n, sizeof *targets);
    if (!targets)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < n; i++)
        targets[i] = (gp_profile_target){&runs[i], run_restore, run_launch, run_flush,
                                         run_recheck, runs[i].res};
    int status = gp_profiler_collect(r->profiler, targets, n);
    free(targets);
    return status;
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

/* Every configuration of a problem (variant × block), counted as the profiler plans for
 * them: own kernels or a library call. */
static gp_profile_plan plan_of(const gp_request *req)
{
    gp_profile_plan plan = {0, 0};
    for (size_t v = 0; v < req->n_variants; v++) {
        if (req->variants[v]->flags & GP_VF_LIBRARY)
            plan.library += blocks_for(req, req->variants[v]);
        else
            plan.own += blocks_for(req, req->variants[v]);
    }
    return plan;
}

/* CUPTI's set-up runs on its own thread while the device is opened and the first problem's
 * data is built. */
static int start_profiler(runner *r)
{
    if (r->req->metrics.kind == GP_METRICS_NONE) {
        r->report->profiler.state = GP_PROF_DISABLED;
        return GP_OK;
    }
    const gp_profile_plan plan = plan_of(r->req);
    return gp_profiler_open_async(r->req->device, &r->req->metrics, &plan, &r->opener);
}

static int await_profiler(runner *r)
{
    if (!r->opener)
        return GP_OK;
    gp_profiler_info *info = &r->report->profiler;
    int rc = gp_profiler_open_wait(r->opener, &r->profiler, info);
    r->opener = NULL;
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

/* Time and check every configuration (variant × block), then profile them all at once. */
static int run_configs(runner *r, const gp_workload_ops *ops, void *state, const gp_problem *p,
                       gp_config *configs, run_context *runs)
{
    const gp_request *req = r->req;
    const size_t first = r->report->n_results;
    size_t k = 0;
    for (size_t v = 0; v < req->n_variants; v++)
        for (size_t b = 0; b < blocks_for(req, req->variants[v]); b++, k++) {
            configs[k] = make_config(req, req->variants[v], b);
            gp_result *res;
            GP_TRY(gp_report_add_result(r->report, &res));
            runs[k] = (run_context){ops, state, &configs[k], r->flush_buf, r->flush_bytes, res};
            GP_TRY(time_and_check(r, &runs[k], p));
        }
    /* Adding results may have moved them: point the configurations at them now. */
    for (size_t i = 0; i < k; i++)
        runs[i].res = &r->report->results[first + i];
    return r->profiler ? profile_configs(r, runs, k) : GP_OK;
}

static int run_problem(runner *r, const gp_problem *p, size_t *failed)
{
    const gp_workload_ops *ops = gp_workload_for(p->family);
    if (!ops)
        return gp_fail(GP_ERR_RUNTIME, "internal error: no workload for %s",
                       gp_family_name(p->family));
    GP_TRY(check_memory(ops, p, &r->report->device, r->flush_bytes));
    const gp_profile_plan plan = plan_of(r->req);
    const size_t n = plan.own + plan.library, first = r->report->n_results;
    gp_config *configs = calloc(n, sizeof *configs);
    run_context *runs = calloc(n, sizeof *runs);
    void *state = NULL;
    int status = configs && runs ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (status == GP_OK)
        status = ops->create(p, &r->report->device, &state);
    if (status == GP_OK)
        /* Before timing: no timed launch overlaps CUPTI's set-up. The kernels that generate
         * the inputs in create() may: CUPTI documents nothing against it, and they wait for
         * the set-up (on an H100 create() ends within 7 ms of the set-up's end). */
        status = await_profiler(r);
    if (status == GP_OK)
        status = run_configs(r, ops, state, p, configs, runs);
    for (size_t i = first; i < r->report->n_results; i++)
        *failed += r->report->results[i].check.status == GP_CHECK_FAILED;
    ops->destroy(state);
    free(configs);
    free(runs);
    return status;
}

int gp_run_kernels(const gp_request *req, gp_report *report, size_t *failed_checks)
{
    runner r = {req, report, NULL, NULL, NULL, 0};
    *failed_checks = 0;
    report->repeat = req->repeat;
    report->warmup = req->warmup;
    report->seed = req->seed;
    snprintf(report->command, sizeof report->command, "%s", gp_family_name(req->family));
    GP_TRY(start_profiler(&r));
    int status = gp_device_open(req->device, &report->device);
    if (status != GP_OK) {
        gp_profiler_open_cancel(r.opener);
        return status;
    }
    report->has_device = true;

    /* Three times the L2: enough to push out everything earlier work left there. */
    r.flush_bytes = 3 * (size_t)report->device.l2_bytes;
    if (r.flush_bytes < ((size_t)1 << 20))
        r.flush_bytes = (size_t)1 << 20;
    status = gp_device_alloc(&r.flush_buf, r.flush_bytes, "the L2 flush buffer");
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
    gp_profiler_open_cancel(r.opener); /* when no problem got as far as waiting for it */
    cudaFree(r.flush_buf);
    if (r.profiler)
        gp_profiler_close(r.profiler);
    return status;
}
