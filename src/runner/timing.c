/* Timing: repeats queued in batches, CUDA events around every kernel launch, inputs
 * restored and L2 flushed before each repeat outside the timed spans. The host waits once
 * per batch, not once per repeat: the GPU stays busy with the queued restores and flushes,
 * and a start event never waits on the host for its kernel. */
#include "runner/timing.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/stats.h"
#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define MAX_LAUNCHES 64  /* kernel launches in one run of a workload */
#define BATCH 16         /* repeats queued before the host waits for them */

typedef struct {
    cudaEvent_t start[BATCH][MAX_LAUNCHES], stop[BATCH][MAX_LAUNCHES];  /* created lazily */
    gp_kernel_info info[MAX_LAUNCHES];  /* the launches of the first repeat */
    size_t slot;                        /* the repeat's place in its batch */
    size_t count;                       /* launches so far in this repeat */
    bool first_repeat;
} launch_timer;

static int timer_before(void *ctx, const gp_kernel_info *info)
{
    launch_timer *t = ctx;
    if (t->count >= MAX_LAUNCHES)
        return gp_fail(GP_ERR_RUNTIME, "more than %d kernel launches in one run", MAX_LAUNCHES);
    cudaEvent_t *start = &t->start[t->slot][t->count], *stop = &t->stop[t->slot][t->count];
    if (!*start)
        GP_CUDA(cudaEventCreate(start));
    if (!*stop)
        GP_CUDA(cudaEventCreate(stop));
    if (t->first_repeat)
        t->info[t->count] = *info;
    GP_CUDA(cudaEventRecord(*start, 0));
    return GP_OK;
}

static int timer_after(void *ctx)
{
    launch_timer *t = ctx;
    GP_CUDA(cudaEventRecord(t->stop[t->slot][t->count], 0));
    t->count++;
    return GP_OK;
}

static void timer_destroy(launch_timer *t)
{
    for (size_t s = 0; s < BATCH; s++)
        for (size_t i = 0; i < MAX_LAUNCHES; i++) {
            if (t->start[s][i])
                GP_CHECKED(cudaEventDestroy(t->start[s][i]), "a timing event was not freed");
            if (t->stop[s][i])
                GP_CHECKED(cudaEventDestroy(t->stop[s][i]), "a timing event was not freed");
        }
}

static int elapsed_ms(cudaEvent_t from, cudaEvent_t to, double *ms)
{
    float f;
    GP_CUDA(cudaEventElapsedTime(&f, from, to));
    *ms = f;
    return GP_OK;
}

/* Wait for the batch of `n` repeats that began with repeat `first`, read its events. */
static int read_batch(const launch_timer *t, size_t first, size_t n, size_t launches,
                      double *total, double *each)
{
    GP_CUDA(cudaEventSynchronize(t->stop[n - 1][launches - 1]));
    for (size_t s = 0; s < n; s++) {
        GP_TRY(elapsed_ms(t->start[s][0], t->stop[s][launches - 1], &total[first + s]));
        for (size_t i = 0; i < launches; i++)
            GP_TRY(elapsed_ms(t->start[s][i], t->stop[s][i],
                              &each[(first + s) * MAX_LAUNCHES + i]));
    }
    return GP_OK;
}

/* The times of every repeat so far: of the whole run, and of each launch in it. */
typedef struct {
    double *total;           /* [repeat] */
    double *each;            /* [repeat * MAX_LAUNCHES + launch] */
    double *scratch;         /* [repeat], for medians */
    unsigned capacity;       /* repeats they have room for */
    size_t launches;         /* launches per repeat */
} samples;

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

