/* The rank of a process of a distributed job (exec/rank.h). gpuprof reads it in its own
 * process, before the program starts: the launcher set the same environment for both, and
 * the report is gpuprof's to write. The library is never told: a rank changes nothing of
 * what it records. */
#include "exec/rank.h"

#include "gpuprof/status.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A launcher's two variables: the process's rank and the job's size. */
typedef struct {
    const char *rank, *size;
} launcher_variables;

static const launcher_variables launchers[] = {
    {"RANK", "WORLD_SIZE"},                          /* torchrun, torch.distributed.run */
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, /* Open MPI's mpirun */
    {"PMI_RANK", "PMI_SIZE"},                        /* MPICH's and Intel MPI's Hydra */
    {"SLURM_PROCID", "SLURM_NTASKS"},                /* srun */
};
#define N_LAUNCHERS (sizeof launchers / sizeof launchers[0])

/* A whole number from `least` to INT_MAX, written in decimal digits alone. */
static bool whole_number(const char *text, int least, int *out)
{
    if (!text[0] || strspn(text, "0123456789") != strlen(text) || strlen(text) > 10)
        return false;
    const unsigned long long v = strtoull(text, NULL, 10);
    if (v > INT_MAX || v < (unsigned long long)least)
        return false;
    *out = (int)v;
    return true;
}

/* The variable's value as a number of at least `least`: false when it is not set, or (with
 * a warning) not such a number. */
static bool read_variable(gp_env_lookup *lookup, const char *name, int least, const char *what,
                          gp_report *report, int *rc, int *out)
{
    const char *text = lookup(name);
    if (!text)
        return false;
    if (whole_number(text, least, out))
        return true;
    char warning[256];
    snprintf(warning, sizeof warning, "%s='%.64s' is not %s (a whole number from %d): passed "
             "over", name, text, what, least);
    *rc = gp_report_add_warning(report, warning);
    return false;
}

/* The job's size from the launcher's variable (or with --rank, NULL, the first set). */
static int find_size(const launcher_variables *from, gp_env_lookup *lookup, gp_report *report)
{
    int rc = GP_OK, size = 0;
    for (size_t i = 0; i < N_LAUNCHERS && rc == GP_OK; i++)
        if ((!from || from == &launchers[i]) &&
            read_variable(lookup, launchers[i].size, 1, "a world size", report, &rc, &size))
            break;
    gp_exec_rank *r = &report->exec.rank;
    if (rc != GP_OK || size == 0)
        return rc;
    if (r->rank < size) {
        r->size = size;
        return GP_OK;
    }
    char warning[256];
    snprintf(warning, sizeof warning, "rank %d (%s) is not below the world size %d: the size "
             "is left out", r->rank, r->from, size);
    return gp_report_add_warning(report, warning);
}

int gp_exec_find_rank(int option, gp_env_lookup *lookup, gp_report *report)
{
    gp_exec_rank *r = &report->exec.rank;
    *r = (gp_exec_rank){.known = option >= 0, .rank = option};
    const launcher_variables *from = NULL;
    int rc = GP_OK;
    if (r->known)
        snprintf(r->from, sizeof r->from, "--rank");
    for (size_t i = 0; !r->known && i < N_LAUNCHERS && rc == GP_OK; i++)
        if (read_variable(lookup, launchers[i].rank, 0, "a rank", report, &rc, &r->rank)) {
            r->known = true;
            from = &launchers[i];
            snprintf(r->from, sizeof r->from, "%s", from->rank);
        }
    if (rc != GP_OK || !r->known) {
        r->rank = 0;
        return rc;
    }
    return find_size(from, lookup, report);
}
