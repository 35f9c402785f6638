/* The one-pass groups exec rotates over a kernel's launches (counters/pass_groups.c), on chips
 * named without a GPU: every group takes one pass, every counter is in one, a metric's
 * inputs share a group where they can, and launches of several groups combine into the
 * whole set. */
#include "tap.h"

#include "gpuprof/collector.h"
#include "gpuprof/status.h"

#include <math.h>
#include <string.h>

static bool in_group(const gp_counter_group *g, size_t counter)
{
    for (size_t k = 0; k < g->n_counters; k++)
        if (g->counters[k] == counter)
            return true;
    return false;
}

/* The group holding every input of the metric, or -1. */
static int group_of_metric(const gp_collector *c, const char *key)
{
    const gp_metric_def *m = gp_find_metric(key);
    for (size_t g = 0; m && g < c->n_groups; g++) {
        bool all = true;
        for (size_t k = 0; k < m->n_inputs && all; k++) {
            size_t i = 0;
            while (i < c->n_counters && strcmp(c->counters[i], m->inputs[k]) != 0)
                i++;
            all = i < c->n_counters && in_group(&c->groups[g], i);
        }
        if (all)
            return (int)g;
    }
    return -1;
}

static void split_request(const char *chip, const gp_metrics_request *req, const char *what,
                          size_t want_groups)
{
    gp_collector *c = NULL;
    if (!tap_ok(gp_collector_open_chip(chip, req, &c) == GP_OK, "%s %s: collector opened (%s)",
                chip, what, gp_error()))
        return;
    const int together = c->passes;
    tap_ok(gp_collector_split(c) == GP_OK, "%s %s: split (%s)", chip, what,
           gp_error());
    tap_ok(c->n_groups == want_groups, "%s %s: %zu one-pass groups (%d passes together)", chip,
           what, c->n_groups, together);
    bool one_pass = true, covered = true;
    for (size_t g = 0; g < c->n_groups; g++)
        one_pass = one_pass && c->groups[g].passes == 1;
    for (size_t i = 0; i < c->n_counters; i++) {
        bool found = false;
        for (size_t g = 0; g < c->n_groups && !found; g++)
            found = in_group(&c->groups[g], i);
        covered = covered && found;
    }
    tap_ok(one_pass, "%s %s: every group takes one pass", chip, what);
    tap_ok(covered, "%s %s: every counter is in a group", chip, what);
    tap_ok(gp_profiler_configurations(c->profiler) == 1 + c->n_groups,
           "%s %s: a profiler configuration per group beside the whole set", chip,
           what);
    tap_ok(gp_collector_split(c) == GP_OK && c->n_groups == want_groups,
           "%s %s: splitting again changes nothing", chip, what);
    gp_collector_close(c);
}

static void split_chip(const char *chip, gp_metrics_kind kind, size_t want_groups)
{
    const gp_metrics_request req = {.kind = kind};
    split_request(chip, &req, gp_metrics_kind_name(kind), want_groups);
}

/* Each group on GH100 alone: its one-pass groups (a SASS pass, a hardware one, more where
 * the hardware counters do not share a pass). */
static void split_groups(void)
{
    static const size_t want[GP_GROUP_ALL_ONLY] = {
        [GP_GROUP_DEFAULT] = 2, [GP_GROUP_LOCAL] = 2, [GP_GROUP_L2] = 3,
        [GP_GROUP_ATOMICS] = 2, [GP_GROUP_SYSMEM] = 1, [GP_GROUP_ASYNC] = 2};
    for (unsigned g = 0; g < GP_GROUP_ALL_ONLY; g++) {
        const gp_metrics_request req = {.kind = GP_METRICS_LIST, .groups = GP_GROUP_BIT(g)};
        split_request("GH100", &req, gp_metric_group_name((gp_metric_group)g), want[g]);
    }
}

/* GH100's default set: the SASS counters in one pass, DRAM and clocks in the other; the
 * SASS throughputs (sectors over time) take both. */
