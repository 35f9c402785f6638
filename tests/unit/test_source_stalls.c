/* The per-line view beside its warp stalls (report/source_stalls.c): a view joined to the
 * samples of its kernel's code only (the same mangled name and cubin CRC), a line by file and
 * line, a line-less entry and an instruction by offset, the top group memory first on ties,
 * and which lines people's views list (memory, or 1 % of the samples). Then a kernel command's
 * --source --stalls without its GPU: the lines of a run (a view of the hand-made
 * tests/fixtures/exec-source-transpose.json, as the runner would leave them on a result) made
 * the recorded stall report's views of gpuprof's own run (report/exec_source.c), written with
 * each line's stalls beside, read back and written the same. */
#include "tap.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/own_views.h"
#include "gpuprof/exec_stalls.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the join ----------------------------------------------------------------------------- */

/* Samples made here: kernel _Z1kv of code 5, 1000 samples: line 10 (two instructions),
 * line 11 (barrier, 5 samples: under 1 %), a line-less instruction. */
static const struct {
    uint32_t pc;
    const char *file;
    uint32_t line;
    uint64_t long_sb, barrier, wait;
} made[] = {
    {0x10, "/src/k.cu", 10, 600, 0, 0},
    {0x20, "/src/k.cu", 10, 0, 0, 300},
    {0x30, "/src/k.cu", 11, 0, 5, 0},
    {0x40, NULL, 0, 0, 45, 50},
};

static int make_stalls(gp_exec_info *e)
{
    gp_exec_stalls *s = &e->stalls;
    s->sampled = true;
    const int lsb = gp_exec_stall_reason(s, "long_scoreboard");
    const int bar = gp_exec_stall_reason(s, "barrier");
    const int wait = gp_exec_stall_reason(s, "wait");
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        gp_exec_stall_pc *p;
        GP_TRY(gp_exec_add_stall_pc(s, &p));
        *p = (gp_exec_stall_pc){.pid = 1, .kernel = strdup("_Z1kv"), .code = 5,
                                .pc = made[i].pc, .line = made[i].line,
                                .file = made[i].file ? strdup(made[i].file) : NULL,
                                .samples = p->samples};
        p->samples[lsb] = made[i].long_sb;
        p->samples[bar] = made[i].barrier;
        p->samples[wait] = made[i].wait;
    }
    return GP_OK;
}

/* A view of _Z1kv: line 10 (a global load at 0x10), line 11, line 12 (no samples), and a
 * line-less entry of its one instruction at 0x40. */
static gp_source_line view_lines[] = {
    {.file = "/src/k.cu", .line = 10, .counts = {[GP_SRC_INST] = 64, [GP_SRC_GLOBAL_LD] = 32}},
    {.file = "/src/k.cu", .line = 11, .counts = {[GP_SRC_INST] = 32}},
    {.file = "/src/k.cu", .line = 12, .counts = {[GP_SRC_INST] = 32}},
    {.file = NULL, .line = 0, .counts = {[GP_SRC_INST] = 32}},
};
static gp_source_pc view_pcs[] = {
    {.pc = 0x10, .line = 0, .counts = {[GP_SRC_INST] = 32, [GP_SRC_GLOBAL_LD] = 32}},
    {.pc = 0x20, .line = 0, .counts = {[GP_SRC_INST] = 32}},
    {.pc = 0x30, .line = 1, .counts = {[GP_SRC_INST] = 32}},
    {.pc = 0x38, .line = 2, .counts = {[GP_SRC_INST] = 32}},
    {.pc = 0x40, .line = 3, .counts = {[GP_SRC_INST] = 32}},
};
static const gp_source_kernel view = {.kernel = "_Z1kv", .lines = view_lines, .n_lines = 4,
                                      .pcs = view_pcs, .n_pcs = 5, .has_lines = true};

static void check_lines(const gp_stall_kernel *k)
{
    const gp_stall_line *l10 = gp_source_line_stalls(k, &view, &view_lines[0]);
    const gp_stall_line *l12 = gp_source_line_stalls(k, &view, &view_lines[2]);
    const gp_stall_line *entry = gp_source_line_stalls(k, &view, &view_lines[3]);
    tap_ok(l10 && l10->counts.samples == 900 && l10->line == 10 && !l12,
           "stalls beside lines: a line by file and line (900 samples), none for a line "
           "without");
    tap_ok(entry && entry->counts.samples == 95 && entry->kind == GP_STALL_ROW_PC,
           "stalls beside lines: a line-less entry by its one instruction's offset");
    const gp_stall_line *p20 = gp_source_pc_stalls(k, 0x20);
    tap_ok(p20 && p20->counts.samples == 300 && !gp_source_pc_stalls(k, 0x38),
           "stalls beside lines: an instruction by offset");
    tap_ok(gp_stall_top_group(&l10->counts) == GP_STALL_MEMORY_LATENCY &&
               gp_stall_top_group(&p20->counts) == GP_STALL_ISSUE,
           "stalls beside lines: the group of the most samples");
    gp_stall_counts tie = {.groups = {[GP_STALL_SYNC] = 4, [GP_STALL_SHARED_MEMORY] = 4}};
    gp_stall_counts none = {0};
    tap_ok(gp_stall_top_group(&tie) == GP_STALL_SHARED_MEMORY &&
               gp_stall_top_group(&none) == GP_STALL_GROUPS,
           "stalls beside lines: a tie goes memory first; no samples, no group");
    tap_ok(gp_source_line_listed(k, &view, &view_lines[0]) &&
               !gp_source_line_listed(k, &view, &view_lines[1]) &&
               !gp_source_line_listed(k, &view, &view_lines[2]) &&
               gp_source_line_listed(k, &view, &view_lines[3]) &&
               !gp_source_line_listed(NULL, &view, &view_lines[3]) &&
               gp_source_pc_listed(k, &view_pcs[1]) && !gp_source_pc_listed(k, &view_pcs[2]),
           "stalls beside lines: listed when moving memory or holding 1 %% of the samples (5 "
           "of 1000 is not), a line without memory unlisted without stalls");
}

