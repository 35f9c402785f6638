/* The PC sampler of gpuprof/pc_sampler.h: CUPTI's PC Sampling API in continuous mode, its
 * samples added up per (cubin CRC, function, PC offset) and reason in a hash map. The call
 * sequence is CUPTI's pc_sampling_continuous sample's: enable on the context, ask the stall
 * reasons, configure (reasons, the buffer Disable fills, the scratch buffer, the mode, the
 * period), then GetData from time to time and Disable at the end.
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/pc_sampler.h"

#include "counters/cupti_call.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <cupti.h>
#include <cupti_pcsampling.h>
#include <stdlib.h>
#include <string.h>

/* CUPTI's scratch buffer of decoded PCs between GetData calls: 16 MiB holds about 100,000
 * PC records of 40 reasons, several drains' worth at the default period. */
#define SCRATCH_BYTES ((size_t)16 << 20)

/* An instruction's key in the map, then its function's name. */
typedef struct {
    uint64_t code;
    uint32_t pc, zero; /* the padding zeroed: it is part of the key */
} pc_key;

struct gp_pc_sampler {
    CUcontext ctx;
    bool enabled;
    unsigned period;
    size_t n_reasons;
    uint32_t *reason_index;        /* CUPTI's index of each reason */
    char **reason_names;
    CUpti_PCSamplingData get, end; /* GetData's buffer; the configured one Disable fills */
    gp_hashmap pcs;                /* pc_key + function -> uint64_t[n_reasons] */
    gp_hashmap names;              /* CUPTI's function-name strings, to free once each */
    gp_pc_sampler_totals totals;
    unsigned failures_in_a_row;
};

/* ---- buffers ------------------------------------------------------------------------------ */

static int alloc_data(CUpti_PCSamplingData *d, size_t n_reasons)
{
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->collectNumPcs = GP_PC_SAMPLER_PCS_PER_CALL;
    d->pPcData = calloc(GP_PC_SAMPLER_PCS_PER_CALL, sizeof *d->pPcData);
    if (!d->pPcData)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < GP_PC_SAMPLER_PCS_PER_CALL; i++) {
        d->pPcData[i].size = sizeof d->pPcData[i];
        d->pPcData[i].stallReason = calloc(n_reasons, sizeof *d->pPcData[i].stallReason);
        if (!d->pPcData[i].stallReason)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    return GP_OK;
}

static void free_data(CUpti_PCSamplingData *d)
{
    if (d->pPcData)
        for (size_t i = 0; i < GP_PC_SAMPLER_PCS_PER_CALL; i++)
            free(d->pPcData[i].stallReason);
    free(d->pPcData);
    memset(d, 0, sizeof *d);
}

/* ---- the samples added up ------------------------------------------------------------------ */

static int reason_slot(const gp_pc_sampler *s, uint32_t cupti_index)
{
    for (size_t k = 0; k < s->n_reasons; k++)
        if (s->reason_index[k] == cupti_index)
            return (int)k;
    return -1;
}

/* A function name CUPTI handed over, kept to be freed once (records share it). */
static void keep_name(gp_pc_sampler *s, char *name)
{
    if (!name)
        return;
    bool added = false;
    (void)gp_hashmap_add(&s->names, &name, sizeof name, &added);
}

/* The instruction's counts in the map, added when new. The key is the pc_key and the name
 * with its NUL, so that a key read back holds a C string (gp_pc_sampler_next); built on the
 * stack for names of usual length. */
static uint64_t *counts_of(gp_pc_sampler *s, const CUpti_PCSamplingPCData *p)
{
    const pc_key fixed = {p->cubinCrc, (uint32_t)p->pcOffset, 0};
    const char *name = p->functionName ? p->functionName : "";
    const size_t len = sizeof fixed + strlen(name) + 1;
    unsigned char stack[sizeof fixed + 1024];
    unsigned char *key = len <= sizeof stack ? stack : malloc(len);
    if (!key)
        return NULL;
    memcpy(key, &fixed, sizeof fixed);
    memcpy(key + sizeof fixed, name, len - sizeof fixed);
    bool added = false;
    uint64_t *counts = gp_hashmap_add(&s->pcs, key, len, &added);
    if (key != stack)
        free(key);
    return counts;
}

