/* The metric catalogue (nvprof's metrics on PerfWorks counters; see docs/cupti.md in the
 * design notes for the mapping). Inputs are raw .sum/.avg counters, so a metric of several
 * launches is the same derivation over the summed counters. */
#include "gpuprof/metrics.h"

#include <math.h>
#include <string.h>

/* Which counters: on an H100 the default set takes 2 replay passes, one of SASS counters
 * and one of the rest. Each kernel of a pass took about 1 ms to profile when the pass held
 * sm__warps_active, sm__cycles_active, a bank-conflict or an smsp__inst_executed_* counter,
 * a tenth of that with only SASS or memory-system counters; so the default set has one such
 * pass (occupancy and bank conflicts), and everything else is a SASS counter or shares it.
 *
 * Sectors: the SASS count equals l1tex__t_sectors_pipe_lsu_mem_global_op_* on every kernel
 * of every family on an H100, and does not force a third pass with the bank conflicts.
 * Requests: nvprof counted one per warp-level load or store instruction, as
 * l1tex__t_requests_pipe_lsu_mem_global_op_* does; the SASS instruction count gives the same
 * numbers (partial warps and predicated-off tails included) in the SASS pass.
 * (smsp__inst_executed_op_global_* and _shared_* do not: they also count instructions all of
 * whose threads are predicated off, twice as many shared loads as executed in shfl.)
 * Shared wavefronts: the SASS count is the wavefronts of the executed LDS/STS, conflicts
 * included; l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* came out up to 5 % higher
 * (transpose tiles, cub) and would take a third pass, an expensive one. */
#define LD_SECTORS "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define ST_SECTORS "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum"
#define LD_REQUESTS "smsp__sass_inst_executed_op_global_ld.sum"
#define ST_REQUESTS "smsp__sass_inst_executed_op_global_st.sum"
#define LD_DATA_BYTES "smsp__sass_data_bytes_mem_global_op_ld.sum"
#define ST_DATA_BYTES "smsp__sass_data_bytes_mem_global_op_st.sum"
#define DURATION "gpu__time_duration.sum"
#define DRAM_READ "dram__bytes_read.sum"
#define DRAM_WRITE "dram__bytes_write.sum"
#define DRAM_PEAK "dram__bytes.sum.peak_sustained"
#define DRAM_CYCLES "dram__cycles_elapsed.avg"
#define SM_CYCLES "sm__cycles_elapsed.avg"
#define SH_LD_WAVES "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define SH_ST_WAVES "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define SH_LD_INST "smsp__sass_inst_executed_op_shared_ld.sum"
#define SH_ST_INST "smsp__sass_inst_executed_op_shared_st.sum"
#define SH_DATA_BYTES "smsp__sass_data_bytes_mem_shared.sum"
#define SH_WAVES_SASS "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"
#define SH_LD_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define SH_ST_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define WARPS_ACTIVE "sm__warps_active.sum"
#define CYCLES_ACTIVE "sm__cycles_active.sum"
#define WARPS_PEAK "sm__warps_active.avg.peak_sustained"
#define BRANCH_UNIFORM "smsp__sass_branch_targets_threads_uniform.sum"
#define BRANCH_TARGETS "smsp__sass_branch_targets.sum"
#define THREAD_INST "smsp__thread_inst_executed.sum"
#define WARP_INST "smsp__inst_executed.sum"
#define L2_HIT "lts__t_sectors_lookup_hit.sum"
#define L2_MISS "lts__t_sectors_lookup_miss.sum"
#define L2_TEX_HIT "lts__t_sectors_srcunit_tex_lookup_hit.sum"
#define L2_TEX_MISS "lts__t_sectors_srcunit_tex_lookup_miss.sum"

/* Bytes in a global-memory sector and in a full shared-memory wavefront. */
#define SECTOR_BYTES 32.0
#define WAVEFRONT_BYTES 128.0
#define WARP_SIZE 32.0

static double ratio(double num, double den, const char *why_zero, const char **why)
{
    if (den == 0.0) {
        *why = why_zero;
        return NAN;
    }
    return num / den;
}