static void test_join(void)
{
    gp_exec_info e = {0};
    gp_stall_summary s = {0};
    if (!tap_ok(make_stalls(&e) == GP_OK && gp_stall_summarize(&e, NULL, &s) == GP_OK,
                "stalls beside lines: samples made and summed"))
        return;
    const gp_stall_kernel *k = gp_source_stall_kernel(&s, "_Z1kv", 5);
    tap_ok(k && !gp_source_stall_kernel(&s, "_Z1kv", 6) && !gp_source_stall_kernel(&s, "_Z1jv", 5),
           "stalls beside lines: a view joined to its kernel's code only");
    if (k)
        check_lines(k);
    gp_exec_source_view *v;
    if (gp_exec_add_source_view(&e, &v) == GP_OK) {
        v->view.kernel = strdup("_Z1kv");
        v->code = 5;
        tap_ok(!gp_stall_kernel_has_lines(&e, k) && !gp_source_any_stalls(&e, &s),
               "stalls beside lines: a view without a launch shows no lines");
        v->launch = 3;
        tap_ok(gp_stall_kernel_has_lines(&e, k) && gp_source_any_stalls(&e, &s),
               "stalls beside lines: a view with a launch shows the kernel's");
    }
    gp_stall_summary_free(&s);
    gp_exec_stalls_free(&e.stalls);
    for (size_t i = 0; i < e.n_source_views; i++)
        gp_exec_source_view_clear(&e.source_views[i]);
    free(e.source_views);
}

/* ---- a kernel command's own run --------------------------------------------------------- */

static int read_fixture(const char *name, gp_report *r)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tap_fixtures, name);
    gp_report_init(r);
    return gp_report_read_json(path, r);
}

/* A run's result holding the fixture's views' kernels, as the runner leaves --source's. */
static int run_of(const gp_report *source, gp_report *run)
{
    gp_report_init(run);
    gp_result *res;
    GP_TRY(gp_report_add_result(run, &res));
    snprintf(res->family, sizeof res->family, "transpose");
    snprintf(res->variant, sizeof res->variant, "smem");
    snprintf(res->type, sizeof res->type, "float32");
    res->nx = res->ny = 8192;
    res->n = 8192u * 8192u;
    res->lines = calloc(source->exec.n_source_views, sizeof *res->lines);
    if (!res->lines)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < source->exec.n_source_views; i++) {
        gp_source_kernel *k;
        GP_TRY(gp_source_view_copy(&source->exec.source_views[i].view, 1, &k));
        res->lines[res->n_line_kernels++] = *k;
        free(k);
    }
    return GP_OK;
}

static void check_own_views(const gp_report *r, size_t n)
{
    bool all = r->exec.n_source_views == n && r->exec.request.source;
    for (size_t i = 0; all && i < n; i++) {
        const gp_exec_source_view *v = &r->exec.source_views[i];
        all = v->launch == GP_OWN_RUN && v->pid == 4321 && v->code == v->view.code &&
              v->code && v->note && strstr(v->note, "own run of transpose smem float32");
    }
    tap_ok(all, "own run: each result's kernel a view of gpuprof's own run (its process, its "
           "code, a note naming the result)");
    tap_ok(gp_exec_source_own_run(&r->exec), "own run: the report says so");
}

static void check_own_rendered(const gp_report *r)
{
    char *text = tap_render_report(r, (gp_render_options){.format = GP_OUT_TEXT});
    tap_ok(text && strstr(text, "(gpuprof's own run, process 4321)") &&
               strstr(text, "%stalls stall") && strstr(text, "counted in gpuprof's own run") &&
               strstr(text, "each line's stalls beside its sectors"),
           "own run: text shows the views of the run beside the sampled stalls");
    char *json = tap_render_report(r, (gp_render_options){.format = GP_OUT_JSON});
    gp_report back;
    gp_report_init(&back);
    const bool read = json && gp_report_parse_json(json, strlen(json), "own-run", &back) == GP_OK;
    if (!read)
        tap_diag("%s", gp_error());
    char *again = read ? tap_render_report(&back, (gp_render_options){.format = GP_OUT_JSON})
                       : NULL;
    tap_ok(json && strstr(json, "\"stall_samples\"") && strstr(json, "\"launch\":\t0,") && again &&
               strcmp(json, again) == 0,
           "own run: JSON with each line's stalls (launch 0), read back and written the same");
    gp_report_free(&back);
    free(again);
    free(json);
    free(text);
}

static void test_own_run(void)
{
    gp_report stalls, source, run;
    gp_report_init(&run);
    const bool read = read_fixture("exec-stalls-transpose.json", &stalls) == GP_OK &&
                      read_fixture("exec-source-transpose.json", &source) == GP_OK;
    if (!read)
        tap_diag("%s", gp_error());
    if (tap_ok(read && run_of(&source, &run) == GP_OK, "own run: the fixtures read")) {
        const size_t n = run.results[0].n_line_kernels;
        tap_ok(gp_exec_add_own_views(&stalls.exec, &run, 4321) == GP_OK, "own run: adopted");
        tap_ok(run.results[0].lines[0].kernel == NULL, "own run: the run's lines moved");
        check_own_views(&stalls, n);
        check_own_rendered(&stalls);
    }
    gp_report_free(&run);
    gp_report_free(&source);
    gp_report_free(&stalls);
}

void test_source_stalls(void)
{
    test_join();
    test_own_run();
}