static void gh100_default(void)
{
    gp_metrics_request req = {.kind = GP_METRICS_DEFAULT};
    gp_collector *c = NULL;
    if (gp_collector_open_chip("GH100", &req, &c) != GP_OK || gp_collector_split(c) != GP_OK) {
        tap_ok(false, "GH100 default: opened and split (%s)", gp_error());
        gp_collector_close(c);
        return;
    }
    const int eff = group_of_metric(c, "gld_efficiency");
    const int dram = group_of_metric(c, "dram_throughput");
    tap_ok(eff >= 0 && dram >= 0 && eff != dram,
           "GH100 default: load efficiency and DRAM throughput each within one group, two groups");
    tap_ok(group_of_metric(c, "shared_load_transactions_per_request") == eff,
           "GH100 default: shared-memory SASS counters beside the global ones");
    tap_ok(eff == 0 && dram == 1 && c->groups[0].sass && !c->groups[1].sass,
           "GH100 default: the SASS group first, the uninstrumented one last");
    tap_ok(group_of_metric(c, "gld_throughput") < 0,
           "GH100 default: gld_throughput's sectors and duration are in different groups");
    int ldgsts = -1, tma = -1;
    for (size_t i = 0; i < c->n_counters; i++)
        for (size_t g = 0; g < c->n_groups; g++)
            if (in_group(&c->groups[g], i)) {
                if (strstr(c->counters[i], "op_ldgsts"))
                    ldgsts = (int)g;
                if (strstr(c->counters[i], "op_tma_ld"))
                    tma = (int)g;
            }
    tap_ok(ldgsts == eff && tma == dram,
           "GH100 default: the cp.async note's counter in the SASS group, TMA's in the other");

    bool collected[GP_MAX_COUNTERS];
    gp_collector_collected(c, (gp_group_mask)1 << eff, collected);
    double values[GP_MAX_COUNTERS];
    for (size_t i = 0; i < c->n_counters; i++)
        values[i] = collected[i] ? 64.0 : NAN;
    gp_metric_set set;
    if (gp_collector_partial_metric_set(c, values, collected, &set) == GP_OK) {
        const gp_metric_value *ld = NULL, *dram_v = NULL;
        for (size_t i = 0; i < set.n_metrics; i++) {
            if (strcmp(set.metrics[i].key, "gld_efficiency") == 0)
                ld = &set.metrics[i];
            if (strcmp(set.metrics[i].key, "dram_throughput") == 0)
                dram_v = &set.metrics[i];
        }
        size_t counters = 0;
        for (size_t i = 0; i < c->n_counters; i++)
            counters += collected[i];
        tap_ok(ld && ld->valid && fabs(ld->value - 100.0 / 32.0) < 1e-9,
               "a launch of the SASS group gives gld_efficiency (64 / (32 * 64) = 3.125 %%)");
        tap_ok(dram_v && !dram_v->valid && strcmp(dram_v->why, GP_NOT_IN_THIS_PASS) == 0,
               "a launch of the SASS group has DRAM throughput n/a, saying why");
        tap_ok(set.n_counters == counters, "a launch's set holds the counters it collected");
        const gp_metric_value *gld = NULL;
        for (size_t i = 0; i < set.n_metrics; i++)
            if (strcmp(set.metrics[i].key, "gld_throughput") == 0)
                gld = &set.metrics[i];
        tap_ok(gld && !gld->valid && strstr(gld->note, "cp.async") && !strstr(gld->note, "TMA"),
               "a launch of the SASS group: gld_throughput (not in its pass) notes cp.async "
               "loads, not TMA's uncollected counter ('%s')", gld ? gld->note : "");
        gp_metric_set_free(&set);
    } else {
        tap_ok(false, "partial metric set (%s)", gp_error());
    }
    gp_collector_close(c);
}

/* Whether the collector selected the catalogue metric `key`. */
static bool selects(const gp_collector *c, const char *key)
{
    for (size_t i = 0; i < c->n_metrics; i++)
        if (c->metrics[i].def && strcmp(c->metrics[i].def->key, key) == 0)
            return true;
    return false;
}

/* The default set takes the ideals and, from the async group, cp.async's sectors per request
 * (issue 46) within its two passes; the async group keeps that metric, another group has it
 * not. */
static void default_selection(void)
{
    const struct {
        gp_metrics_request req;
        const char *what;
        bool cp_async, ideals;
    } cases[] = {
        {{.kind = GP_METRICS_DEFAULT}, "default", true, true},
        {{.kind = GP_METRICS_LIST, .groups = GP_GROUP_BIT(GP_GROUP_ASYNC)}, "async", true, false},
        {{.kind = GP_METRICS_LIST, .groups = GP_GROUP_BIT(GP_GROUP_LOCAL)}, "local", false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_collector *c = NULL;
        if (!tap_ok(gp_collector_open_chip("GH100", &cases[i].req, &c) == GP_OK,
                    "GH100 --metrics=%s: opened (%s)", cases[i].what, gp_error()))
            continue;
        tap_ok(selects(c, "cp_async_sectors_per_request") == cases[i].cp_async &&
                   selects(c, "gld_ideal_per_request") == cases[i].ideals &&
                   selects(c, "shared_load_ideal_per_request") == cases[i].ideals &&
                   (cases[i].req.kind != GP_METRICS_DEFAULT || c->passes == 2),
               "GH100 --metrics=%s: cp_async_sectors_per_request %s, the ideals %s%s",
               cases[i].what, cases[i].cp_async ? "in" : "out", cases[i].ideals ? "in" : "out",
               cases[i].req.kind == GP_METRICS_DEFAULT ? ", 2 passes" : "");
        gp_collector_close(c);
    }
}

void test_pass_groups(void)
{
    default_selection();
    split_chip("GH100", GP_METRICS_DEFAULT, 2);
    split_chip("GH100", GP_METRICS_ALL, 5);
    split_groups();
    split_chip("GA100", GP_METRICS_DEFAULT, 2);
    gh100_default();
}
