/* The metric catalogue: invariants, and every derivation from known counter values,
 * including zero denominators and missing counters. */
#include "tap.h"

#include "gpuprof/metrics.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const required_keys[] = {
    "gld_transactions_per_request", "gst_transactions_per_request", "gld_efficiency",
    "gst_efficiency", "gld_throughput", "gst_throughput", "dram_read_throughput",
    "dram_write_throughput", "dram_read_bytes", "dram_write_bytes", "dram_utilization",
    "shared_load_transactions_per_request", "shared_store_transactions_per_request",
    "shared_efficiency", "shared_load_bank_conflicts", "shared_store_bank_conflicts",
    "achieved_occupancy", "branch_efficiency", "warp_execution_efficiency", "l2_hit_rate",
    "local_load_transactions", "local_store_transactions", "local_load_transactions_per_request",
    "local_store_transactions_per_request", "local_memory_overhead", "l2_read_transactions",
    "l2_write_transactions", "l2_read_throughput", "l2_write_throughput", "l2_tex_hit_rate",
    "global_hit_rate", "atomic_transactions", "atomic_transactions_per_request",
    "sysmem_read_bytes", "sysmem_write_bytes", "sysmem_read_throughput",
    "sysmem_write_throughput", "cp_async_requests", "cp_async_sectors_per_request",
    "cp_async_efficiency", "tma_load_bytes", "tma_store_bytes", "tma_load_throughput",
    "tma_store_throughput",
};

/* The group the issue (28) gives each new metric; the GPU tests select them by these. */
static const struct {
    const char *key, *group;
} groups_of[] = {
    {"local_load_transactions", "local"}, {"local_memory_overhead", "local"},
    {"l2_read_transactions", "l2"},      {"l2_write_throughput", "l2"},
    {"l2_hit_rate", "l2"},               {"l2_tex_hit_rate", "l2"},
    {"global_hit_rate", "l2"},           {"atomic_transactions", "atomics"},
    {"atomic_transactions_per_request", "atomics"},
    {"sysmem_read_bytes", "sysmem"},     {"sysmem_write_throughput", "sysmem"},
    {"cp_async_requests", "async"},      {"cp_async_efficiency", "async"},
    {"tma_load_bytes", "async"},         {"tma_store_throughput", "async"},
    {"gld_efficiency", "default"},       {"achieved_occupancy", "all"},
};

static void groups(void)
{
    for (size_t i = 0; i < sizeof groups_of / sizeof groups_of[0]; i++) {
        const gp_metric_def *m = gp_find_metric(groups_of[i].key);
        tap_ok(m && strcmp(gp_metric_group_name(m->group), groups_of[i].group) == 0,
               "%s is in group %s", groups_of[i].key, groups_of[i].group);
    }
    size_t n, members[GP_METRIC_GROUPS] = {0};
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    tap_ok(n <= GP_MAX_CATALOGUE, "the catalogue's %zu rows fit GP_MAX_CATALOGUE", n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned)cat[i].group < GP_METRIC_GROUPS)
            members[cat[i].group]++;
    for (unsigned g = 0; g < GP_METRIC_GROUPS; g++) {
        gp_metric_group back = GP_METRIC_GROUPS;
        const char *name = gp_metric_group_name((gp_metric_group)g);
        tap_ok(members[g] > 0, "group %s has metrics (%zu)", name, members[g]);
        if (g == GP_GROUP_ALL_ONLY)
            tap_ok(!gp_metric_group_from_name(name, &back), "'all' is no group a list names");
        else
            tap_ok(gp_metric_group_from_name(name, &back) && back == g, "group %s by its name",
                   name);
    }
    gp_metric_group g;
    tap_ok(!gp_metric_group_from_name("l3", &g) && !gp_metric_group_from_name("", &g),
           "unknown group names are refused");
}

