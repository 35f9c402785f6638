/* Counters for the kernel commands' configurations: user replay, one session for as many
 * configurations as it holds, ranges matched to launches.
 *
 * gpuprof runs each workload once per pass itself, restoring its inputs before each run and
 * flushing L2 before each of its kernels. That gives every kernel the cold-cache start ncu
 * gives it by default (--cache-control all), which CUPTI's own kernel replay in 13.0 does
 * not, and only the buffers the workload owns are restored.
 *
 * Every kernel is a range, in launch order. The L2 flush before each kernel is a range too,
 * and is skipped: flushing inside the session matters, because starting a session leaves
 * dirty lines in L2 that a flush before it would not see. A library call launches kernels
 * gpuprof does not see: it runs last in its session, and the ranges after the others are
 * its kernels. */
#include "runner/user_replay.h"

#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges a session may hold. Starting a session costs more the more it can hold, so the
 * first session is sized for what it needs, and a later, larger one grows it to this, once. */
#define MAX_SESSION_RANGES 64
#define LIBRARY_RANGES 8  /* kernels a library call may launch: cub's reduction launches 1 or 2 */
#define LIBRARY_CALL_RANGES (1 + LIBRARY_RANGES) /* with the flush before it */
#define OURS_MAX (MAX_SESSION_RANGES - LIBRARY_CALL_RANGES)

static bool is_library_call(const gp_result *res)
{
    return res->n_launches == 1 && res->launches[0].opaque;
}

/* Ranges a target takes in a session: a flush and a kernel per launch; a library call's
 * kernels are not known before it runs. */
static size_t ranges_of(const gp_profile_target *t)
{
    return is_library_call(t->res) ? LIBRARY_CALL_RANGES : 2 * t->res->n_launches;
}

/* Every own configuration that fits, a flush and at least one kernel each, then a library
 * call if all of them did: what collect_in_order makes of them. */
size_t gp_collect_first_session(size_t own, size_t library)
{
    const bool all_fit = 2 * own <= OURS_MAX;
    const size_t ours = all_fit ? 2 * own : OURS_MAX / 2 * 2;
    return ours + (library > 0 && all_fit ? LIBRARY_CALL_RANGES : 0);
}

/* ---- one session -------------------------------------------------------------------------- */

/* Hooks while profiling: flush L2 before every kernel of a run, count the launches. */
typedef struct {
    const gp_profile_target *target;
    size_t launches;
} pass_hooks;

static int pass_before(void *ctx, const gp_kernel_info *info)
{
    (void)info;
    pass_hooks *h = ctx;
    GP_TRY(h->target->flush(h->target->ctx));
    h->launches++;
    return GP_OK;
}

/* One pass: every target's inputs restored and the target run once; in the last pass each
 * one's result is checked right after its run, before the next target reuses the buffers. */
static int run_targets(const gp_profile_target *t, size_t n, bool last, size_t *launches)
{
    pass_hooks ph = {NULL, 0};
    gp_hooks hooks = {&ph, pass_before, NULL};
    for (size_t i = 0; i < n; i++) {
        GP_TRY(t[i].restore(t[i].ctx));
        ph.target = &t[i];
        ph.launches = 0;
        GP_TRY(t[i].launch(t[i].ctx, &hooks));
        launches[i] = ph.launches;
        if (last)
            GP_TRY(t[i].check(t[i].ctx));
    }
    return GP_OK;
}

/* Run the targets once per pass of the configuration. */
static int run_passes(gp_collector *c, const gp_profile_target *t, size_t n, size_t *launches)
{
    for (int pass = 0; pass < c->passes; pass++) {
        const bool last = pass + 1 == c->passes;
        GP_CUDA(cudaDeviceSynchronize());
        GP_TRY(gp_profiler_start(c->profiler));
        int rc = run_targets(t, n, last, launches);
        bool all_submitted = false;
        const int stopped = gp_profiler_stop(c->profiler, &all_submitted); /* even after a
                                                                             failed run */
        GP_TRY(rc);
        GP_TRY(stopped);
        GP_CUDA(cudaDeviceSynchronize());
        if (all_submitted != last)
            return gp_fail(GP_ERR_RUNTIME, "internal error: CUPTI ended after pass %d, the "
                                           "configuration has %d", pass + 1, c->passes);
    }
    return GP_OK;
}

/* ---- ranges to results --------------------------------------------------------------------- */

static void record_clocks(gp_result *res)
{
    double ns = gp_metric_set_counter(&res->metrics, "gpu__time_duration.sum");
    double sm = gp_metric_set_counter(&res->metrics, "sm__cycles_elapsed.avg");
    double dram = gp_metric_set_counter(&res->metrics, "dram__cycles_elapsed.avg");
    res->sm_clock_ghz = ns > 0 && !isnan(sm) ? sm / ns : -1.0;
    res->dram_clock_ghz = ns > 0 && !isnan(dram) ? dram / ns : -1.0;
}

/* An opaque launch (a library call) may launch several kernels: one record each, named
 * after the call. */
static int expand_opaque_launch(gp_result *res, size_t kernels)
{
    if (res->n_launches != 1 || kernels <= 1)
        return GP_OK;
    gp_launch_record first = res->launches[0];
    res->launches[0].median_ms = -1.0;
    for (size_t k = 1; k < kernels; k++) {
        gp_launch_record *l;
        GP_TRY(gp_result_add_launch(res, &l));
        *l = first;
        l->median_ms = -1.0;
    }
    for (size_t k = 0; k < kernels; k++)
        snprintf(res->launches[k].kernel, GP_NAME_LEN, "%.90s [kernel %zu of %zu]",
                 first.kernel, (k + 1) % 1000, kernels % 1000);
    return GP_OK;
}

