/* A kernel is its code, not its name (issue 44): the records of tests/fixtures/records/variants
 * (written by hand as the library writes them: jitScale from two modules of different code,
 * jitLoop whose work depends on an argument, a cudart kernel of unknown code) read into
 * launches with their codes, numbered into variants (report/variants.c), summarized per
 * variant with the counts that vary (report/exec_summary.c), and written as exec would write
 * them: tests/fixtures/exec-variants.json is that report, checked to stay so. To write it
 * again after a deliberate change: GPUPROF_EXEC_VARIANTS_OUT=tests/fixtures/exec-variants.json
 * build/tests/unit_tests >/dev/null, then its summary written again as every fixture's is,
 * by `gpuprof report FILE --json` (the averages over launches read back from JSON may differ
 * in their last bit). */
#include "tap.h"
#include "exec_records.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/status.h"
#include "records/records.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CODE_A 4254264600u
#define CODE_B 3919700441u

static const gp_exec_launch *launch_of(const gp_report *r, uint64_t id)
{
    for (size_t i = 0; i < r->exec.n_launches; i++)
        if (r->exec.launches[i].id == id)
            return &r->exec.launches[i];
    return NULL;
}

static bool launch_has(const gp_report *r, uint64_t id, uint64_t code, unsigned variant)
{
    const gp_exec_launch *l = launch_of(r, id);
    return l && l->code == code && l->variant == variant;
}

/* The codes of launch records, of `K` lines by their name records, and the variants. */
static void codes_and_variants(const gp_report *r)
{
    tap_ok(launch_has(r, 1, CODE_A, 1) && launch_has(r, 2, CODE_A, 1) &&
               launch_has(r, 5, CODE_A, 1) && launch_has(r, 11, CODE_A, 1),
           "variants: jitScale's launches of module A's code are variant 1 (ties: the code "
           "launched first)");
    tap_ok(launch_has(r, 3, CODE_B, 2) && launch_has(r, 4, CODE_B, 2) &&
               launch_has(r, 12, CODE_B, 2),
           "variants: those of module B's code variant 2");
    tap_ok(launch_has(r, 10, CODE_B, 2) && !launch_of(r, 10)->profiled,
           "variants: a launch only timed takes its code from its K line's name record");
    const gp_exec_launch *loop = launch_of(r, 6), *copy = launch_of(r, 9);
    tap_ok(loop && loop->code == CODE_A && loop->variants == 0 && copy && copy->code == 0 &&
               copy->variants == 0,
           "variants: a kernel of one code (known or not) has none");
    tap_ok(launch_of(r, 1)->variants == 2, "variants: jitScale has 2");
}

static const gp_exec_kernel *entry(const gp_exec_kernel *k, size_t n, const char *name,
                                   unsigned variant)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].kernel, name) == 0 && k[i].variant == variant)
            return &k[i];
    return NULL;
}

static const gp_metric_stats *stats(const gp_exec_kernel *k, const char *key)
{
    for (size_t i = 0; k && i < k->n_metrics; i++)
        if (strcmp(k->metrics[i].average.key, key) == 0)
            return &k->metrics[i];
    return NULL;
}

/* One summary entry per variant, a kernel's variants together; the varying counts noted. */
static void summary(const gp_report *r)
{
    gp_exec_kernel *k = NULL;
    size_t n = 0;
    if (!tap_ok(gp_exec_summarize(&r->exec, &k, &n) == GP_OK && n == 4,
                "variants summary: one entry per kernel and variant"))
        return;
    const gp_exec_kernel *a = entry(k, n, "jitScale", 1), *b = entry(k, n, "jitScale", 2);
    tap_ok(a && b && b == a + 1 && a->calls == 4 && b->calls == 4 && a->variants == 2 &&
               a->code == CODE_A && b->code == CODE_B,
           "variants summary: jitScale's two variants together, variant 1 first, each with "
           "its calls and code");
    const gp_metric_stats *la = stats(a, "gld_transactions_per_request");
    const gp_metric_stats *ea = stats(a, "gld_efficiency"), *eb = stats(b, "gld_efficiency");
    tap_ok(la && la->average.valid && la->average.value == 4.0 && ea && eb &&
               ea->average.value == 100.0 && eb->average.value == 100.0 && !a->varying[0] &&
               !b->varying[0],
           "variants summary: each variant's metrics from its own launches, no varying note");
    const gp_exec_kernel *loop = entry(k, n, "jitLoop", 0);
    const gp_metric_stats *ll = stats(loop, "gld_transactions_per_request");
    tap_ok(loop && strcmp(loop->varying,
                          "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum") == 0 &&
               loop->varying_min == 131072 && loop->varying_max == 524288,
           "variants summary: jitLoop's load sectors differ between launches of one code and "
           "shape: their range");
    tap_ok(ll && strstr(ll->average.note, GP_VARYING_NOTE) && strstr(ll->min.note, "524288"),
           "variants summary: its instruction-determined metrics carry the note and range");
    const gp_metric_stats *dram = stats(loop, "dram_throughput");
    tap_ok(dram && !dram->average.note[0], "variants summary: a hardware metric does not");
    char text[512];
    tap_ok(gp_exec_describe_variants(k, n, text, sizeof text) &&
               strstr(text, "1 kernel ran 2 codes") && strstr(text, "autotuning"),
           "variants summary: the sentence says how many ran and what made them");
    tap_ok(!gp_exec_describe_variants(k + 2, 2, text, sizeof text),
           "variants summary: no sentence without variants");
    gp_exec_summary_free(k, n);
}