static void catalogue_invariants(void)
{
    for (size_t i = 0; i < sizeof required_keys / sizeof required_keys[0]; i++)
        tap_ok(gp_find_metric(required_keys[i]) != NULL, "catalogue has %s", required_keys[i]);
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const gp_metric_def *m = &cat[i];
        bool inputs_ok = m->n_inputs >= 1 && m->n_inputs <= GP_METRIC_MAX_INPUTS;
        for (size_t k = 0; inputs_ok && k < m->n_inputs; k++)
            inputs_ok = m->inputs[k] && strstr(m->inputs[k], "__") != NULL;
        tap_ok(inputs_ok, "%s: 1-4 PerfWorks inputs", m->key);
        tap_ok(m->derive && m->unit && m->unit[0] && m->label && m->label[0] && m->description &&
                   m->formula && (unsigned)m->group < GP_METRIC_GROUPS,
               "%s: derive, unit, label, description, formula, group", m->key);
        tap_ok(!m->ncu_metric || (strstr(m->ncu_metric, "__") && !strchr(m->ncu_metric, ' ')),
               "%s: ncu's metric is one PerfWorks name, or none", m->key);
        /* A column of the table must be collected by default, or the table shows n/a. */
        if (m->in_table)
            tap_ok(m->group == GP_GROUP_DEFAULT, "%s: a table column, in the default group",
                   m->key);
        bool unique = true;
        for (size_t j = 0; j < n; j++)
            unique &= j == i || strcmp(cat[j].key, m->key) != 0;
        tap_ok(unique, "%s: key is unique", m->key);
    }
    tap_ok(gp_counter_is_constant("dram__bytes.sum.peak_sustained"), "peak_sustained is a constant");
    tap_ok(!gp_counter_is_constant("dram__bytes_read.sum"), "a .sum counter is not a constant");
}

/* Derive metric `key` from parallel arrays of counter names and values. */
static bool derive(const char *key, const char *const *names, const double *values, size_t n,
                   double *out, const char **why)
{
    const gp_metric_def *m = gp_find_metric(key);
    return m && gp_metric_derive(m, names, values, n, out, why);
}

static void check_value(const char *key, const char *const *names, const double *values, size_t n,
                        double want)
{
    double v = NAN;
    const char *why = NULL;
    bool ok = derive(key, names, values, n, &v, &why);
    if (!ok)
        tap_diag("%s: not derived (%s)", key, why ? why : "?");
    tap_near(ok ? v : NAN, want, 1e-9 * fabs(want) + 1e-12, key);
}

static void check_undefined(const char *key, const char *const *names, const double *values,
                            size_t n, const char *reason)
{
    double v = 0;
    const char *why = NULL;
    bool ok = derive(key, names, values, n, &v, &why);
    tap_ok(!ok && why && strstr(why, reason), "%s undefined: %s (got '%s')", key, reason,
           why ? why : "");
}

