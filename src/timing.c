/* Timing: repeats queued in batches, CUDA events around every kernel launch, inputs
 * restored and L2 flushed before each repeat outside the timed spans. The host waits once
 * per batch, not once per repeat: the GPU stays busy with the queued restores and flushes,
 * and a start event never waits on the host for its kernel. */
#include "timing.h"

#include "gpuprof/status.h"

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdlib.h>

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
                cudaEventDestroy(t->start[s][i]);
            if (t->stop[s][i])
                cudaEventDestroy(t->stop[s][i]);
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

static int run_repeats(const gp_timed_target *target, unsigned repeats, launch_timer *t,
                       double *total, double *each, size_t *launches, gp_result *res)
{
    gp_hooks hooks = {t, timer_before, timer_after};
    for (unsigned r = 0; r < repeats; r++) {
        t->slot = r % BATCH;
        t->count = 0;
        t->first_repeat = r == 0;
        GP_TRY(target->prepare(target->ctx));
        GP_TRY(target->launch(target->ctx, &hooks));
        if (t->count == 0)
            return gp_fail(GP_ERR_RUNTIME, "internal error: a launcher reported no launch");
        if (r == 0) {
            *launches = t->count;
            GP_TRY(record_launches(res, t));
        } else if (t->count != *launches) {
            return gp_fail(GP_ERR_RUNTIME, "internal error: %zu launches in one run, %zu in "
                                           "the first", t->count, *launches);
        }
        if (t->slot == BATCH - 1 || r + 1 == repeats)
            GP_TRY(read_batch(t, r - t->slot, t->slot + 1, *launches, total, each));
    }
    return GP_OK;
}

static void summarise(unsigned repeats, size_t launches, double *total, const double *each,
                      double *scratch, gp_result *res)
{
    res->timing.repeats = repeats;
    res->timing.median_ms = median(total, repeats); /* sorts total */
    res->timing.min_ms = total[0];
    res->timing.max_ms = total[repeats - 1];
    if (launches == 1) {
        res->launches[0].median_ms = res->timing.median_ms;
        return;
    }
    for (size_t i = 0; i < launches; i++) {
        for (unsigned r = 0; r < repeats; r++)
            scratch[r] = each[(size_t)r * MAX_LAUNCHES + i];
        res->launches[i].median_ms = median(scratch, repeats);
    }
}

int gp_time_target(const gp_timed_target *target, unsigned repeats, gp_result *res)
{
    launch_timer *t = calloc(1, sizeof *t);
    double *total = calloc(repeats, sizeof *total);
    double *scratch = calloc(repeats, sizeof *scratch);
    double *each = calloc((size_t)repeats * MAX_LAUNCHES, sizeof *each);
    size_t launches = 0;
    int status = t && total && scratch && each ? GP_OK
                                               : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (status == GP_OK)
        status = run_repeats(target, repeats, t, total, each, &launches, res);
    if (status == GP_OK)
        summarise(repeats, launches, total, each, scratch, res);
    if (t)
        timer_destroy(t);
    free(t);
    free(total);
    free(scratch);
    free(each);
    return status;
}