static int add_pc(gp_pc_sampler *s, const CUpti_PCSamplingPCData *p)
{
    keep_name(s, p->functionName);
    uint64_t *counts = counts_of(s, p);
    if (!counts)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t r = 0; r < p->stallReasonCount; r++) {
        const int k = reason_slot(s, p->stallReason[r].pcSamplingStallReasonIndex);
        if (k >= 0)
            counts[k] += p->stallReason[r].samples;
    }
    return GP_OK;
}

/* What one buffer holds, added up; the buffer emptied for its next use. */
static int take(gp_pc_sampler *s, CUpti_PCSamplingData *d)
{
    int rc = GP_OK;
    s->totals.samples += d->totalSamples;
    s->totals.dropped += d->droppedSamples;
    s->totals.non_user += d->nonUsrKernelsTotalSamples;
    s->totals.buffer_full |= d->hardwareBufferFull != 0;
    for (size_t i = 0; i < d->totalNumPcs && rc == GP_OK; i++)
        rc = add_pc(s, &d->pPcData[i]);
    d->totalNumPcs = d->remainingNumPcs = 0;
    d->totalSamples = d->droppedSamples = d->nonUsrKernelsTotalSamples = 0;
    return rc;
}

/* ---- CUPTI's calls ------------------------------------------------------------------------- */

static int ask_reasons(gp_pc_sampler *s)
{
    CUpti_PCSamplingGetNumStallReasonsParams n = {.size =
                                                      CUpti_PCSamplingGetNumStallReasonsParamsSize};
    n.ctx = s->ctx;
    n.numStallReasons = &s->n_reasons;
    CUPTI(cuptiPCSamplingGetNumStallReasons(&n));
    s->reason_index = calloc(s->n_reasons ? s->n_reasons : 1, sizeof *s->reason_index);
    s->reason_names = calloc(s->n_reasons ? s->n_reasons : 1, sizeof *s->reason_names);
    if (!s->reason_index || !s->reason_names)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < s->n_reasons; i++)
        if (!(s->reason_names[i] = calloc(CUPTI_STALL_REASON_STRING_SIZE, 1)))
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    CUpti_PCSamplingGetStallReasonsParams r = {.size = CUpti_PCSamplingGetStallReasonsParamsSize};
    r.ctx = s->ctx;
    r.numStallReasons = s->n_reasons;
    r.stallReasonIndex = s->reason_index;
    r.stallReasons = s->reason_names;
    CUPTI(cuptiPCSamplingGetStallReasons(&r));
    return GP_OK;
}

static int configure(gp_pc_sampler *s)
{
    CUpti_PCSamplingConfigurationInfo info[5];
    memset(info, 0, sizeof info);
    info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    info[0].attributeData.stallReasonData.stallReasonCount = s->n_reasons;
    info[0].attributeData.stallReasonData.pStallReasonIndex = s->reason_index;
    info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    info[1].attributeData.samplingDataBufferData.samplingDataBuffer = &s->end;
    info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    info[2].attributeData.scratchBufferSizeData.scratchBufferSize = SCRATCH_BYTES;
    info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    info[3].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    info[4].attributeData.samplingPeriodData.samplingPeriod = s->period;
    CUpti_PCSamplingConfigurationInfoParams p = {
        .size = CUpti_PCSamplingConfigurationInfoParamsSize};
    p.ctx = s->ctx;
    p.numAttributes = sizeof info / sizeof info[0];
    p.pPCSamplingConfigurationInfo = info;
    CUPTI(cuptiPCSamplingSetConfigurationAttribute(&p));
    return GP_OK;
}

static int enable(gp_pc_sampler *s)
{
    CUpti_PCSamplingEnableParams p = {.size = CUpti_PCSamplingEnableParamsSize};
    p.ctx = s->ctx;
    CUPTI(cuptiPCSamplingEnable(&p));
    s->enabled = true;
    return GP_OK;
}