static void derivations(void)
{
    /* The naive transpose of an 8192² float matrix on an H100 (docs/cupti.md). */
    const char *names[] = {
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "smsp__sass_inst_executed_op_global_ld.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_inst_executed_op_global_st.sum",
        "smsp__sass_data_bytes_mem_global_op_ld.sum",     "smsp__sass_data_bytes_mem_global_op_st.sum",
        "gpu__time_duration.sum",                         "dram__bytes_read.sum",
        "dram__bytes_write.sum",                          "dram__bytes.sum.peak_sustained",
        "dram__cycles_elapsed.avg",                       "sm__warps_active.sum",
        "sm__cycles_active.sum",                          "sm__warps_active.avg.peak_sustained",
        "smsp__thread_inst_executed.sum",                 "smsp__inst_executed.sum",
        "lts__t_sectors_lookup_hit.sum",                  "lts__t_sectors_lookup_miss.sum",
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",      "lts__t_sectors_srcunit_tex_lookup_miss.sum",
    };
    const double values[] = {
        8388608, 2097152, 67108864, 2097152, 268435456, 268435456, 1291456, 332719872, 335153408,
        1280, 3382250, 60e6, 1e6, 64, 858806400, 32e6, 88, 12, 67108864, 8388608,
    };
    const size_t n = sizeof values / sizeof values[0];
    check_value("gld_transactions_per_request", names, values, n, 4.0);
    check_value("gst_transactions_per_request", names, values, n, 32.0);
    check_value("gld_efficiency", names, values, n, 100.0);
    check_value("gst_efficiency", names, values, n, 12.5);
    check_value("dram_read_bytes", names, values, n, 332719872.0);
    check_value("dram_read_throughput", names, values, n, 332719872.0 / 1291456.0);
    check_value("dram_throughput", names, values, n, (332719872.0 + 335153408.0) / 1291456.0);
    check_value("gld_throughput", names, values, n, 32.0 * 8388608 / 1291456.0);
    check_value("gst_throughput", names, values, n, 32.0 * 67108864 / 1291456.0);
    check_value("dram_utilization", names, values, n,
                100.0 * (332719872.0 + 335153408.0) / (1280.0 * 3382250.0));
    check_value("achieved_occupancy", names, values, n, 60e6 / (1e6 * 64));
    check_value("warp_execution_efficiency", names, values, n, 100.0 * 858806400 / (32 * 32e6));
    check_value("l2_hit_rate", names, values, n, 88.0);
    /* Every store sector hits (L2 allocates it), every load sector misses. */
    check_value("l2_tex_hit_rate", names, values, n, 100.0 * 67108864 / (67108864 + 8388608));

    /* Zero denominators: undefined with the reason, never a made-up zero. */
    const double zeros[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1280, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0};
    check_undefined("gld_transactions_per_request", names, zeros, n, "no requests");
    check_undefined("gst_efficiency", names, zeros, n, "no sectors");
    check_undefined("dram_read_throughput", names, zeros, n, "no kernel duration");
    check_undefined("dram_utilization", names, zeros, n, "no DRAM cycles");
    check_undefined("achieved_occupancy", names, zeros, n, "no active cycles");
    check_undefined("l2_hit_rate", names, zeros, n, "no L2 lookups");
    check_undefined("l2_tex_hit_rate", names, zeros, n, "no L2 lookups");
    check_undefined("warp_execution_efficiency", names, zeros, n, "no instructions");
    /* A counter that was not collected (or not available on the chip). */
    check_undefined("branch_efficiency", names, values, n, "counter not collected");
    const double with_nan[] = {NAN, 2097152};
    check_undefined("gld_transactions_per_request", names, with_nan, 2, "counter not collected");

    /* Aggregating two launches: the derivation over summed counters (4 and 32 sectors per
     * request, equal request counts) gives 18, not the mean of anything else. */
    const char *agg_names[] = {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
                               "smsp__sass_inst_executed_op_global_st.sum"};
    const double agg[] = {4.0 * 1000 + 32.0 * 1000, 2000};
    check_value("gst_transactions_per_request", agg_names, agg, 2, 18.0);
    const char *shared_names[] = {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                  "smsp__sass_inst_executed_op_shared_ld.sum",
                                  "smsp__sass_data_bytes_mem_shared.sum",
                                  "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum",
                                  "smsp__sass_branch_targets_threads_uniform.sum",
                                  "smsp__sass_branch_targets.sum"};
    const double shared[] = {67830794, 2097152, 536870912, 69972010, 67, 100};
    check_value("shared_load_transactions_per_request", shared_names, shared, 6,
                67830794.0 / 2097152.0);
    check_value("shared_efficiency", shared_names, shared, 6, 100.0 * 536870912 / (128.0 * 69972010));
    check_value("branch_efficiency", shared_names, shared, 6, 67.0);
}

/* The metrics of the new groups, from the counters of a kernel invented to make each
 * derivation distinct. */
