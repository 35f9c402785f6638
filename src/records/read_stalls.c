/* The --stalls records of records/read_stalls.h. A record that is not as the library writes
 * it is ignored with a warning. */
#include "records/read_stalls.h"

#include "gpuprof/record_format.h"
#include "gpuprof/status.h"
#include "records/read_source.h"

#include <stdlib.h>
#include <string.h>

#define REASON_PREFIX "smsp__pcsamp_warps_issue_stalled_"
#define NOT_ISSUED "_not_issued"
#define COUNT_LIMIT 9007199254740992ull /* 2^53: exact in a JSON number below */
#define NOT_A_REASON (-1)

/* A context's reasons: each CUPTI reason's index in the report's table, and whether it is
 * the not-issued twin (whose samples are a part of its reason's). */
typedef struct {
    size_t n;
    int *to_report;
    bool *not_issued;
} stall_reasons;

/* The report's name of a CUPTI reason ("long_scoreboard" for both
 * smsp__pcsamp_warps_issue_stalled_long_scoreboard and its _not_issued twin). */
static void base_name(const char *cupti, char *out, size_t cap, bool *not_issued)
{
    const char *name = cupti + strlen(REASON_PREFIX);
    size_t len = strlen(name);
    const size_t suffix = strlen(NOT_ISSUED);
    *not_issued = len > suffix && strcmp(name + len - suffix, NOT_ISSUED) == 0;
    if (*not_issued)
        len -= suffix;
    if (len >= cap)
        len = cap - 1;
    memcpy(out, name, len);
    out[len] = '\0';
}

static int map_reasons(reader *rd, const cJSON *names, stall_reasons *m)
{
    gp_exec_stalls *s = &rd->report->exec.stalls;
    m->n = (size_t)cJSON_GetArraySize(names);
    m->to_report = calloc(m->n ? m->n : 1, sizeof *m->to_report);
    m->not_issued = calloc(m->n ? m->n : 1, sizeof *m->not_issued);
    if (!m->to_report || !m->not_issued)
        return gp_records_out_of_memory();
    size_t k = 0;
    for (const cJSON *n = names->child; n; n = n->next, k++) {
        if (!cJSON_IsString(n)) {
            gp_json_fail(&rd->json, "reasons: expected names");
            return gp_records_ignore(rd, "the context's stall samples are left out");
        }
        /* CUPTI lists two counters among the reasons (smsp__pcsamp_sample_count and
         * smsp__pcsamp_samples_data_dropped on the H200): not reasons, left out. */
        if (strncmp(n->valuestring, REASON_PREFIX, strlen(REASON_PREFIX)) != 0) {
            m->to_report[k] = NOT_A_REASON;
            continue;
        }
        char name[128];
        base_name(n->valuestring, name, sizeof name, &m->not_issued[k]);
        if ((m->to_report[k] = gp_exec_stall_reason(s, name)) < 0)
            return gp_records_out_of_memory();
    }
    return GP_OK;
}

static int add_totals(reader *rd, const cJSON *o)
{
    gp_json_reader *j = &rd->json;
    gp_exec_stalls *s = &rd->report->exec.stalls;
    uint64_t period, samples, dropped, non_user, full;
    GP_TRY(gp_json_get_integer(j, o, "period", 5, 31, &period));
    GP_TRY(gp_json_get_integer(j, o, "samples", 0, COUNT_LIMIT, &samples));
    GP_TRY(gp_json_get_integer(j, o, "dropped", 0, COUNT_LIMIT, &dropped));
    GP_TRY(gp_json_get_integer(j, o, "non_user", 0, COUNT_LIMIT, &non_user));
    GP_TRY(gp_json_get_integer(j, o, "buffer_full", 0, 1, &full));
    s->sampled = true;
    if (!s->period_log2)
        s->period_log2 = (unsigned)period;
    s->samples += samples;
    s->dropped += dropped;
    s->non_user += non_user;
    s->buffer_full |= full != 0;
    return GP_OK;
}

int gp_records_read_stalls(reader *rd, const cJSON *o)
{
    int pid;
    uint64_t context;
    const cJSON *names;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_integer(j, o, "context", 0, UINT32_MAX, &context) != GP_OK ||
        gp_json_get_array(j, o, "reasons", &names) != GP_OK || add_totals(rd, o) != GP_OK)
        return gp_records_ignore(rd, "the context's stall samples are left out");
    const uint64_t key[2] = {(uint64_t)pid, context};
    bool added = false;
    stall_reasons **kept = gp_hashmap_add(&rd->stall_contexts, key, sizeof key, &added);
    if (!kept)
        return gp_records_out_of_memory();
    if (!added)
        return GP_OK; /* the first record of a context holds */
    if (!(*kept = calloc(1, sizeof **kept)))
        return gp_records_out_of_memory();
    return map_reasons(rd, names, *kept);
}

