/* exec --stalls' summaries (report/exec_stalls.c) on samples made here: each reason's group
 * (an unknown name in "other"), a kernel code's samples summed from its instructions and
 * numbered as the kernel summary numbers it, an instruction of two processes one row, lines
 * worst first with those under 1 % summed in one row, a line-less instruction its own line,
 * shares and top reasons, and a kernel of too few samples without shares; merged reasons'
 * arrays grow with the table. */
#include "tap.h"

#include "gpuprof/exec_stalls.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_groups(void)
{
    static const struct {
        const char *reason;
        gp_stall_group group;
    } want[] = {
        {"long_scoreboard", GP_STALL_MEMORY_LATENCY}, {"lg_throttle", GP_STALL_MEMORY_THROUGHPUT},
        {"tex_throttle", GP_STALL_MEMORY_THROUGHPUT}, {"drain", GP_STALL_MEMORY_THROUGHPUT},
        {"short_scoreboard", GP_STALL_SHARED_MEMORY}, {"mio_throttle", GP_STALL_SHARED_MEMORY},
        {"barrier", GP_STALL_SYNC}, {"membar", GP_STALL_SYNC}, {"sleeping", GP_STALL_SYNC},
        {"wait", GP_STALL_ISSUE}, {"not_selected", GP_STALL_ISSUE}, {"selected", GP_STALL_ISSUE},
        {"math_pipe_throttle", GP_STALL_ISSUE}, {"dispatch_stall", GP_STALL_ISSUE},
        {"no_instructions", GP_STALL_ISSUE}, {"imc_miss", GP_STALL_ISSUE},
        {"branch_resolving", GP_STALL_ISSUE}, {"misc", GP_STALL_OTHER},
        {"a_reason_of_a_later_chip", GP_STALL_OTHER}, {"", GP_STALL_OTHER},
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (gp_stall_group_of(want[i].reason) != want[i].group) {
            tap_diag("%s: group %d", want[i].reason, (int)gp_stall_group_of(want[i].reason));
            ok = false;
        }
    tap_ok(ok, "stalls: each reason in its group, memory first; an unknown name in other");
    bool named = true, one_sentence = true, listed = true;
    for (size_t g = 0; g < GP_STALL_GROUPS; g++) {
        const gp_stall_group_info *i = &gp_stall_groups[g];
        named = named && i->key[0] && i->header[0] && i->name[0] && i->fix[0];
        one_sentence = one_sentence && !strstr(i->fix, ". ") && i->fix[strlen(i->fix) - 1] != '.';
        for (size_t w = 0; w < sizeof want / sizeof *want; w++)
            if (want[w].group == g && want[w].reason[0] && g != GP_STALL_OTHER)
                listed = listed && strstr(i->reasons, want[w].reason);
    }
    tap_ok(named, "stalls: every group has a key, a heading, a name and what fixes it");
    tap_ok(one_sentence, "stalls: each group's fix is one sentence (the views end it)");
    tap_ok(listed, "stalls: each group's legend lists its reasons");
}

/* ---- the summary ------------------------------------------------------------------------- */

/* Instructions made here: kernel "_Z1av" (code 7) and "_Z1bv" (code 9, too few samples). */
static const struct {
    int pid;
    const char *kernel;
    uint64_t code;
    uint32_t pc, line;
    const char *file;
    uint64_t long_sb, barrier, wait, unknown;
} made[] = {
    {1, "_Z1av", 7, 0x10, 10, "/src/a.cu", 600, 0, 20, 0},
    {2, "_Z1av", 7, 0x10, 10, "/src/a.cu", 300, 0, 10, 0},   /* the same instruction */
    {1, "_Z1av", 7, 0x20, 10, "/src/a.cu", 50, 0, 0, 0},
    {1, "_Z1av", 7, 0x40, 12, "/src/a.cu", 0, 400, 5, 0},
    {1, "_Z1av", 7, 0x50, 13, "/src/a.cu", 0, 0, 6, 0},      /* 6 of 1494: under 1 % */
    {1, "_Z1av", 7, 0x60, 0, NULL, 0, 0, 3, 100},            /* no line */
    {1, "_Z1av", 7, 0x70, 14, "/src/a.cu", 0, 0, 0, 0},      /* 0 samples */
    {1, "_Z1bv", 9, 0x00, 3, "/src/b.cu", 40, 0, 9, 0},
};
#define N_MADE (sizeof made / sizeof made[0])
#define A_SAMPLES 1494u

static void make_samples(gp_exec_info *e)
{
    gp_exec_stalls *s = &e->stalls;
    s->sampled = true;
    const int long_sb = gp_exec_stall_reason(s, "long_scoreboard");
    const int barrier = gp_exec_stall_reason(s, "barrier");
    for (size_t i = 0; i < N_MADE; i++) {
        gp_exec_stall_pc *pc;
        if (gp_exec_add_stall_pc(s, &pc) != 0)
            return;
        pc->pid = made[i].pid;
        pc->kernel = strdup(made[i].kernel);
        pc->code = made[i].code;
        pc->pc = made[i].pc;
        pc->line = made[i].line;
        pc->file = made[i].file ? strdup(made[i].file) : NULL;
        pc->samples[long_sb] = made[i].long_sb;
        pc->samples[barrier] = made[i].barrier;
    }
    /* Reasons added once instructions exist: their arrays grow, the new counts zero. */
    const int wait = gp_exec_stall_reason(s, "wait");
    const int unknown = gp_exec_stall_reason(s, "tmem_wait");
    tap_ok(wait == 2 && unknown == 3 && gp_exec_stall_reason(s, "barrier") == barrier &&
               s->pcs[0].samples[wait] == 0,
           "stalls: a reason added later extends each instruction's samples with a zero; a "
           "known one keeps its index");
    for (size_t i = 0; i < N_MADE; i++) {
        s->pcs[i].samples[wait] = made[i].wait;
        s->pcs[i].samples[unknown] = made[i].unknown;
    }
    /* a launch of each kernel, so that the summary numbers them: b has more time, #1 */
    static const char *const names[][2] = {{"a()", "_Z1av"}, {"b()", "_Z1bv"}};
    for (size_t k = 0; k < 2; k++) {
        gp_exec_launch *l;
        if (gp_exec_add_launch(e, &l) != GP_OK)
            return;
        l->pid = 1;
        l->id = k + 1;
        l->kernel = strdup(names[k][0]);
        l->mangled = strdup(names[k][1]);
        l->code = k ? 9 : 7;
        l->duration_ms = k ? 2.0 : 1.0;
    }
}

static const gp_stall_line *line_of(const gp_stall_kernel *k, const char *file, uint32_t line)
{
    for (size_t i = 0; i < k->n_lines; i++)
        if ((file ? k->lines[i].file && strcmp(k->lines[i].file, file) == 0 : !k->lines[i].file) &&
            k->lines[i].line == line)
            return &k->lines[i];
    return NULL;
}

static void check_kernel_a(const gp_stall_summary *s, const gp_stall_kernel *a)
{
    tap_ok(a->counts.samples == A_SAMPLES && a->number == 2 && strcmp(a->name, "a()") == 0 &&
               a->code == 7,
           "stalls: a kernel code's samples summed, numbered and named as the kernel summary");
    tap_near(a->counts.share, 100.0 * A_SAMPLES / (A_SAMPLES + 49), 1e-9,
             "stalls: a kernel's share of every user sample");
    tap_near(gp_stall_group_share(&a->counts, GP_STALL_MEMORY_LATENCY), 100.0 * 950 / A_SAMPLES, 1e-9,
             "stalls: a group's share of the kernel's samples");
    tap_near(gp_stall_group_share(&a->counts, GP_STALL_OTHER), 100.0 * 100 / A_SAMPLES, 1e-9,
             "stalls: an unknown reason counts in other");
    char top[64];
    gp_stall_describe_top(&a->counts, s->stalls, 0, top, sizeof top);
    tap_str_eq(top, "long_scoreboard 63.6%", "stalls: the top reason and its share");
    gp_stall_describe_top(&a->counts, s->stalls, 1, top, sizeof top);
    tap_str_eq(top, "barrier 26.8%", "stalls: the second reason");
    const gp_stall_line *l10 = line_of(a, "/src/a.cu", 10), *none = line_of(a, NULL, 0);
    if (!tap_ok(l10 && none, "stalls: a line per file:line, one for the instructions without"))
        return;
    tap_ok(l10 == &a->lines[0] && l10->counts.samples == 980 && l10->n_pcs == 2 &&
               a->pcs[l10->first_pc].counts.samples == 930 && a->pcs[l10->first_pc].pc == 0x10,
           "stalls: lines worst first; one instruction of two processes is one row, by offset");
    tap_near(l10->counts.share, 100.0 * 980 / A_SAMPLES, 1e-9, "stalls: a line's share of its kernel");
    tap_ok(a->n_lines == 5 && a->shown == 3 && a->other.others == 2 &&
               a->other.counts.samples == 6 && a->other.kind == GP_STALL_ROW_OTHER,
           "stalls: the lines under 1 %% (and those of no samples) summed in one row");
    char label[128];
    gp_stall_describe_line(l10, false, label, sizeof label);
    tap_str_eq(label, "a.cu:10", "stalls: a line's label: its file's name and line");
    gp_stall_describe_line(l10, true, label, sizeof label);
    tap_str_eq(label, "/src/a.cu:10", "stalls: whole, the file as recorded");
    gp_stall_describe_line(none, false, label, sizeof label);
    tap_str_eq(label, GP_STALL_NO_LINE, "stalls: no line information");
    gp_stall_describe_line(&a->pcs[l10->first_pc], false, label, sizeof label);
    tap_str_eq(label, "  +0x0010", "stalls: an instruction by its offset");
    gp_stall_describe_line(&a->other, false, label, sizeof label);
    tap_str_eq(label, "2 other lines", "stalls: the other lines, counted");
}

static void check_kernel_b(const gp_stall_kernel *b, const gp_exec_stalls *st)
{
    char top[64];
    gp_stall_describe_top(&b->counts, st, 0, top, sizeof top);
    tap_ok(b->counts.samples == 49 && b->counts.few && b->lines[0].counts.few &&
               isnan(gp_stall_group_share(&b->counts, GP_STALL_MEMORY_LATENCY)) &&
               strcmp(top, "-") == 0 && b->number == 1,
           "stalls: a kernel of fewer than %d samples has no shares, nor its lines",
           GP_STALL_FEW_SAMPLES);
}

static void test_summary(void)
{
    gp_report r;
    gp_report_init(&r);
    r.is_exec = true;
    make_samples(&r.exec);
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    gp_kernel_labels kl;
    gp_stall_summary s;
    if (!tap_ok(gp_exec_number_variants(&r.exec) == GP_OK &&
                    gp_exec_summarize(&r.exec, &k, &nk) == GP_OK &&
                    gp_kernel_labels_init(&kl, k, nk, GP_KERNEL_NAME_SHORT) == GP_OK &&
                    gp_stall_summarize(&r.exec, &kl, &s) == GP_OK,
                "stalls: summarized")) {
        gp_report_free(&r);
        return;
    }
    tap_ok(s.n_kernels == 2 && s.samples == A_SAMPLES + 49 &&
               strcmp(s.kernels[0].mangled, "_Z1av") == 0,
           "stalls: a row per kernel code, the most samples first");
    if (s.n_kernels == 2) {
        check_kernel_a(&s, &s.kernels[0]);
        check_kernel_b(&s.kernels[1], &r.exec.stalls);
    }
    gp_stall_summary_free(&s);
    gp_kernel_labels_free(&kl);
    gp_exec_summary_free(k, nk);
    gp_report_free(&r);
}

/* Without a launch of its name, a kernel is named by its demangled name, unnumbered. */
static void test_unnumbered(void)
{
    gp_exec_info e = {0};
    gp_exec_stall_pc *pc;
    gp_stall_summary s;
    if (gp_exec_stall_reason(&e.stalls, "wait") != 0 || gp_exec_add_stall_pc(&e.stalls, &pc))
        return;
    pc->kernel = strdup("_Z6lonelyv");
    pc->samples[0] = 5;
    tap_ok(gp_stall_summarize(&e, NULL, &s) == GP_OK && s.n_kernels == 1 &&
               s.kernels[0].number == 0 && strcmp(s.kernels[0].name, "lonely()") == 0,
           "stalls: a kernel no launch ran is named demangled, without a number");
    gp_stall_summary_free(&s);
    gp_exec_stalls_free(&e.stalls);
}

void test_exec_stalls(void)
{
    test_groups();
    test_summary();
    test_unnumbered();
}