/* Counters of one target's kernels, the k-th at range first + k * stride: one set per
 * launch and the aggregate of their sums. */
static int fill_result(gp_collector *c, size_t first, size_t stride, size_t kernels,
                       gp_result *res)
{
    double values[GP_MAX_COUNTERS], sums[GP_MAX_COUNTERS];
    for (size_t k = 0; k < kernels; k++) {
        GP_TRY(gp_profiler_read(c->profiler, first + k * stride, values));
        gp_collector_accumulate(c, sums, values, k == 0);
        GP_TRY(gp_collector_metric_set(c, values, 1, &res->launches[k].metrics));
    }
    GP_TRY(gp_collector_metric_set(c, sums, kernels, &res->metrics));
    res->passes = c->passes;
    res->profiled = true;
    record_clocks(res);
    return GP_OK;
}

/* Where each target's kernels are among the session's ranges, which follow launch order. */
typedef struct {
    size_t first, stride, kernels;
} target_ranges;

/* launches[i]: what the hooks counted for target i. A library call launches kernels gpuprof
 * cannot count; it comes last and the ranges left are its kernels. */
static int map_ranges(const gp_profile_target *t, size_t n, const size_t *launches,
                      size_t total, target_ranges *m)
{
    size_t range = 0;
    for (size_t i = 0; i < n; i++) {
        range++; /* the flush before it */
        m[i].first = range;
        if (is_library_call(t[i].res)) {
            if (i + 1 != n || launches[i] != 1 || total <= range)
                return gp_fail(GP_ERR_RUNTIME, "internal error: a library call must be the "
                                               "last launch of a session");
            m[i].stride = 1;
            m[i].kernels = total - range;
            range = total;
            continue;
        }
        if (launches[i] != t[i].res->n_launches)
            return gp_fail(GP_ERR_RUNTIME, "internal error: %zu launches profiled, %zu timed",
                           launches[i], t[i].res->n_launches);
        m[i].stride = 2;
        m[i].kernels = launches[i];
        range += 2 * launches[i] - 1;
    }
    if (range != total)
        return gp_fail(GP_ERR_RUNTIME, "CUPTI recorded %zu ranges where gpuprof launched %zu "
                                       "kernels", total, range);
    return GP_OK;
}

static int fill_session_results(gp_collector *c, const gp_profile_target *t, size_t n,
                                const size_t *launches, size_t total, target_ranges *m)
{
    GP_TRY(map_ranges(t, n, launches, total, m));
    for (size_t i = 0; i < n; i++) {
        if (is_library_call(t[i].res))
            GP_TRY(expand_opaque_launch(t[i].res, m[i].kernels));
        GP_TRY(fill_result(c, m[i].first, m[i].stride, m[i].kernels, t[i].res));
    }
    return GP_OK;
}

/* Targets in one session of `ranges` ranges: all of ours, then at most one library call. */
static int collect_session(gp_collector *c, const gp_profile_target *t, size_t n,
                           size_t ranges)
{
    target_ranges *m = calloc(n, sizeof *m);
    size_t *launches = calloc(n, sizeof *launches);
    size_t total = 0;
    int status = m && launches ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (status == GP_OK)
        status = gp_profiler_begin(c->profiler, ranges);
    if (status == GP_OK)
        status = run_passes(c, t, n, launches);
    if (status == GP_OK)
        status = gp_profiler_end(c->profiler, &total);
    if (status == GP_OK)
        status = fill_session_results(c, t, n, launches, total, m);
    free(m);
    free(launches);
    return status;
}

/* Our targets first, library calls last; as many in one session as it can hold, always with
 * room for one library call after ours. */
static int collect_in_order(gp_collector *c, const gp_profile_target *t, size_t n)
{
    size_t i = 0, capacity = 0;
    while (i < n) {
        size_t j = i, ranges = 0;
        while (j < n && !is_library_call(t[j].res) && ranges + ranges_of(&t[j]) <= OURS_MAX)
            ranges += ranges_of(&t[j++]);
        if (j < n && is_library_call(t[j].res))
            ranges += ranges_of(&t[j++]);
        if (j == i)
            return gp_fail(GP_ERR_RUNTIME, "%zu kernel launches in one run: more than the "
                                           "profiler's %d", t[i].res->n_launches, OURS_MAX / 2);
        /* A session larger than the first one grows the capacity to the most, once. */
        if (capacity && ranges > capacity)
            ranges = MAX_SESSION_RANGES;
        capacity = capacity > ranges ? capacity : ranges;
        GP_TRY(collect_session(c, &t[i], j - i, ranges));
        i = j;
    }
    return GP_OK;
}

int gp_collect(gp_collector *c, const gp_profile_target *targets, size_t n)
{
    gp_profile_target *ordered = malloc(n * sizeof *ordered);
    if (!ordered)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_library_call(targets[i].res))
            ordered[k++] = targets[i];
    for (size_t i = 0; i < n; i++)
        if (is_library_call(targets[i].res))
            ordered[k++] = targets[i];
    int status = collect_in_order(c, ordered, n);
    free(ordered);
    return status;
}
