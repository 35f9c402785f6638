/* The metric catalogue (nvprof's metrics on PerfWorks counters; docs/cupti.md has the
 * mapping), and measured metric values. Inputs are raw .sum/.avg counters, so a metric of
 * several launches is the same derivation over the summed counters. Counters layer: never
 * prints, never exits, never links cudart. */
#include "gpuprof/metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most counters one metric set holds (a whole set of --metrics=all is 31 on GH100). */
#define GP_MAX_COUNTERS_IN_SET 128

/* Which counters. A pass that holds a counter of the SMs' own activity (warps or cycles
 * active, bank conflicts, smsp__inst_executed_*) costs about ten times as much per kernel as
 * one of SASS and memory-system counters only, so the default set takes none of them: its
 * counters fill one SASS pass and one of the rest (bench/README.md, "Why the code is the way
 * it is").
 *
 * Sectors: the SASS count equals l1tex__t_sectors_pipe_lsu_mem_global_op_* and shares the
 * SASS pass. Requests: nvprof counted one per warp-level load or store instruction, as
 * l1tex__t_requests_pipe_lsu_mem_global_op_* does, and so does the SASS instruction count
 * (partial warps and predicated-off tails included); smsp__inst_executed_op_global_* and
 * _shared_* do not, as they also count instructions all of whose threads are predicated
 * off. Shared wavefronts: the SASS count is the wavefronts of the executed LDS/STS, bank
 * conflicts included; the l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* counters would
 * take a third, expensive pass and count more than the executed instructions move. */
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

/* The default set is the memory metrics, from SASS and memory-system counters: two cheap
 * passes. Occupancy and the bank-conflict counts need counters of the SMs' own activity,
 * which make every range of their pass expensive, so they are in `all` only (the shared
 * transactions per request and shared efficiency of the default set show the conflicts).
 * `all` also adds branch and warp efficiency and the L2 hit rates, which take a third pass. */
#define D GP_SET_DEFAULT | GP_SET_ALL
#define A GP_SET_ALL
/* The PerfWorks counters a metric is derived from, counted by the compiler. */
#define INPUTS(...)                                                                        \
    .inputs = {__VA_ARGS__},                                                               \
    .n_inputs = sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)

