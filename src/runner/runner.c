/* The runner: for each problem of the plan, create its data, then for each configuration
 * warm up, time with CUDA events (inputs restored and L2 flushed before every launch,
 * outside the timed region) and check against the CPU; then profile every configuration of
 * the problem together and check each again. Measures only: no printing. */
#include "gpuprof/runner.h"

#include "runner/user_replay.h"
#include "runner/collector_opening.h"
#include "gpuprof/checked_calls.h"
#include "gpuprof/device.h"
#include "gpuprof/status.h"
#include "runner/timing.h"
#include "runner/source_lines.h"
#include "catalogue/workload.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The L2 flush reads three times the L2: enough to push out everything earlier work left. */
#define FLUSH_L2_MULTIPLE 3
#define FLUSH_MIN_BYTES ((size_t)1 << 20)

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
    gp_collector_opener *opener;  /* while the profiler is being opened */
    gp_collector *collector;
    gp_sass_source *source;       /* --source: the SASS metrics configured */
    void *flush_buf;
    size_t flush_bytes;
    gp_run_observer obs;
} runner;

/* What a result is, known before it runs: a stream renders its label and heading then. */
static int describe_result(gp_result *res, const gp_problem *p, const gp_config *c)
{
    const gp_family *f = p->family;
    res->bytes_moved = f->workload->bytes_moved(p);
    snprintf(res->family, sizeof res->family, "%s", f->name);
    snprintf(res->variant, sizeof res->variant, "%s", c->variant->name);
    snprintf(res->type, sizeof res->type, "%s", gp_dtype_name(p->dtype));
    res->n = p->size.n;
    res->nx = p->size.nx;
    res->ny = p->size.ny;
    res->block = c->block;
    for (size_t i = 0; i < f->n_params; i++)
        GP_TRY(gp_result_add_param(res, f->params[i].name, gp_recorded_param(p, c, i)));
    return GP_OK;
}

/* --max-noise: say so when the limits were reached first. */
static int warn_if_noisy(gp_report *report, const gp_result *res, double max_noise_pct)
{
    if (isnan(max_noise_pct) || res->timing.noise_pct <= max_noise_pct)
        return GP_OK;
    char what[GP_TEXT_LEN], warning[2 * GP_TEXT_LEN];
    gp_result_describe(res, what, sizeof what);
    snprintf(warning, sizeof warning, "%s: timing noise %.2f %% still above --max-noise=%g %% "
                                      "after %u repeats (the limit)", what,
             res->timing.noise_pct, max_noise_pct, res->timing.repeats);
    return gp_report_add_warning(report, warning);
}

/* Warm up, time, check against the CPU. */
static int time_and_check(runner *r, run_context *rc)
{
    const gp_request *req = r->req;
    gp_result *res = rc->res;
    for (unsigned w = 0; w < req->warmup; w++) {
        GP_TRY(run_prepare(rc));
        GP_TRY(run_launch(rc, NULL));
    }
    gp_timed_target timed = {rc, run_prepare, run_launch};
    const gp_timing_goal goal = {req->repeat, req->max_noise_pct};
    GP_TRY(gp_time_target(&timed, &goal, res));
    GP_TRY(warn_if_noisy(r->report, res, req->max_noise_pct));
    res->timing.warmup = req->warmup;
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
    int status = gp_collect(r->collector, targets, n);
    free(targets);
    return status;
}

static int check_memory(const gp_problem *p, const gp_device_info *dev, size_t flush_bytes)
{
    uint64_t free_bytes, total;
    GP_TRY(gp_device_memory(&free_bytes, &total));
    uint64_t need = p->family->workload->device_bytes(p, dev) + flush_bytes;
    if (need > free_bytes)
        return gp_fail(GP_ERR_RUNTIME, "%s of size %llu needs %llu bytes of device memory, "
                                       "%llu are free", p->family->name,
                       (unsigned long long)p->size.n, (unsigned long long)need,
                       (unsigned long long)free_bytes);
    return GP_OK;
}

/* CUPTI's set-up runs on its own thread while the device is opened and the first problem's
 * data is built; its first session is sized for the first problem. */
static int start_profiler(runner *r, const gp_plan *plan)
{
    if (r->req->metrics.kind == GP_METRICS_NONE) {
        r->report->profiler.state = GP_PROF_DISABLED;
        return GP_OK;
    }
    size_t own = 0, library = 0;
    const gp_problem *first = &plan->problems[0];
    for (size_t i = 0; i < first->n_configs; i++) {
        if (first->configs[i].variant->flags & GP_VF_LIBRARY)
            library++;
        else
            own++;
    }
    return gp_collector_open_async(r->req->device, &r->req->metrics,
                                   gp_collect_first_session(own, library), &r->opener);
}

static int await_profiler(runner *r)
{
    if (!r->opener)
        return GP_OK;
    gp_profiler_info *info = &r->report->profiler;
    int rc = gp_collector_open_wait(r->opener, &r->collector);
    r->opener = NULL;
    if (rc == GP_OK) {
        gp_profiler_info_set(info, r->collector->chip, r->collector->passes,
                             r->collector->kind);
        return GP_OK;
    }
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

static int run_launch_plain(void *ctx)
{
    return run_launch(ctx, NULL);
}

/* --source: each configuration once more, its instructions counted; checked again after. */
static int collect_lines(runner *r, run_context *runs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gp_source_target t = {&runs[i], run_prepare, run_launch_plain};
        GP_TRY(gp_source_lines_collect(r->source, r->req->device, &t, runs[i].res));
        GP_TRY(run_recheck(&runs[i]));
    }
    return GP_OK;
}

