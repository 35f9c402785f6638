/* Kernel times from CUPTI's activity records (and, through activity_memory.c, copies,
 * memsets and unified memory) (CONCURRENT_KERNEL: it times kernels without
 * serialising them): a `K` line per kernel that ran, launched directly or as a node of a
 * CUDA graph, its name given once per process in a `name` record. Kernels CUPTI replayed for
 * their counters carry no time (start 0), and the internal kernels replay adds share their
 * launch's correlation id: both are left out, the launch record of a profiled kernel has its
 * duration from the counters. A program may run a million kernels: these lines are numbers
 * only, written a buffer at a time. */
#include "inject/activity_records.h"

#include "gpuprof/checked_calls.h"
#include "inject/activity_memory.h"
#include "inject/codes.h"
#include "inject/launch_ranges.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/protocol.h"
#include "inject/profiled.h"
#include "inject/record.h"

#include <cupti.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFFER_BYTES (8u << 20)
#define BUFFER_ALIGN 8

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    void *p = NULL;
    *buffer = posix_memalign(&p, BUFFER_ALIGN, BUFFER_BYTES) == 0 ? p : NULL;
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

/* The kernels seen in this process by name and code (inject/codes.h), and the number each
 * one's `name` record gave it (1, 2, ... in order of first sight). Guard:
 * buffer_completed's one_at_a_time (only it reads and writes the map). */
static gp_hashmap name_numbers;

/* The number of the name and code; a new one gets its `name` record into the batch first. */
static bool number_of(gp_record *batch, const char *name, uint64_t code, uint64_t *number)
{
    bool added = false;
    uint64_t *n = gp_hashmap_add_named(&name_numbers, &code, sizeof code, name, &added);
    if (!n)
        return false;
    if (added) {
        *n = name_numbers.count;
        gp_record_add(batch, GP_RECORD_NAME);
        gp_record_uint(batch, "n", *n);
        gp_record_string(batch, "name", name);
        gp_record_code(batch, "code", code);
        gp_record_end_object(batch);
    }
    *number = *n;
    return true;
}

static void add_kernel(gp_record *batch, const CUpti_ActivityKernel10 *k)
{
    uint64_t name = 0;
    const uint64_t code = gp_codes_take(k->correlationId, k->graphNodeId);
    if (!number_of(batch, k->name ? k->name : "?", code, &name))
        return;
    const uint64_t fields[GP_K_FIELDS] = {
        [GP_K_PID] = (uint64_t)getpid(), [GP_K_ID] = k->correlationId,
        [GP_K_CONTEXT] = k->contextId, [GP_K_DEVICE] = k->deviceId,
        [GP_K_STREAM] = k->streamId, [GP_K_NAME] = name,
        [GP_K_GX] = (uint64_t)k->gridX, [GP_K_GY] = (uint64_t)k->gridY,
        [GP_K_GZ] = (uint64_t)k->gridZ, [GP_K_BX] = (uint64_t)k->blockX,
        [GP_K_BY] = (uint64_t)k->blockY, [GP_K_BZ] = (uint64_t)k->blockZ,
        [GP_K_SMEM] = k->dynamicSharedMemory, [GP_K_START] = k->start, [GP_K_END] = k->end,
        [GP_K_GRAPH] = k->graphId, [GP_K_NODE] = k->graphNodeId};
    gp_record_numbers_line(batch, GP_KERNEL_TAG, fields, GP_K_FIELDS);
    if (!gp_launch_ranges_on())
        return;
    const uint32_t range = gp_launch_ranges_of(k->correlationId);
    const uint32_t capture = gp_launch_ranges_of_node(k->graphNodeId);
    if (range || capture) {
        const uint64_t r[GP_R_FIELDS] = {[GP_R_PID] = (uint64_t)getpid(),
                                         [GP_R_ID] = k->correlationId,
                                         [GP_R_NODE] = k->graphNodeId, [GP_R_RANGE] = range,
                                         [GP_R_CAPTURE] = capture};
        gp_record_numbers_line(batch, GP_RANGE_TAG, r, GP_R_FIELDS);
    }
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    /* A forced flush may run beside CUPTI's. Guard: none, it is the lock. */
    static pthread_mutex_t one_at_a_time = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&one_at_a_time);
    CUpti_Activity *rec = NULL;
    gp_record batch;
    memset(&batch, 0, sizeof batch); /* one write for the whole buffer */
    while (buffer && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            gp_activity_memory_add(&batch, rec); /* copies, memsets, unified memory */
            continue;
        }
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (k->start == 0 || gp_profiled_stream_has(k->streamId) ||
            (k->graphNodeId == 0 && (gp_profiled_has(k->correlationId) ||
                                     gp_profiled_graph_launch_has(k->correlationId))))
            continue;
        add_kernel(&batch, k);
    }
    gp_record_flush(&batch);
    pthread_mutex_unlock(&one_at_a_time);
    free(buffer);
}

int gp_activity_start(void)
{
    gp_hashmap_init(&name_numbers, sizeof(uint64_t));
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS)
        return -1;
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS)
        return -1;
    gp_activity_memory_enable();
    return 0;
}

void gp_activity_pause_kernels(void)
{
    GP_CHECKED(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
               "--source: patched launches were timed: their kernels' times include the "
               "patching");
}

void gp_activity_resume_kernels(void)
{
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS)
        gp_record_warning("--source: CUPTI's kernel records could not be resumed after a "
                          "patched launch: later kernels are not timed", NULL);
}

void gp_activity_flush(void)
{
    GP_CHECKED(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
               "CUPTI's last activity records were not flushed: the last kernels may lack "
               "their times");
}
