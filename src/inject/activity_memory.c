/* Memory copies (MEMCPY; peer-to-peer copies, MEMCPY2), memsets (MEMSET) and unified memory
 * (UNIFIED_MEMORY_COUNTER) from CUPTI's activity records, each a line of numbers (protocol.h):
 * a program may copy a million times, so these cost a few dozen bytes and no allocation.
 *
 * Unified memory's counters are configured together; a kind this machine cannot count
 * (remote map without NVLink, any of them under MPS or on a virtual GPU) is found by trying
 * each alone, left out and named in one warning, and the others still count. */
#include "inject/activity_memory.h"

#include "inject/profiled.h"
#include "gpuprof/protocol.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- enabling ------------------------------------------------------------------------------ */

static const struct {
    CUpti_ActivityUnifiedMemoryCounterKind kind;
    const char *name;
} unified_counters[] = {
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, "bytes HtoD"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, "bytes DtoH"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD, "bytes DtoD"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT, "CPU page faults"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT, "GPU page faults"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, "thrashing"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, "throttling"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP, "remote map"},
};
#define N_UNIFIED (sizeof unified_counters / sizeof unified_counters[0])

/* Whether unified memory's counters wait for the driver's initialization: set while the
 * library loads, tried again at each context creation and kernel launch until they start
 * or fail for another reason (a try is one atomic load once they have started). */
static atomic_bool unified_pending; /* Guard: none, atomic; changed under unified_lock */
static pthread_mutex_t unified_lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, the lock */

static CUptiResult configure(const bool *wanted)
{
    CUpti_ActivityUnifiedMemoryCounterConfig c[N_UNIFIED];
    uint32_t n = 0;
    memset(c, 0, sizeof c);
    for (size_t i = 0; i < N_UNIFIED; i++) {
        if (!wanted[i])
            continue;
        c[n].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
        c[n].kind = unified_counters[i].kind;
        c[n].deviceId = 0;
        c[n++].enable = 1;
    }
    return n ? cuptiActivityConfigureUnifiedMemoryCounter(c, n) : CUPTI_ERROR_NOT_SUPPORTED;
}

/* Every counter kind in one configuration; when CUPTI refuses it, each kind tried alone to
 * find those it refuses (named in `refused`, the last reason in *why), then the others
 * configured together (whether CUPTI adds a configuration to the one before or replaces it,
 * the last one holds them all). The kinds configured. */
static size_t configure_unified(char *refused, size_t len, CUptiResult *why)
{
    bool wanted[N_UNIFIED];
    size_t configured = 0, used = 0;
    for (size_t i = 0; i < N_UNIFIED; i++)
        wanted[i] = true;
    refused[0] = '\0';
    if ((*why = configure(wanted)) == CUPTI_SUCCESS)
        return N_UNIFIED;
    for (size_t i = 0; i < N_UNIFIED; i++) {
        bool alone[N_UNIFIED] = {false};
        alone[i] = true;
        const CUptiResult rc = configure(alone);
        wanted[i] = rc == CUPTI_SUCCESS;
        configured += wanted[i];
        if (wanted[i])
            continue;
        *why = rc;
        if (used < len)
            used += (size_t)snprintf(refused + used, len - used, "%s%s", used ? ", " : "",
                                     unified_counters[i].name);
    }
    return configured && configure(wanted) == CUPTI_SUCCESS ? configured : 0;
}

static void warn_unified(const char *what, CUptiResult why)
{
    const char *reason = NULL;
    if (cuptiGetResultString(why, &reason) != CUPTI_SUCCESS || !reason)
        reason = "unknown reason";
    char text[512];
    snprintf(text, sizeof text, "unified memory: %s not counted (CUPTI: %s)", what, reason);
    gp_record_warning(text, NULL);
}

/* CUPTI configures and starts unified memory's counters only once the driver is
 * initialized, which it is not yet while the driver loads this library (CUPTI_ERROR_NOT_READY,
 * measured on an H100 with CUDA 13.0): then they wait for the next try. */
static bool not_ready(CUptiResult why)
{
    return why == CUPTI_ERROR_NOT_READY || why == CUPTI_ERROR_NOT_INITIALIZED;
}

/* Whether to try again later. */
static bool enable_unified(bool last_try)
{
    char refused[256];
    CUptiResult why = CUPTI_SUCCESS;
    if (configure_unified(refused, sizeof refused, &why) == 0) {
        if (not_ready(why) && !last_try)
            return true;
        warn_unified("page faults and migrations are", why);
        return false;
    }
    why = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
    if (not_ready(why) && !last_try)
        return true;
    if (refused[0])
        warn_unified(refused, why == CUPTI_SUCCESS ? CUPTI_ERROR_NOT_SUPPORTED : why);
    if (why != CUPTI_SUCCESS)
        warn_unified("page faults and migrations are", why);
    return false;
}

void gp_activity_memory_enable(void)
{
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS)
        gp_record_warning("CUPTI's memory copy records could not be started: copies are not "
                          "reported", NULL);
    /* Peer-to-peer copies: where CUPTI lacks them, the other copies are still there. */
    (void)cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY2);
    if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS)
        gp_record_warning("CUPTI's memset records could not be started: memsets are not "
                          "reported", NULL);
    atomic_store(&unified_pending, enable_unified(false));
}

