/* The grouping of a report's results (report/group.c): problems, the parameters that vary
 * within them, and sweeps over one parameter. */
#include "tap.h"

#include "gpuprof/group.h"
#include "gpuprof/report.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A result of reduce's shape, its parameters "group" and "pad" (NAN: does not apply). */
static void add(gp_report *r, const char *variant, const char *type, uint64_t n,
                unsigned block, double group, double pad)
{
    gp_result *res;
    if (gp_report_add_result(r, &res) != GP_OK)
        return;
    snprintf(res->family, sizeof res->family, "reduce");
    snprintf(res->variant, sizeof res->variant, "%s", variant);
    snprintf(res->type, sizeof res->type, "%s", type);
    res->n = n;
    res->block = (gp_dim3){block, block ? 1 : 0, block ? 1 : 0};
    gp_result_add_param(res, "group", group);
    gp_result_add_param(res, "pad", pad);
}

static bool same_problem(gp_problem_span p, size_t first, size_t end)
{
    return p.first == first && p.end == end;
}

static void problems(void)
{
    gp_report r;
    gp_report_init(&r);
    add(&r, "a", "int32", 1024, 256, 4, 1);
    add(&r, "a", "int32", 1024, 512, 4, 1);
    add(&r, "b", "int32", 1024, 256, 8, 1);
    add(&r, "a", "int32", 2048, 256, 4, 1);
    add(&r, "lib", "float32", 2048, 0, NAN, 1);   /* a library call: block unknown */
    add(&r, "a", "float32", 2048, 256, 4, 1);

    const gp_problem_span a = gp_problem_at(&r, 0), b = gp_problem_at(&r, 3),
                     c = gp_problem_at(&r, 4);
    tap_ok(same_problem(a, 0, 3), "problem: consecutive results of one family, size and type");
    tap_ok(same_problem(b, 3, 4), "problem: another size starts another problem");
    tap_ok(same_problem(c, 4, 6), "problem: another type starts another problem");
    tap_ok(same_problem(gp_problem_at(&r, 1), 1, 3), "problem: from any result, to its end");
    tap_ok(gp_problem_param_varies(&a, "group"), "param varies: group 4, 4, 8");
    tap_ok(!gp_problem_param_varies(&a, "pad"), "param varies: not pad 1, 1, 1");
    tap_ok(!gp_problem_param_varies(&a, "absent"), "param varies: not one no result has");
    tap_ok(gp_problem_param_varies(&c, "group"), "param varies: NAN and 4 are two values");
    tap_ok(gp_problem_block_varies(&a), "block varies: 256, 512, 256");
    tap_ok(!gp_problem_block_varies(&b), "block varies: not with one result");
    tap_ok(!gp_problem_block_varies(&c), "block varies: not when the other is unknown");
    gp_report_free(&r);
}

static bool sweep_is(const gp_sweeps *s, size_t k, gp_sweep_param param, const size_t *want,
                     size_t n)
{
    if (k >= s->n_sweeps || s->sweeps[k].param != param || s->sweeps[k].n != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s->sweeps[k].results[i] != want[i])
            return false;
    return true;
}

static void sweeps(void)
{
    gp_report r;
    gp_report_init(&r);
    add(&r, "a", "int32", 4096, 512, 4, 1);       /* 0 */
    add(&r, "a", "int32", 4096, 128, 4, 1);       /* 1 */
    add(&r, "b", "int32", 4096, 256, 4, 1);       /* 2 */
    add(&r, "a", "int32", 4096, 256, 4, 1);       /* 3 */
    add(&r, "b", "int32", 4096, 256, 2, 1);       /* 4 */
    add(&r, "c", "int32", 4096, 256, 4, 1);       /* 5: n and block vary */
    add(&r, "c", "int32", 8192, 512, 4, 1);       /* 6 */
    add(&r, "a", "float32", 4096, 256, 4, 1);     /* 7: alone */
    gp_sweeps s;
    if (!tap_ok(gp_sweeps_find(&r, &s) == GP_OK, "sweeps: found"))
        return;
    tap_ok(s.n_sweeps == 4, "sweeps: one per variant and type (%zu)", s.n_sweeps);
    tap_ok(sweep_is(&s, 0, GP_SWEEP_BLOCK, (size_t[]){1, 3, 0}, 3),
           "sweeps: a's results sweep the block, in order of its threads");
    tap_ok(sweep_is(&s, 1, GP_SWEEP_GROUP, (size_t[]){4, 2}, 2),
           "sweeps: b's results sweep group, in order of it");
    tap_ok(sweep_is(&s, 2, GP_SWEEP_NONE, (size_t[]){5, 6}, 2),
           "sweeps: none where two parameters vary, in the report's order");
    tap_ok(sweep_is(&s, 3, GP_SWEEP_NONE, (size_t[]){7}, 1), "sweeps: none of one result");
    tap_near(gp_sweep_value(&r.results[0], GP_SWEEP_BLOCK), 512, 0, "sweep value: threads");
    tap_near(gp_sweep_value(&r.results[6], GP_SWEEP_N), 8192, 0, "sweep value: n");
    tap_near(gp_sweep_value(&r.results[4], GP_SWEEP_GROUP), 2, 0, "sweep value: a parameter");
    tap_ok(isnan(gp_sweep_value(&r.results[4], GP_SWEEP_GRID)),
           "sweep value: NAN for a parameter the result lacks");
    tap_str_eq(gp_sweep_param_name(GP_SWEEP_PAD), "pad", "sweep parameter: its name");
    gp_sweeps_free(&s);
    gp_report_free(&r);
}