/* Repeats [from, to): every repeat's launches timed, the first repeat's recorded. */
static int run_repeats(const gp_timed_target *target, unsigned from, unsigned to,
                       launch_timer *t, samples *smp, gp_result *res)
{
    gp_hooks hooks = {t, timer_before, timer_after};
    for (unsigned r = from; r < to; r++) {
        t->slot = (r - from) % BATCH;
        t->count = 0;
        t->first_repeat = r == 0;
        GP_TRY(target->prepare(target->ctx));
        GP_TRY(target->launch(target->ctx, &hooks));
        if (t->count == 0)
            return gp_fail(GP_ERR_RUNTIME, "internal error: a launcher reported no launch");
        if (r == 0) {
            smp->launches = t->count;
            GP_TRY(record_launches(res, t));
        } else if (t->count != smp->launches) {
            return gp_fail(GP_ERR_RUNTIME, "internal error: %zu launches in one run, %zu in "
                                           "the first", t->count, smp->launches);
        }
        if (t->slot == BATCH - 1 || r + 1 == to)
            GP_TRY(read_batch(t, r - t->slot, t->slot + 1, smp->launches, smp->total,
                              smp->each));
    }
    return GP_OK;
}

static void summarise(unsigned repeats, samples *smp, gp_result *res)
{
    res->timing.repeats = repeats;
    res->timing.noise_pct = gp_relative_spread(smp->total, repeats, smp->scratch);
    res->timing.median_ms = gp_median(smp->total, repeats); /* sorts total */
    res->timing.min_ms = smp->total[0];
    res->timing.max_ms = smp->total[repeats - 1];
    if (smp->launches == 1) {
        res->launches[0].median_ms = res->timing.median_ms;
        return;
    }
    for (size_t i = 0; i < smp->launches; i++) {
        for (unsigned r = 0; r < repeats; r++)
            smp->scratch[r] = smp->each[(size_t)r * MAX_LAUNCHES + i];
        res->launches[i].median_ms = gp_median(smp->scratch, repeats);
    }
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The repeats to time: `repeats`, or with a noise target rounds of `repeats` until the noise
 * is at most the target, the samples reach the limit, or the time does. */
static int run_rounds(const gp_timed_target *target, const gp_timing_goal *goal,
                      launch_timer *t, samples *smp, gp_result *res, unsigned *done)
{
    const double start = seconds_now();
    *done = 0;
    for (;;) {
        GP_TRY(run_repeats(target, *done, *done + goal->repeats, t, smp, res));
        *done += goal->repeats;
        if (isnan(goal->max_noise_pct) || *done + goal->repeats > smp->capacity ||
            seconds_now() - start > GP_MAX_NOISE_SECONDS ||
            gp_relative_spread(smp->total, *done, smp->scratch) <= goal->max_noise_pct)
            return GP_OK;
    }
}

static unsigned sample_capacity(const gp_timing_goal *goal)
{
    if (isnan(goal->max_noise_pct))
        return goal->repeats;
    const uint64_t most = (uint64_t)goal->repeats * GP_MAX_NOISE_ROUNDS;
    return goal->repeats > GP_MAX_NOISE_SAMPLES ? goal->repeats
           : most > GP_MAX_NOISE_SAMPLES        ? GP_MAX_NOISE_SAMPLES / goal->repeats *
                                                    goal->repeats
                                                : (unsigned)most;
}

int gp_time_target(const gp_timed_target *target, const gp_timing_goal *goal, gp_result *res)
{
    launch_timer *t = calloc(1, sizeof *t);
    samples smp = {.capacity = sample_capacity(goal)};
    smp.total = calloc(smp.capacity, sizeof *smp.total);
    smp.scratch = calloc(smp.capacity, sizeof *smp.scratch);
    smp.each = calloc((size_t)smp.capacity * MAX_LAUNCHES, sizeof *smp.each);
    unsigned done = 0;
    int status = t && smp.total && smp.scratch && smp.each
                     ? GP_OK
                     : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (status == GP_OK)
        status = run_rounds(target, goal, t, &smp, res, &done);
    if (status == GP_OK)
        summarise(done, &smp, res);
    if (t)
        timer_destroy(t);
    free(t);
    free(smp.total);
    free(smp.scratch);
    free(smp.each);
    return status;
}