/* The report's instruction for (pid, code, pc, kernel), added when new. */
static gp_exec_stall_pc *instruction(reader *rd, int pid, uint64_t code, uint32_t pc,
                                     const char *kernel)
{
    gp_exec_stalls *s = &rd->report->exec.stalls;
    const struct {
        uint64_t code;
        int32_t pid;
        uint32_t pc;
    } fixed = {code, pid, pc};
    bool added = false;
    size_t *index = gp_hashmap_add_named(&rd->stall_pcs, &fixed, sizeof fixed, kernel, &added);
    if (!index)
        return NULL;
    if (!added)
        return &s->pcs[*index];
    gp_exec_stall_pc *p;
    if (gp_exec_add_stall_pc(s, &p) != 0 || !(p->kernel = strdup(kernel)))
        return NULL;
    *index = s->n_pcs - 1;
    p->pid = pid;
    p->code = code;
    p->pc = pc;
    return p;
}

/* The [[reason, count]...] of a `stall` record added to its instruction. */
static int add_samples(reader *rd, const cJSON *a, const stall_reasons *m, gp_exec_stall_pc *p)
{
    for (const cJSON *pair = a->child; pair; pair = pair->next) {
        uint64_t v[2];
        if (!cJSON_IsArray(pair) ||
            gp_json_get_wholes(&rd->json, pair, "samples", 2, 0, COUNT_LIMIT,
                               "[reason, count] pairs", v) != GP_OK)
            return GP_ERR_USAGE;
        if (v[0] >= m->n) {
            gp_json_fail(&rd->json, "samples: reason %llu of %zu", (unsigned long long)v[0],
                         m->n);
            return GP_ERR_USAGE;
        }
        /* X counts every sample of reason X, X_not_issued those of them in which the warp
         * was not issued: a part of X's, kept apart. */
        if (m->to_report[v[0]] == NOT_A_REASON)
            continue;
        if (m->not_issued[v[0]])
            p->not_issued += v[1];
        else
            p->samples[m->to_report[v[0]]] += v[1];
    }
    return GP_OK;
}

static int read_file_line(reader *rd, const cJSON *o, gp_exec_stall_pc *p)
{
    const char *file;
    uint32_t line;
    GP_TRY(gp_json_get_file_line(&rd->json, o, &file, &line));
    if (!file || p->file)
        return GP_OK;
    p->line = line;
    return (p->file = strdup(file)) ? GP_OK : gp_records_out_of_memory();
}

int gp_records_read_stall(reader *rd, const cJSON *o)
{
    int pid;
    uint64_t context, pc, code = 0;
    const char *kernel;
    const cJSON *samples;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_integer(j, o, "context", 0, UINT32_MAX, &context) != GP_OK ||
        gp_json_get_text(j, o, "kernel", &kernel) != GP_OK ||
        gp_json_get_code(j, o, "code", true, &code) != GP_OK ||
        gp_json_get_integer(j, o, "pc", 0, UINT32_MAX, &pc) != GP_OK ||
        gp_json_get_array(j, o, "samples", &samples) != GP_OK)
        return gp_records_ignore(rd, "the instruction's stall samples are left out");
    const uint64_t key[2] = {(uint64_t)pid, context};
    stall_reasons *const *m = gp_hashmap_find(&rd->stall_contexts, key, sizeof key);
    if (!m || !*m) {
        gp_json_fail(j, "a stall record before its context's stalls record");
        return gp_records_ignore(rd, "the instruction's stall samples are left out");
    }
    gp_exec_stall_pc *p = instruction(rd, pid, code, (uint32_t)pc, kernel);
    if (!p)
        return gp_records_out_of_memory();
    if (add_samples(rd, samples, *m, p) != GP_OK || read_file_line(rd, o, p) != GP_OK)
        return gp_records_ignore(rd, "the instruction's stall samples are partly left out");
    return GP_OK;
}

void gp_records_free_stalls(reader *rd)
{
    size_t cursor = 0;
    for (stall_reasons **m; (m = gp_hashmap_next(&rd->stall_contexts, &cursor, NULL, NULL));)
        if (*m) {
            free((*m)->to_report);
            free((*m)->not_issued);
            free(*m);
        }
    gp_hashmap_free(&rd->stall_contexts);
    gp_hashmap_free(&rd->stall_pcs);
}
