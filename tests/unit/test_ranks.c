/* Distributed jobs: collective kernels told by name (src/base/collectives.c), the rank gpuprof
 * exec reads from --rank or the launcher's environment (src/exec/rank.c). */
#include "tap.h"

#include "exec/rank.h"
#include "gpuprof/collectives.h"
#include "gpuprof/status.h"

#include <string.h>

static void test_collectives(void)
{
    static const char *const yes[] = {
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "_Z29ncclDevKernel_AllGather_RING_LL24ncclDevKernelArgsStorageILm4096EE",
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
        "nvshmemi_transfer_rma_kernel", "nvshmem_barrier_all_kernel",
    };
    static const char *const no[] = {
        "void at::native::vectorized_elementwise_kernel<4>(int)", "my_nccl_helper",
        "void foo::nvshmem_like()", "", NULL,
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        tap_ok(gp_kernel_is_collective(yes[i]), "collective: %s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        tap_ok(!gp_kernel_is_collective(no[i]), "not collective: %s", no[i] ? no[i] : "NULL");
}

/* ---- the rank from the environment ------------------------------------------------------- */

/* The environment of a test: NAME=VALUE words, NULL-terminated. */
static const char *const *fake_env;

static char *fake_lookup(const char *name)
{
    const size_t n = strlen(name);
    for (const char *const *e = fake_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return (char *)*e + n + 1;
    return NULL;
}

/* The rank found with --rank=option (-1: none) in the environment given. */
static gp_report find(int option, const char *const *env)
{
    gp_report r;
    gp_report_init(&r);
    fake_env = env;
    tap_ok(gp_exec_find_rank(option, fake_lookup, &r) == GP_OK, "rank: found without error");
    return r;
}

static bool is_rank(const gp_report *r, int rank, int size, const char *from)
{
    const gp_exec_rank *k = &r->exec.rank;
    return k->known && k->rank == rank && k->size == size && strcmp(k->from, from) == 0;
}

static void check_rank(int option, const char *const *env, int rank, int size, const char *from,
                       size_t warnings, const char *what)
{
    gp_report r = find(option, env);
    tap_ok(is_rank(&r, rank, size, from) && r.n_warnings == warnings, "rank: %s", what);
    for (size_t i = 0; i < r.n_warnings; i++)
        tap_diag("warning: %s", r.warnings[i]);
    gp_report_free(&r);
}

static void test_rank_sources(void)
{
    check_rank(-1, (const char *const[]){"RANK=3", "WORLD_SIZE=8", NULL}, 3, 8, "RANK", 0,
               "torchrun's RANK and WORLD_SIZE");
    check_rank(-1, (const char *const[]){"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=4",
                                         NULL},
               1, 4, "OMPI_COMM_WORLD_RANK", 0, "Open MPI's variables");
    check_rank(-1, (const char *const[]){"PMI_RANK=0", "PMI_SIZE=2", NULL}, 0, 2, "PMI_RANK",
               0, "MPICH's PMI_RANK and PMI_SIZE");
    check_rank(-1, (const char *const[]){"SLURM_PROCID=5", "SLURM_NTASKS=6", NULL}, 5, 6,
               "SLURM_PROCID", 0, "srun's SLURM_PROCID and SLURM_NTASKS");
    check_rank(-1, (const char *const[]){"SLURM_PROCID=1", "SLURM_NTASKS=2", "RANK=7",
                                         "WORLD_SIZE=16", NULL},
               7, 16, "RANK", 0, "RANK first: torchrun under srun is torchrun's rank");
    check_rank(-1, (const char *const[]){"RANK=2", "SLURM_NTASKS=2", NULL}, 2, 0, "RANK", 0,
               "the size from the rank's own launcher only (SLURM_NTASKS is not torchrun's)");
    check_rank(4, (const char *const[]){"RANK=2", "WORLD_SIZE=8", NULL}, 4, 8, "--rank", 0,
               "--rank over the environment, the size from it");
    check_rank(0, (const char *const[]){NULL}, 0, 0, "--rank", 0, "--rank=0 alone: size unknown");
}

static void test_rank_malformed(void)
{
    check_rank(-1, (const char *const[]){"RANK=one", "SLURM_PROCID=3", "SLURM_NTASKS=4", NULL},
               3, 4, "SLURM_PROCID", 1, "a malformed RANK passed over with a warning");
    check_rank(-1, (const char *const[]){"RANK=2", "WORLD_SIZE=0", NULL}, 2, 0, "RANK", 1,
               "a world size of 0 passed over with a warning");
    check_rank(-1, (const char *const[]){"RANK=4", "WORLD_SIZE=4", NULL}, 4, 0, "RANK", 1,
               "a rank not below its world size: the size left out, with a warning");
    static const char *const bad[] = {"-1", "+1", " 1", "1 ", "", "0x10", "2147483648",
                                      "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char word[64];
        snprintf(word, sizeof word, "RANK=%s", bad[i]);
        gp_report r = find(-1, (const char *const[]){word, NULL});
        tap_ok(!r.exec.rank.known && r.n_warnings == 1 && strstr(r.warnings[0], "RANK="),
               "rank: RANK='%s' is no rank, and the warning names the variable", bad[i]);
        gp_report_free(&r);
    }
    gp_report r = find(-1, (const char *const[]){"RANK=2147483647", NULL});
    tap_ok(is_rank(&r, 2147483647, 0, "RANK"), "rank: the largest int is a rank");
    gp_report_free(&r);
    r = find(-1, (const char *const[]){"WORLD_SIZE=4", NULL});
    tap_ok(!r.exec.rank.known && r.n_warnings == 0, "rank: none without a rank variable");
    gp_report_free(&r);
}

void test_ranks(void)
{
    test_collectives();
    test_rank_sources();
    test_rank_malformed();
}