static void starting(const runner *r, const gp_config *c)
{
    if (r->obs.starting)
        r->obs.starting(r->obs.ctx, c->result);
}

static int finished(const runner *r, const gp_config *c)
{
    return r->obs.finished ? r->obs.finished(r->obs.ctx, c->result) : GP_OK;
}

/* Time and check every configuration, then profile them all at once. */
static int run_configs(runner *r, void *state, const gp_problem *p, run_context *runs)
{
    for (size_t i = 0; i < p->n_configs; i++) {
        const gp_config *c = &p->configs[i];
        runs[i] = (run_context){p->family->workload, state, c, r->flush_buf, r->flush_bytes,
                                &r->report->results[c->result]};
        starting(r, c);
        GP_TRY(time_and_check(r, &runs[i]));
        if (!r->collector && !r->source)
            GP_TRY(finished(r, c));
    }
    if (!r->collector && !r->source)
        return GP_OK;
    if (r->collector)
        GP_TRY(profile_configs(r, runs, p->n_configs));
    if (r->source)
        GP_TRY(collect_lines(r, runs, p->n_configs));
    for (size_t i = 0; i < p->n_configs; i++)
        GP_TRY(finished(r, &p->configs[i]));
    return GP_OK;
}

static int run_problem(runner *r, const gp_problem *p)
{
    const gp_workload_ops *ops = p->family->workload;
    GP_TRY(check_memory(p, &r->report->device, r->flush_bytes));
    run_context *runs = calloc(p->n_configs, sizeof *runs);
    void *state = NULL;
    int status = runs ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (status == GP_OK)
        status = gp_workload_create(p, &r->report->device, &state);
    if (status == GP_OK)
        /* Before timing: no timed launch overlaps CUPTI's set-up. The kernels that generate
         * the inputs in create() may: CUPTI documents nothing against it, and they wait for
         * the set-up to finish (bench/README.md). */
        status = await_profiler(r);
    if (status == GP_OK)
        status = run_configs(r, state, p, runs);
    ops->destroy(state);
    free(runs);
    return status;
}

static int allocate_flush_buffer(runner *r)
{
    r->flush_bytes = FLUSH_L2_MULTIPLE * (size_t)r->report->device.l2_bytes;
    if (r->flush_bytes < FLUSH_MIN_BYTES)
        r->flush_bytes = FLUSH_MIN_BYTES;
    GP_TRY(gp_device_alloc(&r->flush_buf, r->flush_bytes, "the L2 flush buffer"));
    GP_CUDA(cudaMemset(r->flush_buf, 0, r->flush_bytes));
    return GP_OK;
}

static size_t count_failed(const gp_report *report)
{
    size_t failed = 0;
    for (size_t i = 0; i < report->n_results; i++)
        failed += report->results[i].check.status == GP_CHECK_FAILED;
    return failed;
}

static int describe_results(const gp_plan *plan, gp_result *results)
{
    for (size_t i = 0; i < plan->n_problems; i++) {
        const gp_problem *p = &plan->problems[i];
        for (size_t k = 0; k < p->n_configs; k++)
            GP_TRY(describe_result(&results[p->configs[k].result], p, &p->configs[k]));
    }
    return GP_OK;
}

/* The calls of this run that failed where nothing could return their failure
 * (gpuprof/checked_calls.h: a release in a teardown, the counters' closing): a warning each
 * in the report. The sites listed before the run were said in an earlier report. */
static int warn_failed_calls(gp_report *report, const gp_call_site *before)
{
    for (const gp_call_site *s = gp_failed_call_sites(); s && s != before; s = s->next) {
        char text[GP_MESSAGE_LEN];
        gp_call_site_warning(s, text, sizeof text);
        GP_TRY(gp_report_add_warning(report, text));
    }
    return GP_OK;
}

int gp_run_plan(const gp_request *req, const gp_plan *plan, gp_report *report,
                size_t *failed_checks, const gp_run_observer *obs)
{
    runner r = {req, report, NULL, NULL, NULL, NULL, 0, obs ? *obs : (gp_run_observer){0}};
    const gp_call_site *failed_before = gp_failed_call_sites();
    *failed_checks = 0;
    report->repeat = req->repeat;
    report->max_noise_pct = req->max_noise_pct;
    report->warmup = req->warmup;
    report->seed = req->seed;
    snprintf(report->command, sizeof report->command, "%s", req->family->name);
    gp_result *results;
    GP_TRY(gp_report_add_results(report, plan->n_configs, &results));
    GP_TRY(describe_results(plan, results));
    GP_TRY(start_profiler(&r, plan));
    /* Before the device exists, so that every module load is seen; without a device its
     * failure gives way to the device's error. */
    char unwatched[GP_MESSAGE_LEN] = "";
    if (req->source && gp_source_lines_watch() != GP_OK) {
        snprintf(unwatched, sizeof unwatched, "%s", gp_error());
        gp_clear_error();
    }
    int status = gp_device_open(req->device, &report->device);
    if (status == GP_OK) {
        report->has_device = true;
        status = allocate_flush_buffer(&r);
    }
    if (status == GP_OK && req->source)
        status = gp_source_lines_open(req->device, unwatched, report, &r.source);
    for (size_t i = 0; status == GP_OK && i < plan->n_problems; i++)
        status = run_problem(&r, &plan->problems[i]);
    gp_collector_open_cancel(r.opener); /* when no problem got as far as waiting for it */
    GP_CUDA_RELEASE(status, cudaFree(r.flush_buf));
    gp_collector_close(r.collector);
    if (req->source)
        gp_source_lines_close(r.source);
    *failed_checks = count_failed(report);
    const int said = warn_failed_calls(report, failed_before);
    return status == GP_OK ? said : status;
}
