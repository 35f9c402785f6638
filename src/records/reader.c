/* The reader's services of records/reader.h: where the line being read is, the warnings
 * about records that are not as the library writes them (the first MAX_SAID said, the others
 * counted), each context's counters. */
#include "records/reader.h"

#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_SAID 8                    /* records ignored with a warning of their own */

/* The line being read, as messages name it. */
void gp_records_locate(reader *rd, const char *file, size_t line)
{
    snprintf(rd->where, sizeof rd->where, "%s line %zu", file, line);
    rd->json.file = rd->where;
    rd->json.path[0] = '\0';
}

/* The problem the layer just recorded, said as a warning with its consequence (the first
 * MAX_SAID of them; the others are counted). */
int gp_records_ignore(reader *rd, const char *consequence)
{
    char warning[GP_MESSAGE_LEN + 96];
    snprintf(warning, sizeof warning, "%s: %s", gp_error(), consequence);
    gp_clear_error();
    return rd->n_ignored++ < MAX_SAID ? gp_report_add_warning(rd->report, warning) : GP_OK;
}

int gp_records_note_more_ignored(const reader *rd)
{
    if (rd->n_ignored <= MAX_SAID)
        return GP_OK;
    char warning[160];
    snprintf(warning, sizeof warning, "%zu more records were not as gpuprof's library writes "
             "them (the first %d are said above)", rd->n_ignored - MAX_SAID, MAX_SAID);
    return gp_report_add_warning(rd->report, warning);
}

int gp_records_out_of_memory(void)
{
    return gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

/* ---- contexts ------------------------------------------------------------------------------ */

int gp_records_add_context(reader *rd, context_counters **out)
{
    context_counters **grown = realloc(rd->contexts, (rd->n_contexts + 1) * sizeof *grown);
    if (grown)
        rd->contexts = grown;
    context_counters *cc = grown ? calloc(1, sizeof *cc) : NULL;
    if (!cc)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    rd->contexts[rd->n_contexts++] = cc;
    *out = cc;
    return GP_OK;
}

const context_counters *gp_records_counters_of(const reader *rd, int pid, unsigned context)
{
    for (size_t i = 0; i < rd->n_contexts; i++)
        if (rd->contexts[i]->pid == pid && rd->contexts[i]->context == context)
            return rd->contexts[i];
    return NULL;
}

void gp_records_free_contexts(reader *rd)
{
    for (size_t i = 0; i < rd->n_contexts; i++) {
        for (size_t k = 0; k < rd->contexts[i]->collector.n_counters; k++)
            free(rd->contexts[i]->names[k]);
        free(rd->contexts[i]);
    }
    free(rd->contexts);
    rd->contexts = NULL;
    rd->n_contexts = 0;
}