static double per_request(const double *in, const char **why)
{
    return ratio(in[0], in[1], "no requests", why);
}
static double per_instruction(const double *in, const char **why)
{
    return ratio(in[0], in[1], "no such instructions", why);
}
static double sector_efficiency(const double *in, const char **why)
{
    return 100.0 * ratio(in[0], SECTOR_BYTES * in[1], "no sectors accessed", why);
}
static double wavefront_efficiency(const double *in, const char **why)
{
    return 100.0 * ratio(in[0], WAVEFRONT_BYTES * in[1], "no shared-memory accesses", why);
}
static double bytes_per_ns(const double *in, const char **why)
{
    return ratio(in[0], in[1], "no kernel duration", why); /* bytes/ns = GB/s */
}
static double sector_bytes_per_ns(const double *in, const char **why)
{
    return ratio(SECTOR_BYTES * in[0], in[1], "no kernel duration", why);
}
static double both_bytes_per_ns(const double *in, const char **why)
{
    return ratio(in[0] + in[1], in[2], "no kernel duration", why);
}
static double as_is(const double *in, const char **why)
{
    (void)why;
    return in[0];
}
static double dram_utilization(const double *in, const char **why)
{
    return 100.0 * ratio(in[0] + in[1], in[2] * in[3], "no DRAM cycles", why);
}
static double occupancy(const double *in, const char **why)
{
    return ratio(in[0], in[1] * in[2], "no active cycles", why);
}
static double percent(const double *in, const char **why)
{
    return 100.0 * ratio(in[0], in[1], "no branches", why);
}
static double thread_efficiency(const double *in, const char **why)
{
    return 100.0 * ratio(in[0], WARP_SIZE * in[1], "no instructions", why);
}
static double hit_rate(const double *in, const char **why)
{
    return 100.0 * ratio(in[0], in[0] + in[1], "no L2 lookups", why);
}

/* The default set is the memory metrics, from SASS counters and memory-system counters: two
 * passes of about 0.1 ms a kernel each on an H100. A counter of the SMs' own activity (warps
 * active, active cycles, bank conflicts) makes every range of its pass cost about 1 ms, the
 * flushes' included, so occupancy and the bank-conflict counts are in `all` only (the shared
 * transactions per request and shared efficiency of the default set show the conflicts).
 * `all` also adds branch and warp efficiency and the L2 hit rates, which take a third pass. */
#define D GP_SET_DEFAULT | GP_SET_ALL
#define A GP_SET_ALL

