/* Collection of gpuprof/sass_source.h: CUPTI's SASS Metrics API configured with the counters
 * of gp_source_counter on a device, enabled with lazy patching on a context, and flushed into
 * one gp_source_instruction per patched instruction, each with its file and line.
 * Once it is set up on a context, PC sampling there sees only non-user samples, patched launch
 * or not (H200; bench/README.md, "PC sampling beside the other collectors").
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/sass_source.h"

#include "counters/cupti_call.h"
#include "gpuprof/checked_calls.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <cupti.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <stdlib.h>
#include <string.h>

const char *const gp_source_cupti_names[GP_SRC_COUNTERS] = {
    [GP_SRC_INST] = "smsp__sass_inst_executed",
    [GP_SRC_GLOBAL_LD] = "smsp__sass_inst_executed_op_global_ld",
    [GP_SRC_GLOBAL_ST] = "smsp__sass_inst_executed_op_global_st",
    [GP_SRC_SECTORS] = "smsp__sass_sectors_mem_global",
    [GP_SRC_SECTORS_IDEAL] = "smsp__sass_sectors_mem_global_ideal",
    [GP_SRC_SHARED_LD] = "smsp__sass_inst_executed_op_shared_ld",
    [GP_SRC_SHARED_ST] = "smsp__sass_inst_executed_op_shared_st",
    [GP_SRC_WAVEFRONTS] = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
    [GP_SRC_WAVEFRONTS_IDEAL] = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
    [GP_SRC_LOCAL_LD] = "smsp__sass_inst_executed_op_local_ld",
    [GP_SRC_LOCAL_ST] = "smsp__sass_inst_executed_op_local_st",
    [GP_SRC_LOCAL_SECTORS] = "smsp__sass_sectors_mem_local",
};

struct gp_sass_source {
    int device;
    bool acquired;                     /* holds CUPTI's profiler initialisation */
    bool configured;
    uint64_t ids[GP_SRC_COUNTERS];     /* CUPTI's metric id of each counter */
};

void gp_source_instructions_free(gp_source_instruction *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        free(v[i].function);
        free(v[i].file);
    }
    free(v);
}

static int chip_of(int device, const char **chip)
{
    CUpti_Device_GetChipName_Params p = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = (size_t)device;
    CUPTI(cuptiDeviceGetChipName(&p));
    *chip = p.pChipName;
    return GP_OK;
}