static void new_derivations(void)
{
    const char *names[] = {
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum",
        "smsp__sass_inst_executed_op_local_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        "lts__t_sectors_srcunit_tex.sum",
        "lts__t_sectors_srcunit_tex_op_read.sum",
        "gpu__time_duration.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_red.sum",
        "smsp__sass_inst_executed_op_global_atom.sum",
        "smsp__sass_inst_executed_op_global_red.sum",
        "lts__t_sectors_srcunit_tex_aperture_sysmem_op_read.sum",
        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
        "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
        "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
    };
    const double values[] = {8000, 1000, 3000, 1000, 16000, 12000, 2000, 300, 100,
                             500, 1500, 250, 250, 4096, 64, 1024, 16384, 1e6};
    const size_t n = sizeof values / sizeof values[0];
    check_value("local_load_transactions", names, values, n, 8000.0);
    check_value("local_load_transactions_per_request", names, values, n, 8.0);
    check_value("local_memory_overhead", names, values, n, 100.0 * (3000 + 1000) / 16000);
    check_value("l2_read_transactions", names, values, n, 12000.0);
    check_value("l2_read_throughput", names, values, n, 32.0 * 12000 / 2000);
    check_value("global_hit_rate", names, values, n, 75.0);
    check_value("atomic_transactions", names, values, n, 2000.0);
    check_value("atomic_transactions_per_request", names, values, n, 4.0);
    check_value("sysmem_read_bytes", names, values, n, 32.0 * 4096);
    check_value("sysmem_read_throughput", names, values, n, 32.0 * 4096 / 2000);
    check_value("cp_async_requests", names, values, n, 64.0);
    check_value("cp_async_sectors_per_request", names, values, n, 16.0);
    check_value("cp_async_efficiency", names, values, n, 50.0);
    check_value("tma_load_bytes", names, values, n, 1e6);
    check_value("tma_load_throughput", names, values, n, 1e6 / 2000);

    const double zeros[18] = {0};
    check_undefined("local_memory_overhead", names, zeros, n, "no L2 sectors from the SMs");
    check_undefined("global_hit_rate", names, zeros, n, "no global load sectors");
    check_undefined("atomic_transactions_per_request", names, zeros, n, "no requests");
    check_undefined("cp_async_sectors_per_request", names, zeros, n, "no requests");
    check_undefined("tma_store_bytes", names, values, n, "counter not collected");
}

/* The ideals: the bytes over full sectors or wavefronts, and at least one per instruction.
 * Shared: reduce threadfence's counters on an H200 (ncu), where a few threads of each warp load
 * the warp sums (8.5 bytes per load), then full warps of 16-byte loads. */
static void ideals(void)
{
    const char *names[] = {"smsp__sass_data_bytes_mem_shared_op_ld.sum",
                           "smsp__sass_inst_executed_op_shared_ld.sum",
                           "smsp__sass_data_bytes_mem_global_op_ld.sum",
                           "smsp__sass_inst_executed_op_global_ld.sum"};
    const double partial[] = {76160, 8977, 67113088, 524305};
    check_value("shared_load_ideal_per_request", names, partial, 4, 1.0);
    check_value("gld_ideal_per_request", names, partial, 4, 67113088.0 / 32 / 524305);
    const double wide[] = {512.0 * 1000, 1000, 4.0 * 100, 100};
    check_value("shared_load_ideal_per_request", names, wide, 4, 4.0);
    check_value("gld_ideal_per_request", names, wide, 4, 1.0);
    const double none[] = {0, 0, 0, 0};
    check_undefined("shared_load_ideal_per_request", names, none, 4, "no such instructions");
    check_undefined("gld_ideal_per_request", names, none, 4, "no requests");
}

static void note_of(const char *key, const char *const *names, const double *values, size_t n,
                    char *buf, size_t len)
{
    const gp_metric_def *m = gp_find_metric(key);
    double v = NAN;
    const char *why = NULL;
    const bool valid = m && gp_metric_derive(m, names, values, n, &v, &why);
    buf[0] = '\0';
    if (m)
        gp_metric_note(m, names, values, n, valid, v, buf, len);
}

/* The classic metrics say where the traffic went when it bypassed them, and why an
 * efficiency is above 100 %. */