/* Merged files from different GPUs: a variant's results of each file are a sweep of their
 * own. */
static void sweeps_by_source(void)
{
    gp_report r;
    gp_report_init(&r);
    add(&r, "a", "int32", 4096, 128, 4, 1);
    add(&r, "a", "int32", 4096, 256, 4, 1);
    r.results[1].input = 1;
    gp_report_source sources[2] = {{.has_device = true}, {.has_device = true}};
    snprintf(sources[0].device.name, sizeof sources[0].device.name, "GPU A");
    snprintf(sources[1].device.name, sizeof sources[1].device.name, "GPU B");
    r.sources = sources;
    r.n_sources = 2;
    gp_sweeps s;
    if (tap_ok(gp_sweeps_find(&r, &s) == GP_OK, "sweeps of merged files: found")) {
        tap_ok(s.n_sweeps == 2, "sweeps of files from different GPUs: one per file");
        gp_sweeps_free(&s);
    }
    snprintf(sources[1].device.name, sizeof sources[1].device.name, "GPU A");
    if (tap_ok(gp_sweeps_find(&r, &s) == GP_OK, "sweeps of merged files: found again")) {
        tap_ok(s.n_sweeps == 1 && s.sweeps[0].param == GP_SWEEP_BLOCK,
               "sweeps of files from the same GPU: one over both");
        gp_sweeps_free(&s);
    }
    r.sources = NULL;
    r.n_sources = 0;
    gp_report_free(&r);
}

/* The sweeps of one family over one parameter make a chart, a line each; its table (the sweep
 * part, its columns made for the chart) has a row per value and a column per line. */
static void sweep_charts(void)
{
    gp_report r;
    gp_report_init(&r);
    add(&r, "a", "int32", 4096, 128, 4, 1);
    add(&r, "a", "int32", 4096, 256, 4, 1);
    add(&r, "b", "int32", 4096, 512, 4, 1);
    add(&r, "b", "int32", 4096, 256, 4, 1);
    add(&r, "c", "int32", 4096, 256, 4, 1);       /* alone: no chart */
    for (size_t i = 0; i < r.n_results; i++)
        r.results[i].gbps = 100.0 * (double)(i + 1);
    gp_sweep_charts s;
    if (!tap_ok(gp_sweep_charts_find(&r, &s) == GP_OK, "sweep charts: found")) {
        gp_report_free(&r);
        return;
    }
    const gp_sweep_chart *c = s.n ? &s.charts[0] : NULL;
    tap_ok(s.n == 1 && c->param == GP_SWEEP_BLOCK && c->n_lines == 2 && c->first == &r.results[0],
           "sweep charts: one over the block, a line per variant (%zu)", s.n);
    const double values[] = {128, 256, 512};
    bool rows = c && c->n_values == 3;
    for (size_t i = 0; rows && i < 3; i++)
        rows = c->values[i] == values[i];
    tap_ok(rows, "sweep charts: a row per value the lines take, in order");
    gp_sweep_table t;
    if (c) {
        gp_sweep_table_of(&t, c, 0);
        char buf[64];
        tap_ok(t.part.n_columns == 3 && strcmp(t.columns[0].html, "block") == 0 &&
                   strcmp(t.columns[2].html, "b, GB/s") == 0,
               "sweep table: the parameter's column, then a column per line");
        tap_str_eq(gp_part_cell(&t.part, 0, &c->values[2], c, buf, sizeof buf).text, "512",
                   "sweep table: the value's cell");
        tap_near(gp_part_cell(&t.part, 2, &c->values[1], c, buf, sizeof buf).number, 400, 0,
                 "sweep table: a line's GB/s at the value");
        tap_ok(isnan(gp_part_cell(&t.part, 1, &c->values[2], c, buf, sizeof buf).number),
               "sweep table: unknown where the line has no result");
    }
    gp_sweep_charts_free(&s);
    gp_report_free(&r);
}

/* A chart of more lines than a part has columns: a table per GP_SWEEP_TABLE_LINES lines. */
static void sweep_tables(void)
{
    gp_report r;
    gp_report_init(&r);
    const size_t lines = GP_SWEEP_TABLE_LINES + 7;
    for (size_t i = 0; i < lines; i++) {
        char variant[16];
        snprintf(variant, sizeof variant, "v%zu", i);
        add(&r, variant, "int32", 4096, 128, 4, 1);
        add(&r, variant, "int32", 4096, 256, 4, 1);
    }
    gp_sweep_charts s;
    if (tap_ok(gp_sweep_charts_find(&r, &s) == GP_OK && s.n == 1 && s.charts[0].n_lines == lines,
               "sweep tables: one chart of %zu lines", lines)) {
        static gp_sweep_table t;
        gp_sweep_table_of(&t, &s.charts[0], GP_SWEEP_TABLE_LINES);
        char heading[32];
        snprintf(heading, sizeof heading, "v%d, GB/s", GP_SWEEP_TABLE_LINES);
        tap_ok(t.part.n_columns == 8 && strcmp(t.columns[1].html, heading) == 0 &&
                   t.columns[1].at == GP_SWEEP_TABLE_LINES,
               "sweep tables: the second table has the lines after the first's");
        gp_sweep_charts_free(&s);
    }
    gp_report_free(&r);
}

void test_group(void)
{
    problems();
    sweeps();
    sweeps_by_source();
    sweep_charts();
    sweep_tables();
}