static const gp_metric_def catalogue[] = {
    {.key = "gld_transactions_per_request", .label = "gld/req", .unit = "sectors/request",
     .description = "global load sectors per load request (4 = coalesced 4-byte loads)",
     INPUTS(LD_SECTORS, LD_REQUESTS), .derive = per_request,
     .formula = "sectors / requests",
     .ncu_metric = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
     .ncu_scale = 1.0, .sets = D, .in_table = true},
    {.key = "gst_transactions_per_request", .label = "gst/req", .unit = "sectors/request",
     .description = "global store sectors per store request (32 = fully strided 4-byte stores)",
     INPUTS(ST_SECTORS, ST_REQUESTS), .derive = per_request,
     .formula = "sectors / requests",
     .ncu_metric = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
     .ncu_scale = 1.0, .sets = D, .in_table = true},
    {.key = "gld_efficiency", .label = "ld_eff%", .unit = "%",
     .description = "bytes the loads asked for / bytes of the sectors moved",
     INPUTS(LD_DATA_BYTES, LD_SECTORS), .derive = sector_efficiency,
     .formula = "100 * data bytes / (32 * sectors)",
     .ncu_metric = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
     .ncu_scale = 1.0, .sets = D, .in_table = true},
    {.key = "gst_efficiency", .label = "st_eff%", .unit = "%",
     .description = "bytes the stores wrote / bytes of the sectors moved",
     INPUTS(ST_DATA_BYTES, ST_SECTORS), .derive = sector_efficiency,
     .formula = "100 * data bytes / (32 * sectors)",
     .ncu_metric = "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
     .ncu_scale = 1.0, .sets = D, .in_table = true},
    {.key = "gld_throughput", .label = "gld_GB/s", .unit = "GB/s",
     .description = "bytes of the global load sectors requested from L1 per second",
     INPUTS(LD_SECTORS, DURATION), .derive = sector_bytes_per_ns,
     .formula = "32 * sectors / duration",
     .ncu_metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second",
     .ncu_scale = 32e-9, .sets = D},
    {.key = "gst_throughput", .label = "gst_GB/s", .unit = "GB/s",
     .description = "bytes of the global store sectors requested from L1 per second",
     INPUTS(ST_SECTORS, DURATION), .derive = sector_bytes_per_ns,
     .formula = "32 * sectors / duration",
     .ncu_metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum.per_second",
     .ncu_scale = 32e-9, .sets = D},
    {.key = "dram_read_throughput", .label = "dram_rd_GB/s", .unit = "GB/s",
     .description = "bytes read from DRAM per second",
     INPUTS(DRAM_READ, DURATION), .derive = bytes_per_ns,
     .formula = "bytes / duration",
     .ncu_metric = "dram__bytes_read.sum.per_second", .ncu_scale = 1e-9, .sets = D},
    {.key = "dram_write_throughput", .label = "dram_wr_GB/s", .unit = "GB/s",
     .description = "bytes written to DRAM per second",
     INPUTS(DRAM_WRITE, DURATION), .derive = bytes_per_ns,
     .formula = "bytes / duration",
     .ncu_metric = "dram__bytes_write.sum.per_second", .ncu_scale = 1e-9, .sets = D},
    {.key = "dram_throughput", .label = "dram_GB/s", .unit = "GB/s",
     .description = "bytes read from and written to DRAM per second",
     INPUTS(DRAM_READ, DRAM_WRITE, DURATION), .derive = both_bytes_per_ns,
     .formula = "(read + written bytes) / duration",
     .ncu_metric = "dram__bytes.sum.per_second",
     .ncu_scale = 1e-9, .sets = D, .in_table = true},
    {.key = "dram_read_bytes", .label = "dram_rd_B", .unit = "bytes",
     .description = "bytes read from DRAM",
     INPUTS(DRAM_READ), .derive = as_is,
     .formula = "counter",
     .ncu_metric = "dram__bytes_read.sum", .ncu_scale = 1.0, .sets = D},
    {.key = "dram_write_bytes", .label = "dram_wr_B", .unit = "bytes",
     .description = "bytes written to DRAM",
     INPUTS(DRAM_WRITE), .derive = as_is,
     .formula = "counter",
     .ncu_metric = "dram__bytes_write.sum", .ncu_scale = 1.0, .sets = D},
    {.key = "dram_utilization", .label = "dram%", .unit = "%",
     .description = "DRAM bandwidth used, % of peak while the kernel ran",
     INPUTS(DRAM_READ, DRAM_WRITE, DRAM_PEAK, DRAM_CYCLES), .derive = dram_utilization,
     .formula = "100 * bytes / (peak bytes per cycle * elapsed DRAM cycles)",
     .ncu_metric = "dram__throughput.avg.pct_of_peak_sustained_elapsed",
     .ncu_scale = 1.0, .sets = D},
    {.key = "shared_load_transactions_per_request", .label = "shld/req",
     .unit = "wavefronts/instruction",
     .description = "shared-memory load wavefronts per executed load instruction (1 = no bank "
                     "conflicts)",
     INPUTS(SH_LD_WAVES, SH_LD_INST), .derive = per_instruction,
     .formula = "wavefronts / instructions",
     .ncu_metric = NULL, .ncu_scale = 1.0, .sets = D, .in_table = true},
    {.key = "shared_store_transactions_per_request", .label = "shst/req",
     .unit = "wavefronts/instruction",
     .description = "shared-memory store wavefronts per executed store instruction",
     INPUTS(SH_ST_WAVES, SH_ST_INST), .derive = per_instruction,
     .formula = "wavefronts / instructions",
     .ncu_metric = NULL, .ncu_scale = 1.0, .sets = D},
    {.key = "shared_efficiency", .label = "sh_eff%", .unit = "%",
     .description = "shared-memory bytes used / bytes of the wavefronts",
     INPUTS(SH_DATA_BYTES, SH_WAVES_SASS), .derive = wavefront_efficiency,
     .formula = "100 * data bytes / (128 * wavefronts)",
     .ncu_metric = "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct",
     .ncu_scale = 1.0, .sets = D},
    {.key = "shared_load_bank_conflicts", .label = "ld_conflicts", .unit = "conflicts",
     .description = "extra shared-memory load wavefronts caused by bank conflicts",
     INPUTS(SH_LD_CONFLICTS), .derive = as_is,
     .formula = "counter",
     .ncu_metric = SH_LD_CONFLICTS, .ncu_scale = 1.0, .sets = A},
    {.key = "shared_store_bank_conflicts", .label = "st_conflicts", .unit = "conflicts",
     .description = "extra shared-memory store wavefronts caused by bank conflicts",
     INPUTS(SH_ST_CONFLICTS), .derive = as_is,
     .formula = "counter",
     .ncu_metric = SH_ST_CONFLICTS, .ncu_scale = 1.0, .sets = A},
    {.key = "achieved_occupancy", .label = "occupancy", .unit = "fraction",
     .description = "average active warps / maximum warps per SM, over active cycles (0..1, as "
                     "nvprof)",
     INPUTS(WARPS_ACTIVE, CYCLES_ACTIVE, WARPS_PEAK), .derive = occupancy,
     .formula = "warps active / (active cycles * max warps per SM)",
     .ncu_metric = "sm__warps_active.avg.pct_of_peak_sustained_active",
     .ncu_scale = 0.01, .sets = A},
    {.key = "branch_efficiency", .label = "branch%", .unit = "%",
     .description = "branches whose active threads all went one way",
     INPUTS(BRANCH_UNIFORM, BRANCH_TARGETS), .derive = percent,
     .formula = "100 * uniform / all branch targets",
     .ncu_metric = "smsp__sass_average_branch_targets_threads_uniform.pct",
     .ncu_scale = 1.0, .sets = A},
    {.key = "warp_execution_efficiency", .label = "warp_eff%", .unit = "%",
     .description = "active threads per executed warp instruction, % of 32",
     INPUTS(THREAD_INST, WARP_INST), .derive = thread_efficiency,
     .formula = "100 * thread instructions / (32 * warp instructions)",
     .ncu_metric = "smsp__thread_inst_executed_per_inst_executed.ratio",
     .ncu_scale = 100.0 / 32.0, .sets = A},
    /* Every L2 lookup, as ncu's "L2 Hit Rate": besides the SMs' requests it counts lookups
     * from the other L2 partition (a sector can be looked up twice) and some that come from
     * neither, whose number moves with what the profiler collects. */
    {.key = "l2_hit_rate", .label = "l2_hit%", .unit = "%",
     .description = "L2 sector lookups that hit",
     INPUTS(L2_HIT, L2_MISS), .derive = hit_rate,
     .formula = "100 * hits / (hits + misses)",
     .ncu_metric = "lts__t_sector_hit_rate.pct", .ncu_scale = 1.0, .sets = A},
    /* nvprof's definition: only the sectors the SMs' loads, stores and atomics look up (from
     * L1TEX), each once: the hits that belong to the kernel, which ncu and gpuprof count
     * alike where the all-lookup hits depend on what ran before in the process. */
    {.key = "l2_tex_hit_rate", .label = "l2_tex_hit%", .unit = "%",
     .description = "L2 sector lookups of the SMs' own requests (from L1TEX) that hit",
     INPUTS(L2_TEX_HIT, L2_TEX_MISS), .derive = hit_rate,
     .formula = "100 * hits / (hits + misses)",
     .ncu_metric = NULL, .ncu_scale = 1.0, .sets = A},
};

