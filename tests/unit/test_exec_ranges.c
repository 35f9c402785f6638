/* exec --by-range's model (report/range_fold.c, report/exec_ranges.c) on labels and launches
 * made here: emit_nvtx's per-call parts folded out of a label and nothing else; the tree of
 * folded paths, each node inclusive of its subtree, an untimed launch at its kernel's mean and
 * a launch without DRAM counters at its kernel's means (both marked estimated), siblings the
 * most time first, the launches in no range one node. */
#include "tap.h"

#include "gpuprof/exec_ranges.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void folds(const char *label, const char *want)
{
    char out[256];
    gp_range_fold(label, out);
    char what[400];
    snprintf(what, sizeof what, "fold: '%s'", label);
    tap_str_eq(out, want, what);
}

/* emit_nvtx's sequence numbers, and which labels are autograd nodes' backward. */
static void test_seq_and_backward(void)
{
    unsigned long long seq = 0;
    const char *fwd = "aten::addmm, seq = 22, op_id = 6";
    tap_ok(gp_range_label_seq(fwd, strlen(fwd), &seq) && seq == 22, "seq: read");
    const char *none = "aten::mm, op_id = 59", *bad = "mine, seq = abc";
    tap_ok(!gp_range_label_seq(none, strlen(none), &seq) &&
               !gp_range_label_seq(bad, strlen(bad), &seq),
           "seq: none without ', seq = ' and digits");
    tap_ok(!gp_range_label_seq(fwd, 14, &seq), "seq: only within the label's n bytes");
    tap_ok(gp_range_label_backward("AddmmBackward0") &&
               gp_range_label_backward("autograd::engine::evaluate_function: MulBackward12") &&
               gp_range_label_backward("AddmmBackward"),
           "backward: a name ending in Backward and optional digits");
    tap_ok(!gp_range_label_backward("backward") && !gp_range_label_backward("aten::addmm") &&
               !gp_range_label_backward("Backward0 pass"),
           "backward: not the user's own 'backward' range, nor other names");
}

static void test_folding(void)
{
    folds("aten::linear, seq = 0, op_id = 2", "aten::linear");
    folds("Optimizer.step#AdamW.step, op_id = 109", "Optimizer.step#AdamW.step");
    folds("aten::addmm, seq = 1, op_id = 6, sizes = [[32, 64], [], [64, 128]]", "aten::addmm");
    folds("step/forward/aten::linear, seq = 0, op_id = 2/aten::addmm, seq = 1, op_id = 6",
          "step/forward/aten::linear/aten::addmm");
    folds("autograd::engine::evaluate_function: AddmmBackward0, op_id = 54/AddmmBackward0, "
          "seq = 4, op_id = 55/aten::mm, op_id = 59",
          "autograd::engine::evaluate_function: AddmmBackward0/AddmmBackward0/aten::mm");
    /* record_shapes=True: sizes and the inputs' op ids (PyTorch's own example) */
    folds("aten::log_softmax, seq = 697, op_id = 2229, sizes = [[1024, 10000], [], []], "
          "input_op_ids = [(2226,0), (0,-1)]",
          "aten::log_softmax");
    /* a part among others the label has: only it goes */
    folds("a, seq = 1, mode = fast", "a, mode = fast");
    /* nothing else changes: not a number, not whole, unbalanced, another key, a domain's */
    folds("a, op_id = x", "a, op_id = x");
    folds("a, seq = 12abc", "a, seq = 12abc");
    folds("a, sizes = [[1, 2]", "a, sizes = [[1, 2]");
    folds("a, input_op_ids = (1,0)", "a, input_op_ids = (1,0)");
    folds("lib@conv [layer]/step", "lib@conv [layer]/step");
    folds("seq = 3", "seq = 3");
}

/* ---- the tree ------------------------------------------------------------------------------ */

#define UNTIMED (-1.0)
#define NO_DRAM (-1.0)

/* Kernel a: 1 and 3 ms timed, one launch untimed (counted at 2 ms), DRAM on two of three;
 * kernel b: 4 and 2.5 ms, DRAM on one of two. b's total (6.5 ms) is more than a's (6 ms):
 * b is #1, a #2. */
static const struct {
    const char *kernel, *range;
    double ms, read, write;
} made[] = {
    {"a(int)", "step/fwd, seq = 0, op_id = 1", 1.0, 100, 50},
    {"a(int)", "step/fwd, seq = 1, op_id = 4", UNTIMED, NO_DRAM, NO_DRAM},
    {"b(int)", "step/opt", 4.0, 10, 10},
    {"a(int)", "step/fwd, seq = 2, op_id = 9", 3.0, 200, 100},
    {"b(int)", NULL, 2.5, NO_DRAM, NO_DRAM},
};
#define N_MADE (sizeof made / sizeof made[0])