/* Each code's per-line view, tied to its variant. */
static void views(const gp_report *r)
{
    unsigned seen = 0;
    for (size_t i = 0; i < r->exec.n_source_views; i++) {
        const gp_exec_source_view *v = &r->exec.source_views[i];
        const unsigned variant = gp_exec_source_variant(&r->exec, v);
        seen |= (v->code == CODE_A && variant == 1 && v->launch == 11) << 0;
        seen |= (v->code == CODE_B && variant == 2 && v->launch == 12) << 1;
    }
    tap_ok(r->exec.n_source_views == 2 && seen == 3,
           "variants: each code's patched launch is its variant's per-line view");
}

static void read_case(const gp_report *r)
{
    codes_and_variants(r);
    summary(r);
    views(r);
}

/* Several codes of a name with launches of unknown code: the unknown is a variant too; one
 * code with launches of unknown code: no variants. */
static void unknown_codes(void)
{
    gp_exec_launch l[4];
    memset(l, 0, sizeof l);
    char name[] = "k";
    for (size_t i = 0; i < 4; i++)
        l[i].kernel = name;
    l[0].code = 7;
    l[1].code = 7;
    l[2].code = 0;
    gp_exec_info e = {.launches = l, .n_launches = 3};
    tap_ok(gp_exec_number_variants(&e) == GP_OK && l[0].variants == 0 && l[2].variants == 0,
           "variants: launches of unknown code beside one known code are that code's");
    l[3].code = 9;
    e.n_launches = 4;
    tap_ok(gp_exec_number_variants(&e) == GP_OK && l[0].variant == 1 && l[2].variants == 3 &&
               l[3].variants == 3 && l[2].variant != l[3].variant,
           "variants: beside two known codes, the unknown one is a variant of its own");
}

/* The case read as gpuprof exec reads it (cmd_exec.c). */
static int exec_report(gp_report *r)
{
    static char *const command_line[] = {"gpuprof", "exec", "--source", "--json",
                                         "--output=exec-variants.json", "--",
                                         "build/tests/apps/jit_variants", NULL};
    return exec_report_of("variants", command_line, 7, 900, r);
}

/* exec-variants.json is the case as exec writes it, and reads back with its variants. */
static void fixture_is_the_records(void)
{
    gp_report made, fixture;
    char path[512];
    snprintf(path, sizeof path, "%s/exec-variants.json", tap_fixtures);
    int rc = exec_report(&made);
    char *json = rc == GP_OK ? tap_render_report(&made, (gp_render_options){.format = GP_OUT_JSON})
                             : NULL;
    const char *out = getenv("GPUPROF_EXEC_VARIANTS_OUT");
    FILE *f = json && out ? fopen(out, "w") : NULL;
    if (f) {
        fputs(json, f);
        fclose(f);
    }
    gp_report_init(&fixture);
    rc = gp_report_read_json(path, &fixture);
    char *again = rc == GP_OK ? tap_render_report(&fixture,
                                                  (gp_render_options){.format = GP_OUT_JSON})
                              : NULL;
    cJSON *a = json ? cJSON_Parse(json) : NULL, *b = again ? cJSON_Parse(again) : NULL;
    /* The summary is derived again from the launches read back: averages may differ in
     * their last bit, so the launches and views are what must be equal. */
    cJSON *ea = cJSON_GetObjectItem(a, "exec"), *eb = cJSON_GetObjectItem(b, "exec");
    cJSON_DeleteItemFromObject(ea, "kernels");
    cJSON_DeleteItemFromObject(eb, "kernels");
    const bool same = a && b && cJSON_Compare(ea, eb, true);
    if (!same)
        tap_diag("%s: %s", path, rc == GP_OK ? "differs from the records" : gp_error());
    tap_ok(same, "exec-variants.json is the records of the case as exec writes them");
    tap_ok(rc == GP_OK && launch_has(&fixture, 3, CODE_B, 2) &&
               launch_has(&fixture, 1, CODE_A, 1),
           "exec-variants.json reads back with each launch's code and variant");
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(json);
    free(again);
    gp_report_free(&made);
    gp_report_free(&fixture);
}

void test_variants(void)
{
    check_case("variants", read_case);
    unknown_codes();
    fixture_is_the_records();
}
