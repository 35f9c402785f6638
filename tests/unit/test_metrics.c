/* The metric catalogue: invariants, and every derivation from known counter values,
 * including zero denominators and missing counters. */
#include "tap.h"

#include "gpuprof/metrics.h"

#include <math.h>
#include <string.h>

static const char *const required_keys[] = {
    "gld_transactions_per_request", "gst_transactions_per_request", "gld_efficiency",
    "gst_efficiency", "gld_throughput", "gst_throughput", "dram_read_throughput",
    "dram_write_throughput", "dram_read_bytes", "dram_write_bytes", "dram_utilization",
    "shared_load_transactions_per_request", "shared_store_transactions_per_request",
    "shared_efficiency", "shared_load_bank_conflicts", "shared_store_bank_conflicts",
    "achieved_occupancy", "branch_efficiency", "warp_execution_efficiency", "l2_hit_rate",
};

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
                   m->formula && m->sets, "%s: derive, unit, label, description, formula, set",
               m->key);
        tap_ok(m->sets & GP_SET_ALL, "%s: in the 'all' set", m->key);
        /* A column of the table must be collected by default, or the table shows n/a. */
        if (m->in_table)
            tap_ok(m->sets & GP_SET_DEFAULT, "%s: a table column, in the default set", m->key);
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

void test_metrics(void)
{
    catalogue_invariants();
    derivations();
}