int gp_pc_sampler_open(CUcontext ctx, unsigned period_log2, gp_pc_sampler **out)
{
    *out = NULL;
    if (period_log2 < 5 || period_log2 > 31)
        return gp_fail(GP_ERR_USAGE, "a PC sampling period of 2^%u cycles: CUPTI takes 2^5 "
                                     "to 2^31", period_log2);
    gp_pc_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    s->ctx = ctx;
    s->period = period_log2;
    int rc = enable(s);
    if (rc == GP_OK)
        rc = ask_reasons(s);
    if (rc == GP_OK)
        rc = alloc_data(&s->get, s->n_reasons);
    if (rc == GP_OK)
        rc = alloc_data(&s->end, s->n_reasons);
    if (rc == GP_OK) {
        gp_hashmap_init(&s->pcs, s->n_reasons * sizeof(uint64_t));
        gp_hashmap_init(&s->names, 0);
        rc = configure(s);
    }
    if (rc != GP_OK) {
        gp_pc_sampler_free(s);
        return rc;
    }
    *out = s;
    return GP_OK;
}

int gp_pc_sampler_drain(gp_pc_sampler *s)
{
    if (!s || !s->enabled || s->failures_in_a_row >= GP_PC_SAMPLER_MAX_FAILURES)
        return GP_OK;
    for (;;) {
        CUpti_PCSamplingGetDataParams p = {.size = CUpti_PCSamplingGetDataParamsSize};
        p.ctx = s->ctx;
        p.pcSamplingData = &s->get;
        const CUptiResult r = cuptiPCSamplingGetData(&p);
        if (r != CUPTI_SUCCESS) {
            s->totals.failures++;
            s->failures_in_a_row++;
            s->totals.buffer_full |= s->get.hardwareBufferFull != 0;
            return gp_cupti_fail(r, "cuptiPCSamplingGetData(&p)", __FILE__, __LINE__);
        }
        s->failures_in_a_row = 0;
        const size_t remaining = s->get.remainingNumPcs;
        GP_TRY(take(s, &s->get));
        if (remaining == 0)
            return GP_OK;
    }
}

int gp_pc_sampler_close(gp_pc_sampler *s)
{
    if (!s || !s->enabled)
        return GP_OK;
    int rc = gp_pc_sampler_drain(s);
    CUpti_PCSamplingDisableParams p = {.size = CUpti_PCSamplingDisableParamsSize};
    p.ctx = s->ctx;
    s->enabled = false;
    const CUptiResult r = cuptiPCSamplingDisable(&p);
    if (r != CUPTI_SUCCESS)
        return gp_cupti_fail(r, "cuptiPCSamplingDisable(&p)", __FILE__, __LINE__);
    const int taken = take(s, &s->end); /* what Disable flushed into the configured buffer */
    return rc != GP_OK ? rc : taken;
}

size_t gp_pc_sampler_reasons(const gp_pc_sampler *s, const char *const **names)
{
    *names = (const char *const *)s->reason_names;
    return s->n_reasons;
}

unsigned gp_pc_sampler_period(const gp_pc_sampler *s)
{
    return s->period;
}

gp_pc_sampler_totals gp_pc_sampler_counted(const gp_pc_sampler *s)
{
    return s->totals;
}

bool gp_pc_sampler_next(const gp_pc_sampler *s, size_t *cursor, gp_pc_sample *out)
{
    const void *key;
    size_t key_len;
    const uint64_t *counts = gp_hashmap_next(&s->pcs, cursor, &key, &key_len);
    if (!counts)
        return false;
    const pc_key *k = key;
    out->code = k->code;
    out->pc = k->pc;
    out->function = (const char *)key + sizeof *k;
    out->samples = counts;
    return true;
}

void gp_pc_sampler_free(gp_pc_sampler *s)
{
    if (!s)
        return;
    if (s->enabled) {
        (void)gp_pc_sampler_close(s);
        gp_clear_error(); /* freeing says nothing */
    }
    size_t cursor = 0;
    const void *key;
    size_t key_len;
    while (gp_hashmap_next(&s->names, &cursor, &key, &key_len))
        free(*(char *const *)key);
    gp_hashmap_free(&s->names);
    gp_hashmap_free(&s->pcs);
    free_data(&s->get);
    free_data(&s->end);
    for (size_t i = 0; s->reason_names && i < s->n_reasons; i++)
        free(s->reason_names[i]);
    free(s->reason_names);
    free(s->reason_index);
    free(s);
}