#undef D
#undef A
#undef INPUTS

const char *const gp_clock_counters[] = {DURATION, SM_CYCLES, DRAM_CYCLES};
const size_t gp_n_clock_counters = sizeof gp_clock_counters / sizeof gp_clock_counters[0];

const char *gp_metrics_kind_name(gp_metrics_kind kind)
{
    switch (kind) {
    case GP_METRICS_DEFAULT: return "default";
    case GP_METRICS_ALL: return "all";
    case GP_METRICS_LIST: return "list";
    case GP_METRICS_NONE: break;
    }
    return "none";
}

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

/* ---- measured values ---------------------------------------------------------------------- */

void gp_metric_set_free(gp_metric_set *s)
{
    free(s->counters);
    free(s->metrics);
    memset(s, 0, sizeof *s);
}

double gp_metric_set_counter(const gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return s->counters[i].value;
    return NAN;
}

static gp_counter *counter_named(gp_metric_set *s, const char *name)
{
    for (size_t i = 0; i < s->n_counters; i++)
        if (strcmp(s->counters[i].name, name) == 0)
            return &s->counters[i];
    return NULL;
}

/* A metric that lacked an input, from the set's counters now: a catalogue metric derived,
 * a raw PerfWorks counter read. */
static void derive_again(gp_metric_set *s, gp_metric_value *m)
{
    const gp_metric_def *def = gp_find_metric(m->key);
    const char *names[GP_MAX_COUNTERS_IN_SET];
    double values[GP_MAX_COUNTERS_IN_SET];
    const size_t n = s->n_counters < GP_MAX_COUNTERS_IN_SET ? s->n_counters : 0;
    for (size_t i = 0; i < n; i++) {
        names[i] = s->counters[i].name;
        values[i] = s->counters[i].value;
    }
    const char *why = NULL;
    if (def)
        m->valid = gp_metric_derive(def, names, values, n, &m->value, &why);
    else {
        const gp_counter *c = counter_named(s, m->key);
        m->valid = c && !isnan(c->value);
        m->value = m->valid ? c->value : 0.0;
    }
    if (m->valid)
        m->why[0] = '\0';
    else if (def && why && strcmp(why, "counter not collected") != 0)
        snprintf(m->why, sizeof m->why, "%s", why);
}

int gp_metric_set_add_counters(gp_metric_set *s, const gp_counter *counters, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (counter_named(s, counters[i].name))
            continue;
        gp_counter *grown = realloc(s->counters, (s->n_counters + 1) * sizeof *grown);
        if (!grown)
            return -1;
        s->counters = grown;
        s->counters[s->n_counters++] = counters[i];
    }
    for (size_t i = 0; i < s->n_metrics; i++)
        if (!s->metrics[i].valid && strcmp(s->metrics[i].why, GP_NOT_IN_THIS_PASS) == 0)
            derive_again(s, &s->metrics[i]);
    return 0;
}