void gp_activity_memory_retry(bool last_try)
{
    if (!atomic_load(&unified_pending))
        return;
    pthread_mutex_lock(&unified_lock);
    if (atomic_load(&unified_pending))
        atomic_store(&unified_pending, enable_unified(last_try));
    pthread_mutex_unlock(&unified_lock);
}

/* ---- the lines ------------------------------------------------------------------------------ */

/* Whether a copy or memset is the program's own. Not one on a shadow launch's stream; nor one
 * that carries a profiled launch's correlation id: the kernel replay made it around that
 * launch (saving and restoring device memory), while the program's own copies and memsets
 * are API calls of their own, each with its own id. */
static bool the_programs(uint32_t stream_id, uint32_t correlation_id)
{
    return !gp_profiled_stream_has(stream_id) &&
           !(correlation_id && gp_profiled_has(correlation_id));
}

/* A copy's numbers, from either of CUPTI's copy records: a copy's and a peer-to-peer copy's
 * name these fields alike. */
#define COPY_NUMBERS(m, kind)                                                              \
    {[GP_M_PID] = (uint64_t)getpid(), [GP_M_ID] = (m)->correlationId,                     \
     [GP_M_CONTEXT] = (m)->contextId, [GP_M_DEVICE] = (m)->deviceId,                       \
     [GP_M_STREAM] = (m)->streamId, [GP_M_KIND] = (kind), [GP_M_SRC] = (m)->srcKind,       \
     [GP_M_DST] = (m)->dstKind, [GP_M_BYTES] = (m)->bytes, [GP_M_START] = (m)->start,      \
     [GP_M_END] = (m)->end}

/* Each kind's line from its record, whose layout is CUPTI's for that kind. */
static void add_copy(gp_record *batch, const CUpti_Activity *rec)
{
    const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)rec;
    if (!the_programs(m->streamId, m->correlationId))
        return;
    const uint64_t f[GP_M_FIELDS] = COPY_NUMBERS(m, m->copyKind);
    gp_record_numbers_line(batch, GP_COPY_TAG, f, GP_M_FIELDS);
}

static void add_peer_copy(gp_record *batch, const CUpti_Activity *rec)
{
    const CUpti_ActivityMemcpyPtoP4 *m = (const CUpti_ActivityMemcpyPtoP4 *)rec;
    if (!the_programs(m->streamId, m->correlationId))
        return;
    const uint64_t f[GP_M_FIELDS] = COPY_NUMBERS(m, CUPTI_ACTIVITY_MEMCPY_KIND_PTOP);
    gp_record_numbers_line(batch, GP_COPY_TAG, f, GP_M_FIELDS);
}

static void add_memset(gp_record *batch, const CUpti_Activity *rec)
{
    const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
    if (!the_programs(m->streamId, m->correlationId))
        return;
    const uint64_t f[GP_S_FIELDS] = {
        [GP_S_PID] = (uint64_t)getpid(), [GP_S_ID] = m->correlationId,
        [GP_S_CONTEXT] = m->contextId, [GP_S_DEVICE] = m->deviceId, [GP_S_STREAM] = m->streamId,
        [GP_S_MEMORY] = m->memoryKind, [GP_S_BYTES] = m->bytes, [GP_S_START] = m->start,
        [GP_S_END] = m->end};
    gp_record_numbers_line(batch, GP_MEMSET_TAG, f, GP_S_FIELDS);
}

/* A record's value: bytes (migrations; the region's size for thrashing and remote maps), a
 * GPU fault's fault groups, but for a CPU page fault the faulting instruction's address
 * (cupti_activity.h): one record is one fault. */
static uint64_t unified_value(const CUpti_ActivityUnifiedMemoryCounter3 *u)
{
    return u->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT
               ? 1
               : u->value;
}

static void add_unified(gp_record *batch, const CUpti_Activity *rec)
{
    const CUpti_ActivityUnifiedMemoryCounter3 *u = (const CUpti_ActivityUnifiedMemoryCounter3 *)rec;
    const uint64_t f[GP_U_FIELDS] = {
        [GP_U_PID] = (uint64_t)getpid(), [GP_U_COUNTER] = (uint64_t)u->counterKind,
        [GP_U_VALUE] = unified_value(u), [GP_U_START] = u->start, [GP_U_END] = u->end,
        [GP_U_SRC] = u->srcId, [GP_U_DST] = u->dstId};
    gp_record_numbers_line(batch, GP_UNIFIED_TAG, f, GP_U_FIELDS);
}

/* The kinds this file writes a line for, each with its writer (CUPTI's kinds are small
 * numbers). */
static void (*const line_of[])(gp_record *batch, const CUpti_Activity *rec) = {
    [CUPTI_ACTIVITY_KIND_MEMCPY] = add_copy,
    [CUPTI_ACTIVITY_KIND_MEMCPY2] = add_peer_copy,
    [CUPTI_ACTIVITY_KIND_MEMSET] = add_memset,
    [CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER] = add_unified,
};

bool gp_activity_memory_add(gp_record *batch, const CUpti_Activity *rec)
{
    const size_t kind = (size_t)rec->kind;
    if (kind >= sizeof line_of / sizeof line_of[0] || !line_of[kind])
        return false;
    line_of[kind](batch, rec);
    return true;
}
