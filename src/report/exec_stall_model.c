/* exec --stalls' part of the report model (gpuprof/report.h): the reasons' table, which only
 * grows, and the sampled instructions, each with a count per reason. Report layer: never
 * prints, never exits. */
#include "gpuprof/report.h"

#include <stdlib.h>
#include <string.h>

int gp_exec_stall_reason(gp_exec_stalls *s, const char *name)
{
    for (size_t i = 0; i < s->n_reasons; i++)
        if (strcmp(s->reasons[i], name) == 0)
            return (int)i;
    char **reasons = realloc(s->reasons, (s->n_reasons + 1) * sizeof *reasons);
    if (!reasons)
        return -1;
    s->reasons = reasons;
    /* Every instruction's array gets the new reason's zero first, so that a failure leaves
     * the arrays as long as the table. */
    for (size_t i = 0; i < s->n_pcs; i++) {
        uint64_t *more = realloc(s->pcs[i].samples, (s->n_reasons + 1) * sizeof *more);
        if (!more)
            return -1;
        more[s->n_reasons] = 0;
        s->pcs[i].samples = more;
    }
    if (!(s->reasons[s->n_reasons] = strdup(name)))
        return -1;
    return (int)s->n_reasons++;
}

int gp_exec_add_stall_pc(gp_exec_stalls *s, gp_exec_stall_pc **out)
{
    uint64_t *samples = calloc(s->n_reasons ? s->n_reasons : 1, sizeof *samples);
    if (!samples)
        return -1;
    gp_exec_stall_pc *pc = gp_append_zeroed(&s->pcs, &s->n_pcs, &s->pc_capacity, sizeof *pc);
    if (!pc) {
        free(samples);
        return -1;
    }
    pc->samples = samples;
    *out = pc;
    return 0;
}

void gp_exec_stalls_free(gp_exec_stalls *s)
{
    for (size_t i = 0; i < s->n_pcs; i++) {
        free(s->pcs[i].kernel);
        free(s->pcs[i].file);
        free(s->pcs[i].samples);
    }
    free(s->pcs);
    for (size_t i = 0; i < s->n_reasons; i++)
        free(s->reasons[i]);
    free(s->reasons);
    memset(s, 0, sizeof *s);
}