static void notes(void)
{
    const char *counters[GP_METRIC_MAX_INPUTS];
    const gp_metric_def *gld = gp_find_metric("gld_transactions_per_request");
    const gp_metric_def *gst = gp_find_metric("gst_efficiency");
    const gp_metric_def *dram = gp_find_metric("dram_throughput");
    tap_ok(gld && gp_metric_note_counters(gld, counters) == 2 &&
               strstr(counters[0], "ldgsts") && strstr(counters[1], "tma_ld"),
           "global loads' notes read the cp.async and TMA load counters");
    tap_ok(gst && gp_metric_note_counters(gst, counters) == 1 && strstr(counters[0], "tma_st"),
           "global stores' notes read the TMA store counter");
    tap_ok(dram && gp_metric_note_counters(dram, counters) == 0, "DRAM metrics need no note");

    /* cuBLAS's GEMM: no LDG at all, its loads are LDGSTS. */
    const char *names[] = {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
                           "smsp__sass_inst_executed_op_global_ld.sum",
                           "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
                           "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
                           "smsp__sass_data_bytes_mem_shared.sum",
                           "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"};
    const double cublas[] = {0, 0, 4096, 0, 1536, 8};
    char note[GP_TEXT_LEN];
    note_of("gld_transactions_per_request", names, cublas, 6, note, sizeof note);
    tap_ok(strstr(note, "cp.async") && strstr(note, "cp_async_*") && !strstr(note, "TMA"),
           "no LDG, LDGSTS: gld/req says loads went via cp.async ('%s')", note);
    note_of("shared_efficiency", names, cublas, 6, note, sizeof note);
    tap_ok(strstr(note, "above 100 %") != NULL,
           "shared efficiency of 150 %% explains itself ('%s')", note);
    const double tma[] = {0, 0, 0, 65536, 1024, 8};
    note_of("gld_transactions_per_request", names, tma, 6, note, sizeof note);
    tap_ok(strstr(note, "TMA") && strstr(note, "tma_*") && !strstr(note, "cp.async"),
           "TMA loads: gld/req says so ('%s')", note);
    note_of("shared_efficiency", names, tma, 6, note, sizeof note);
    tap_ok(note[0] == '\0', "shared efficiency of 100 %% has no note");
    const double both[] = {64, 16, 4096, 65536, 0, 0};
    note_of("gld_transactions_per_request", names, both, 6, note, sizeof note);
    tap_ok(strstr(note, "cp.async") && strstr(note, "TMA") && strstr(note, "; "),
           "both paths: both notes ('%s')", note);
    const double classic[] = {64, 16, 0, 0, 0, 0};
    note_of("gld_transactions_per_request", names, classic, 6, note, sizeof note);
    tap_ok(note[0] == '\0', "a classic kernel's loads have no note");
    note_of("gld_transactions_per_request", names, classic, 2, note, sizeof note);
    tap_ok(note[0] == '\0', "without the path counters, no note");
}

/* exec --replay=application: a later run's counters complete a launch's metric, and its
 * note comes with them. */
static void note_after_more_counters(void)
{
    gp_metric_value m = {.key = "gld_transactions_per_request", .valid = false,
                         .why = GP_NOT_IN_THIS_PASS};
    gp_metric_set s = {.metrics = &m, .n_metrics = 1};
    const gp_counter later[] = {
        {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", 0},
        {"smsp__sass_inst_executed_op_global_ld.sum", 0},
        {"smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", 64},
    };
    const int rc = gp_metric_set_add_counters(&s, later, 3);
    tap_ok(rc == 0 && !m.valid && strcmp(m.why, "no requests") == 0 &&
               strstr(m.note, "cp.async") != NULL,
           "counters of a later run: the metric derived again, with its note ('%s')", m.note);
    free(s.counters);
}

/* Each row's ncu metric is a name the chip's host API accepts (what ncu --metrics takes),
 * and each input too: checked on GH100 without a GPU. */
static void ncu_names_exist(void)
{
    gp_profiler *p = NULL;
    if (!tap_ok(gp_profiler_open_chip("GH100", &p) == GP_OK, "GH100's host API (%s)",
                gp_error()))
        return;
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        bool inputs = true;
        for (size_t k = 0; k < cat[i].n_inputs; k++)
            inputs &= gp_profiler_has_counter(p, cat[i].inputs[k], NULL);
        tap_ok(inputs && (!cat[i].ncu_metric || gp_profiler_has_counter(p, cat[i].ncu_metric,
                                                                         NULL)),
               "%s: its counters and ncu metric (%s) exist on GH100", cat[i].key,
               cat[i].ncu_metric ? cat[i].ncu_metric : "none");
    }
    gp_profiler_close(p);
}

void test_metrics(void)
{
    ncu_names_exist();
    note_after_more_counters();
    catalogue_invariants();
    groups();
    derivations();
    new_derivations();
    ideals();
    notes();
}
