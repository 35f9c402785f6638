/* gpuprof exec in a distributed job: which rank the profiled process is (rank.c). */
#ifndef GPUPROF_EXEC_RANK_H
#define GPUPROF_EXEC_RANK_H

#include "gpuprof/report.h"

/* How a variable of the environment is looked up: getenv, or a test's table. */
typedef char *gp_env_lookup(const char *name);

/* The report's rank (report->exec.rank): `option`, --rank's value, when it is not negative;
 * else the first of the launchers' variables set, in the order RANK (torchrun),
 * OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH, Intel MPI), SLURM_PROCID (srun). The
 * world size comes from the same launcher's variable (WORLD_SIZE, OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE, SLURM_NTASKS), with --rank from the first of them set. A value that is no whole
 * number, or a rank not below its size, is passed over with a warning in the report that
 * names the variable. GP_OK, or out of host memory. */
int gp_exec_find_rank(int option, gp_env_lookup *lookup, gp_report *report);

#endif