static const gp_exec_range *node(const gp_exec_range_tree *t, const char *path)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->nodes[i].path, path) == 0)
            return &t->nodes[i];
    return NULL;
}

static void check_order(const gp_exec_range_tree *t)
{
    static const char *const order[] = {"step", "step/fwd", "step/opt", GP_RANGE_NONE};
    bool in_order = t->n == 4;
    for (size_t i = 0; in_order && i < t->n; i++)
        in_order = strcmp(t->nodes[i].path, order[i]) == 0;
    tap_ok(in_order, "ranges: reading order: each node then its children, the most time "
                     "first; the launches in no range one node");
    tap_ok(t->n == 4 && t->nodes[1].parent == 0 && t->nodes[2].parent == 0 &&
               t->nodes[0].parent == SIZE_MAX && t->nodes[3].parent == SIZE_MAX &&
               t->nodes[1].depth == 1 && strcmp(t->nodes[1].label, "fwd") == 0,
           "ranges: parents, depths and labels");
}

static void check_inclusive(const gp_exec_range_tree *t)
{
    const gp_exec_range *step = node(t, "step"), *fwd = node(t, "step/fwd"),
                        *opt = node(t, "step/opt"), *none = node(t, GP_RANGE_NONE);
    if (!tap_ok(step && fwd && opt && none, "ranges: a node per folded prefix"))
        return;
    tap_ok(fwd->calls == 3 && fwd->kernels == 1 && step->calls == 4 && step->kernels == 2,
           "ranges: calls and distinct kernels, inclusive of the subtree");
    tap_near(fwd->total_ms, 6.0, 1e-12, "ranges: the untimed launch at its kernel's mean");
    tap_ok(fwd->total_estimated && step->total_estimated && !opt->total_estimated &&
               !none->total_estimated, "ranges: a time with an untimed launch is estimated");
    tap_near(step->total_ms, fwd->total_ms + opt->total_ms, 1e-12,
             "ranges: a parent's time is its children's");
    tap_near(step->time_percent + none->time_percent, 100.0, 1e-9,
             "ranges: the outermost shares sum to 100 %");
    tap_near(step->time_percent, 80.0, 1e-9, "ranges: a share of all kernels' totals");
    tap_near(fwd->dram_bytes, 150 + 225 + 300, 1e-9,
             "ranges: a launch without DRAM counters at its kernel's means");
    tap_ok(fwd->dram_estimated && !opt->dram_estimated && none->dram_estimated,
           "ranges: DRAM estimated where a launch lacked them");
    tap_near(none->dram_bytes, 20, 1e-9, "ranges: a node of no measured launch, by its kernel");
    tap_ok(step->top == 2 && fwd->top == 2 && opt->top == 1 && none->top == 1,
           "ranges: the kernel of the most time in the node, by its #N");
}

static void test_tree(void)
{
    gp_exec_launch l[N_MADE];
    gp_metric_value m[N_MADE][2];
    memset(l, 0, sizeof l);
    memset(m, 0, sizeof m);
    for (size_t i = 0; i < N_MADE; i++) {
        l[i] = (gp_exec_launch){.id = i + 1, .kernel = (char *)made[i].kernel,
                                .range = (char *)made[i].range, .duration_ms = made[i].ms};
        if (made[i].read == NO_DRAM)
            continue;
        m[i][0] = (gp_metric_value){.valid = true, .value = made[i].read};
        snprintf(m[i][0].key, sizeof m[i][0].key, "dram_read_bytes");
        m[i][1] = (gp_metric_value){.valid = true, .value = made[i].write};
        snprintf(m[i][1].key, sizeof m[i][1].key, "dram_write_bytes");
        l[i].profiled = true;
        l[i].metrics = (gp_metric_set){.metrics = m[i], .n_metrics = 2};
    }
    const gp_exec_info e = {.launches = l, .n_launches = N_MADE};
    tap_ok(gp_exec_has_ranges(&e), "ranges: a report with a launch in a range has ranges");
    gp_exec_range_tree t;
    if (!tap_ok(gp_exec_range_tree_init(&t, &e) == GP_OK, "ranges: the tree is made"))
        return;
    check_order(&t);
    check_inclusive(&t);
    gp_exec_range_tree_free(&t);
    const gp_exec_info none = {.launches = &l[4], .n_launches = 1};
    tap_ok(!gp_exec_has_ranges(&none), "ranges: launches in no range: no ranges");
}

void test_exec_ranges(void)
{
    test_folding();
    test_seq_and_backward();
    test_tree();
}