static int configure(gp_sass_source *s)
{
    const char *chip = NULL;
    GP_TRY(chip_of(s->device, &chip));
    for (int c = 0; c < GP_SRC_COUNTERS; c++) {
        CUpti_SassMetrics_GetProperties_Params p = {
            .structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        p.pChipName = chip;
        p.pMetricName = gp_source_cupti_names[c];
        if (cuptiSassMetricsGetProperties(&p) != CUPTI_SUCCESS)
            return gp_fail(GP_ERR_RUNTIME, "CUPTI has no SASS metric %s on %s",
                           gp_source_cupti_names[c], chip);
        s->ids[c] = p.metric.metricId;
    }
    return GP_OK;
}

/* Set once for the process's ranges: unset and set again between two ranges, the second
 * counted nothing (H100, CUDA 13.0; bench/README.md, Per-line view). */
static int set_config(gp_sass_source *s)
{
    CUpti_SassMetrics_Config config[GP_SRC_COUNTERS];
    for (int c = 0; c < GP_SRC_COUNTERS; c++)
        config[c] = (CUpti_SassMetrics_Config){
            .metricId = s->ids[c], .outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
    CUpti_SassMetricsSetConfig_Params set = {
        .structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    set.deviceIndex = (uint32_t)s->device;
    set.numOfMetricConfig = GP_SRC_COUNTERS;
    set.pConfigs = config;
    CUPTI(cuptiSassMetricsSetConfig(&set));
    s->configured = true;
    return GP_OK;
}

static void unset_config(gp_sass_source *s)
{
    if (!s->configured)
        return;
    CUpti_SassMetricsUnsetConfig_Params p = {
        .structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    p.deviceIndex = (uint32_t)s->device;
    GP_CHECKED(cuptiSassMetricsUnsetConfig(&p),
               "the SASS metrics' configuration was left set on a device");
    s->configured = false;
}

int gp_sass_source_open(int device, gp_sass_source **out)
{
    *out = NULL;
    gp_sass_source *s = calloc(1, sizeof *s);
    if (!s)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    s->device = device;
    int rc = gp_cupti_profiler_acquire();
    s->acquired = rc == GP_OK;
    if (rc == GP_OK)
        rc = configure(s);
    if (rc == GP_OK)
        rc = set_config(s);
    if (rc != GP_OK) {
        gp_sass_source_close(s);
        return rc;
    }
    *out = s;
    return GP_OK;
}

int gp_sass_source_start(gp_sass_source *s, CUcontext ctx)
{
    (void)s;
    CUpti_SassMetricsEnable_Params p = {.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    p.enableLazyPatching = 1; /* kernels loaded after the enable are counted too */
    CUPTI(cuptiSassMetricsEnable(&p));
    return GP_OK;
}

/* ---- the flushed records, one instruction each ----------------------------------------- */

typedef struct {
    uint32_t crc, pc;
} instruction_key;

/* The counter of a CUPTI metric id, or -1. */
static int counter_of(const gp_sass_source *s, uint64_t id)
{
    for (int c = 0; c < GP_SRC_COUNTERS; c++)
        if (s->ids[c] == id)
            return c;
    return -1;
}

/* The instruction's entry among those gathered (function and pc), added when new; its index
 * is kept in `index` by (crc, function, pc). */
static gp_source_instruction *entry_of(gp_hashmap *index, gp_source_instruction **v, size_t *n,
                                       size_t *cap, const CUpti_SassMetrics_Data *d)
{
    const size_t name_len = strlen(d->functionName);
    const size_t key_len = sizeof(instruction_key) + name_len;
    unsigned char *key = malloc(key_len);
    if (!key)
        return NULL;
    const instruction_key k = {d->cubinCrc, d->pcOffset};
    memcpy(key, &k, sizeof k);
    memcpy(key + sizeof k, d->functionName, name_len);
    bool added = false;
    size_t *at = gp_hashmap_add(index, key, key_len, &added);
    free(key);
    if (!at)
        return NULL;
    if (!added)
        return &(*v)[*at];
    if (*n == *cap) {
        const size_t more = *cap ? 2 * *cap : 64;
        gp_source_instruction *grown = realloc(*v, more * sizeof *grown);
        if (!grown)
            return NULL;
        *v = grown;
        *cap = more;
    }
    gp_source_instruction *e = &(*v)[*n];
    *at = (*n)++;
    *e = (gp_source_instruction){.function = strdup(d->functionName), .pc = d->pcOffset,
                                 .crc = d->cubinCrc};
    return e->function ? e : NULL;
}

static int gather(const gp_sass_source *s, const CUpti_SassMetrics_Data *d, size_t records,
                  size_t values_per_record, gp_source_instruction **out, size_t *n)
{
    gp_hashmap index;
    gp_hashmap_init(&index, sizeof(size_t));
    size_t cap = 0;
    int rc = GP_OK;
    for (size_t r = 0; r < records && rc == GP_OK; r++) {
        if (!d[r].functionName)
            continue;
        gp_source_instruction *e = entry_of(&index, out, n, &cap, &d[r]);
        if (!e) {
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
            break;
        }
        for (size_t i = 0; i < values_per_record; i++) {
            const int c = counter_of(s, d[r].pInstanceValues[i].metricId);
            if (c >= 0)
                e->counts[c] += d[r].pInstanceValues[i].value;
        }
    }
    gp_hashmap_free(&index);
    return rc;
}

static void add_lines(gp_source_instruction *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gp_cubins_line(v[i].crc, v[i].function, v[i].pc, &v[i].file, &v[i].line);
}

static int flush(const gp_sass_source *s, CUcontext ctx, gp_source_instruction **out,
                 size_t *n)
{
    CUpti_SassMetricsGetDataProperties_Params p = {
        .structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    p.ctx = ctx;
    CUPTI(cuptiSassMetricsGetDataProperties(&p));
    const size_t records = p.numOfPatchedInstructionRecords;
    const size_t per = p.numOfInstances * GP_SRC_COUNTERS;
    if (records == 0)
        return GP_OK;
    CUpti_SassMetrics_Data *d = calloc(records, sizeof *d);
    CUpti_SassMetrics_InstanceValue *values = calloc(records * per, sizeof *values);
    int rc = d && values ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t r = 0; rc == GP_OK && r < records; r++)
        d[r] = (CUpti_SassMetrics_Data){.structSize = sizeof *d, .pInstanceValues = &values[r * per]};
    if (rc == GP_OK) {
        CUpti_SassMetricsFlushData_Params f = {
            .structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        f.ctx = ctx;
        f.numOfPatchedInstructionRecords = records;
        f.numOfInstances = p.numOfInstances;
        f.pMetricsData = d;
        const CUptiResult r = cuptiSassMetricsFlushData(&f);
        rc = r == CUPTI_SUCCESS ? gather(s, d, records, per, out, n)
                                : gp_cupti_fail(r, "cuptiSassMetricsFlushData(&f)", __FILE__,
                                                __LINE__);
    }
    free(values);
    free(d);
    return rc;
}

int gp_sass_source_stop(gp_sass_source *s, CUcontext ctx, gp_source_instruction **out,
                        size_t *n)
{
    *out = NULL;
    *n = 0;
    int rc = flush(s, ctx, out, n);
    CUpti_SassMetricsDisable_Params p = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    const CUptiResult disabled = cuptiSassMetricsDisable(&p);
    if (rc == GP_OK && disabled != CUPTI_SUCCESS)
        rc = gp_cupti_fail(disabled, "cuptiSassMetricsDisable(&p)", __FILE__, __LINE__);
    if (rc != GP_OK) {
        gp_source_instructions_free(*out, *n);
        *out = NULL;
        *n = 0;
        return rc;
    }
    add_lines(*out, *n);
    return GP_OK;
}

void gp_sass_source_close(gp_sass_source *s)
{
    if (!s)
        return;
    unset_config(s);
    if (s->acquired)
        gp_cupti_profiler_release();
    free(s);
}