static const gp_metric_def catalogue[] = {
    {"gld_transactions_per_request", "gld/req", "sectors/request",
     "global load sectors per load request (4 = coalesced 4-byte loads)",
     {LD_SECTORS, LD_REQUESTS}, 2, per_request, "sectors / requests",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 1.0, D, true},
    {"gst_transactions_per_request", "gst/req", "sectors/request",
     "global store sectors per store request (32 = fully strided 4-byte stores)",
     {ST_SECTORS, ST_REQUESTS}, 2, per_request, "sectors / requests",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", 1.0, D, true},
    {"gld_efficiency", "ld_eff%", "%", "bytes the loads asked for / bytes of the sectors moved",
     {LD_DATA_BYTES, LD_SECTORS}, 2, sector_efficiency, "100 * data bytes / (32 * sectors)",
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 1.0, D, true},
    {"gst_efficiency", "st_eff%", "%", "bytes the stores wrote / bytes of the sectors moved",
     {ST_DATA_BYTES, ST_SECTORS}, 2, sector_efficiency, "100 * data bytes / (32 * sectors)",
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", 1.0, D, true},
    {"gld_throughput", "gld_GB/s", "GB/s",
     "bytes of the global load sectors requested from L1 per second",
     {LD_SECTORS, DURATION}, 2, sector_bytes_per_ns, "32 * sectors / duration",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second", 32e-9, D, false},
    {"gst_throughput", "gst_GB/s", "GB/s",
     "bytes of the global store sectors requested from L1 per second",
     {ST_SECTORS, DURATION}, 2, sector_bytes_per_ns, "32 * sectors / duration",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum.per_second", 32e-9, D, false},
    {"dram_read_throughput", "dram_rd_GB/s", "GB/s", "bytes read from DRAM per second",
     {DRAM_READ, DURATION}, 2, bytes_per_ns, "bytes / duration", "dram__bytes_read.sum.per_second",
     1e-9, D, false},
    {"dram_write_throughput", "dram_wr_GB/s", "GB/s", "bytes written to DRAM per second",
     {DRAM_WRITE, DURATION}, 2, bytes_per_ns, "bytes / duration",
     "dram__bytes_write.sum.per_second", 1e-9, D, false},
    {"dram_throughput", "dram_GB/s", "GB/s", "bytes read from and written to DRAM per second",
     {DRAM_READ, DRAM_WRITE, DURATION}, 3, both_bytes_per_ns, "(read + written bytes) / duration",
     "dram__bytes.sum.per_second", 1e-9, D, true},
    {"dram_read_bytes", "dram_rd_B", "bytes", "bytes read from DRAM", {DRAM_READ}, 1, as_is,
     "counter", "dram__bytes_read.sum", 1.0, D, false},
    {"dram_write_bytes", "dram_wr_B", "bytes", "bytes written to DRAM", {DRAM_WRITE}, 1, as_is,
     "counter", "dram__bytes_write.sum", 1.0, D, false},
    {"dram_utilization", "dram%", "%", "DRAM bandwidth used, % of peak while the kernel ran",
     {DRAM_READ, DRAM_WRITE, DRAM_PEAK, DRAM_CYCLES}, 4, dram_utilization,
     "100 * bytes / (peak bytes per cycle * elapsed DRAM cycles)",
     "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1.0, D, false},
    {"shared_load_transactions_per_request", "shld/req", "wavefronts/instruction",
     "shared-memory load wavefronts per executed load instruction (1 = no bank conflicts)",
     {SH_LD_WAVES, SH_LD_INST}, 2, per_instruction, "wavefronts / instructions", NULL, 1.0, D,
     true},
    {"shared_store_transactions_per_request", "shst/req", "wavefronts/instruction",
     "shared-memory store wavefronts per executed store instruction",
     {SH_ST_WAVES, SH_ST_INST}, 2, per_instruction, "wavefronts / instructions", NULL, 1.0, D,
     false},
    {"shared_efficiency", "sh_eff%", "%", "shared-memory bytes used / bytes of the wavefronts",
     {SH_DATA_BYTES, SH_WAVES_SASS}, 2, wavefront_efficiency,
     "100 * data bytes / (128 * wavefronts)",
     "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", 1.0, D, false},
    {"shared_load_bank_conflicts", "ld_conflicts", "conflicts",
     "extra shared-memory load wavefronts caused by bank conflicts", {SH_LD_CONFLICTS}, 1, as_is,
     "counter", SH_LD_CONFLICTS, 1.0, A, false},
    {"shared_store_bank_conflicts", "st_conflicts", "conflicts",
     "extra shared-memory store wavefronts caused by bank conflicts", {SH_ST_CONFLICTS}, 1,
     as_is, "counter", SH_ST_CONFLICTS, 1.0, A, false},
    {"achieved_occupancy", "occupancy", "fraction",
     "average active warps / maximum warps per SM, over active cycles (0..1, as nvprof)",
     {WARPS_ACTIVE, CYCLES_ACTIVE, WARPS_PEAK}, 3, occupancy,
     "warps active / (active cycles * max warps per SM)",
     "sm__warps_active.avg.pct_of_peak_sustained_active", 0.01, A, false},
    {"branch_efficiency", "branch%", "%", "branches whose active threads all went one way",
     {BRANCH_UNIFORM, BRANCH_TARGETS}, 2, percent, "100 * uniform / all branch targets",
     "smsp__sass_average_branch_targets_threads_uniform.pct", 1.0, A, false},
    {"warp_execution_efficiency", "warp_eff%", "%",
     "active threads per executed warp instruction, % of 32",
     {THREAD_INST, WARP_INST}, 2, thread_efficiency,
     "100 * thread instructions / (32 * warp instructions)",
     "smsp__thread_inst_executed_per_inst_executed.ratio", 100.0 / 32.0, A, false},
    /* Every L2 lookup, as ncu's "L2 Hit Rate": besides the SMs' requests it counts lookups
     * from the other L2 partition (on an H100 half of the SMs' sectors are looked up twice)
     * and some that come from neither, whose number moves with what the profiler collects. */
    {"l2_hit_rate", "l2_hit%", "%", "L2 sector lookups that hit", {L2_HIT, L2_MISS}, 2, hit_rate,
     "100 * hits / (hits + misses)", "lts__t_sector_hit_rate.pct", 1.0, A, false},
    /* nvprof's definition: only the sectors the SMs' loads, stores and atomics look up (from
     * L1TEX), each once. On an H100 ncu and gpuprof counted the same sectors on every
     * transpose, while ncu's all-lookup hits rose by 1.5-4 % once it had profiled other
     * kernels in the process, in lookups that are not the SMs'. */
    {"l2_tex_hit_rate", "l2_tex_hit%", "%",
     "L2 sector lookups of the SMs' own requests (from L1TEX) that hit",
     {L2_TEX_HIT, L2_TEX_MISS}, 2, hit_rate, "100 * hits / (hits + misses)", NULL, 1.0, A,
     false},
};

#undef D
#undef A

const char *const gp_clock_counters[] = {DURATION, SM_CYCLES, DRAM_CYCLES};
const size_t gp_n_clock_counters = sizeof gp_clock_counters / sizeof gp_clock_counters[0];

const gp_metric_def *gp_metric_catalogue(size_t *count)
{
    *count = sizeof catalogue / sizeof catalogue[0];
    return catalogue;
}

const gp_metric_def *gp_find_metric(const char *key)
{
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
        if (strcmp(catalogue[i].key, key) == 0)
            return &catalogue[i];
    return NULL;
}

bool gp_counter_is_constant(const char *counter)
{
    const char *suffix = ".peak_sustained";
    size_t n = strlen(counter), s = strlen(suffix);
    return n >= s && strcmp(counter + n - s, suffix) == 0;
}

bool gp_metric_derive(const gp_metric_def *m, const char *const *names, const double *values,
                      size_t n, double *out, const char **why)
{
    double in[GP_METRIC_MAX_INPUTS];
    for (size_t i = 0; i < m->n_inputs; i++) {
        size_t j = 0;
        while (j < n && strcmp(names[j], m->inputs[i]) != 0)
            j++;
        if (j == n || isnan(values[j])) {
            *why = "counter not collected";
            return false;
        }
        in[i] = values[j];
    }
    *why = NULL;
    *out = m->derive(in, why);
    return !isnan(*out);
}
