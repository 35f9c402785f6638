/* Kernel times from CUPTI's activity records (CONCURRENT_KERNEL: it times kernels without
 * serialising them): a `K` line per kernel that ran, launched directly or as a node of a
 * CUDA graph, its name given once per process in a `name` record. Kernels CUPTI replayed for
 * their counters carry no time (start 0), and the internal kernels replay adds share their
 * launch's correlation id: both are left out, the launch record of a profiled kernel has its
 * duration from the counters. A program may run a million kernels: these lines are numbers
 * only, written a buffer at a time. */
#include "exec/inject/activity.h"

#include "exec/protocol.h"
#include "exec/inject/profiled.h"
#include "exec/inject/record.h"

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

/* Names seen in this process, by the number their `name` record gave them. Only the
 * activity thread reads and writes it. */
typedef struct {
    char *name;
    uint64_t number;
} name_slot;

static name_slot *names;
static size_t name_slots, n_names;

static uint64_t hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static name_slot *find_slot(name_slot *table, size_t slots, const char *name)
{
    for (size_t i = hash_text(name) & (slots - 1);; i = (i + 1) & (slots - 1))
        if (!table[i].name || strcmp(table[i].name, name) == 0)
            return &table[i];
}

static bool grow_names(void)
{
    const size_t slots = name_slots ? 2 * name_slots : 256;
    name_slot *bigger = calloc(slots, sizeof *bigger);
    if (!bigger)
        return false;
    for (size_t i = 0; i < name_slots; i++)
        if (names[i].name)
            *find_slot(bigger, slots, names[i].name) = names[i];
    free(names);
    names = bigger;
    name_slots = slots;
    return true;
}

/* The name's number; a new one gets its `name` record into the batch first. */
static bool number_of(gp_record *batch, const char *name, uint64_t *number)
{
    if (2 * (n_names + 1) > name_slots && !grow_names())
        return false;
    name_slot *s = find_slot(names, name_slots, name);
    if (!s->name) {
        s->name = strdup(name);
        if (!s->name)
            return false;
        s->number = ++n_names;
        gp_record_add(batch, GP_RECORD_NAME);
        gp_record_int(batch, "pid", getpid());
        gp_record_uint(batch, "n", s->number);
        gp_record_string(batch, "name", name);
        gp_record_end_object(batch);
    }
    *number = s->number;
    return true;
}

static void add_kernel(gp_record *batch, const CUpti_ActivityKernel10 *k)
{
    uint64_t name = 0;
    if (!number_of(batch, k->name ? k->name : "?", &name))
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
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    static pthread_mutex_t one_at_a_time = PTHREAD_MUTEX_INITIALIZER; /* a forced flush may
                                                                         run beside CUPTI's */
    pthread_mutex_lock(&one_at_a_time);
    CUpti_Activity *rec = NULL;
    gp_record batch;
    memset(&batch, 0, sizeof batch); /* one write for the whole buffer */
    while (buffer && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (k->start == 0 || (k->graphNodeId == 0 && gp_profiled_has(k->correlationId)))
            continue;
        add_kernel(&batch, k);
    }
    gp_record_flush(&batch);
    pthread_mutex_unlock(&one_at_a_time);
    free(buffer);
}

int gp_activity_start(void)
{
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS)
        return -1;
    return cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS ? 0 : -1;
}

void gp_activity_flush(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
