/* exec --stalls' summaries (gpuprof/exec_stalls.h): the reasons' groups, and the sampled
 * instructions summed per kernel code, per source line and per instruction. Report layer:
 * never prints, never exits. */
#include "gpuprof/exec_stalls.h"

#include "gpuprof/demangle.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the groups -------------------------------------------------------------------------- */

#define GROUP_INFO(id, key_, header_, name_, reasons_, fix_)                                 \
    [id] = {.key = key_, .header = header_, .name = name_, .reasons = reasons_, .fix = fix_},
const gp_stall_group_info gp_stall_groups[GP_STALL_GROUPS] = {GP_STALL_GROUP_TABLE(GROUP_INFO)};

/* ncu's reason names (without smsp__pcsamp_warps_issue_stalled_ and _not_issued). */
static const struct {
    const char *name;
    gp_stall_group group;
} reason_groups[] = {
    {"long_scoreboard", GP_STALL_MEMORY_LATENCY},
    {"lg_throttle", GP_STALL_MEMORY_THROUGHPUT},
    {"tex_throttle", GP_STALL_MEMORY_THROUGHPUT},
    {"drain", GP_STALL_MEMORY_THROUGHPUT},
    {"short_scoreboard", GP_STALL_SHARED_MEMORY},
    {"mio_throttle", GP_STALL_SHARED_MEMORY},
    {"barrier", GP_STALL_SYNC},
    {"membar", GP_STALL_SYNC},
    {"sleeping", GP_STALL_SYNC},
    {"warpgroup_arrive", GP_STALL_SYNC}, /* Hopper: at a warpgroup's arrive (wgmma's fence) */
    {"wait", GP_STALL_ISSUE},
    {"not_selected", GP_STALL_ISSUE},
    {"selected", GP_STALL_ISSUE},
    {"math_pipe_throttle", GP_STALL_ISSUE},
    {"dispatch_stall", GP_STALL_ISSUE},
    {"no_instructions", GP_STALL_ISSUE},
    {"imc_miss", GP_STALL_ISSUE},
    {"branch_resolving", GP_STALL_ISSUE},
    {"gmma", GP_STALL_ISSUE},   /* Hopper: waiting on a warpgroup MMA's operands */
    {"misc", GP_STALL_OTHER},
};

gp_stall_group gp_stall_group_of(const char *reason)
{
    for (size_t i = 0; i < sizeof reason_groups / sizeof *reason_groups; i++)
        if (strcmp(reason_groups[i].name, reason) == 0)
            return reason_groups[i].group;
    return GP_STALL_OTHER;
}

/* ---- counts ------------------------------------------------------------------------------ */

static int counts_init(gp_stall_counts *c, size_t n_reasons)
{
    *c = (gp_stall_counts){0};
    c->reasons = calloc(n_reasons ? n_reasons : 1, sizeof *c->reasons);
    return c->reasons ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

static void counts_add(gp_stall_counts *c, const uint64_t *samples, uint64_t not_issued,
                       size_t n_reasons)
{
    for (size_t r = 0; r < n_reasons; r++)
        c->reasons[r] += samples[r];
    c->not_issued += not_issued;
}

/* The reason of the most samples not among top[0 .. i); SIZE_MAX: none has any. */
static size_t next_top(const gp_stall_counts *c, size_t i, size_t n_reasons)
{
    size_t best = SIZE_MAX;
    for (size_t r = 0; r < n_reasons; r++) {
        bool taken = false;
        for (size_t t = 0; t < i; t++)
            taken = taken || c->top[t] == r;
        if (!taken && c->reasons[r] && (best == SIZE_MAX || c->reasons[r] > c->reasons[best]))
            best = r;
    }
    return best;
}

/* Its totals, groups and top reasons from its reasons; its share of `whole` samples. */
static void counts_finish(gp_stall_counts *c, const gp_stall_group *groups, size_t n_reasons,
                          uint64_t whole, bool few)
{
    c->samples = 0;
    memset(c->groups, 0, sizeof c->groups);
    for (size_t r = 0; r < n_reasons; r++) {
        c->samples += c->reasons[r];
        c->groups[groups[r]] += c->reasons[r];
    }
    for (size_t i = 0; i < GP_STALL_TOP; i++)
        c->top[i] = next_top(c, i, n_reasons);
    c->share = whole ? 100.0 * (double)c->samples / (double)whole : NAN;
    c->few = few;
}

double gp_stall_group_share(const gp_stall_counts *c, gp_stall_group g)
{
    if (c->few || !c->samples)
        return NAN;
    return 100.0 * (double)c->groups[g] / (double)c->samples;
}

void gp_stall_describe_top(const gp_stall_counts *c, const gp_exec_stalls *s, size_t i,
                           char *buf, size_t len)
{
    const size_t r = i < GP_STALL_TOP ? c->top[i] : SIZE_MAX;
    if (c->few)
        snprintf(buf, len, "-");
    else if (r == SIZE_MAX || r >= s->n_reasons)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%s %.1f%%", s->reasons[r],
                 100.0 * (double)c->reasons[r] / (double)c->samples);
}

void gp_stall_describe_line(const gp_stall_line *l, bool whole, char *buf, size_t len)
{
    if (l->kind == GP_STALL_ROW_PC) {
        snprintf(buf, len, "  +0x%04x", l->pc);
        return;
    }
    if (l->kind == GP_STALL_ROW_OTHER) {
        snprintf(buf, len, "%zu other line%s", l->others, l->others == 1 ? "" : "s");
        return;
    }
    if (!l->file) {
        snprintf(buf, len, "%s", GP_STALL_NO_LINE);
        return;
    }
    const char *slash = strrchr(l->file, '/');
    snprintf(buf, len, "%s:%u", whole || !slash ? l->file : slash + 1, l->line);
}

/* ---- the instructions in order --------------------------------------------------------- */

static int compare_files(const char *a, const char *b)
{
    if (!a || !b)
        return (a == NULL) - (b == NULL);  /* no line last */
    return strcmp(a, b);
}

static int compare_codes(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

/* By kernel code, then line, then offset: a kernel's, a line's and an instruction's samples
 * (of several processes or reports) next to each other. */
static int by_place(const void *a, const void *b)
{
    const gp_exec_stall_pc *x = *(const gp_exec_stall_pc *const *)a;
    const gp_exec_stall_pc *y = *(const gp_exec_stall_pc *const *)b;
    int c = strcmp(x->kernel, y->kernel);
    if (!c)
        c = compare_codes(x->code, y->code);
    if (!c)
        c = compare_files(x->file, y->file);
    if (!c)
        c = compare_codes(x->line, y->line);
    return c ? c : compare_codes(x->pc, y->pc);
}

static bool same_kernel(const gp_exec_stall_pc *x, const gp_exec_stall_pc *y)
{
    return strcmp(x->kernel, y->kernel) == 0 && x->code == y->code;
}

static bool same_line(const gp_exec_stall_pc *x, const gp_exec_stall_pc *y)
{
    return same_kernel(x, y) && compare_files(x->file, y->file) == 0 && x->line == y->line;
}

/* ---- a kernel ---------------------------------------------------------------------------- */

static bool of_kernel(const gp_exec_launch *l, const char *mangled)
{
    return strcmp(l->mangled ? l->mangled : l->kernel, mangled) == 0;
}

/* Its name and #N as the kernel summary gives them: of a launch of its name and code, or of
 * its name where the kernel ran one code; else its name demangled, unnumbered. */
static int name_kernel(gp_stall_kernel *k, const gp_exec_info *e, const gp_kernel_labels *kl)
{
    const gp_exec_launch *any = NULL, *same = NULL;
    for (size_t i = 0; i < e->n_launches && !same; i++) {
        const gp_exec_launch *l = &e->launches[i];
        if (!of_kernel(l, k->mangled))
            continue;
        any = any ? any : l;
        same = l->code == k->code ? l : NULL;
    }
    const gp_exec_launch *l = same ? same : any && !any->variants ? any : NULL;
    if (l) {
        k->variant = l->variant;
        k->number = kl ? gp_kernel_labels_number(kl, l->kernel, l->variant) : 0;
    }
    if (any)
        k->name = strdup(any->kernel);
    else if (!(k->name = gp_demangle(k->mangled)))
        k->name = strdup(k->mangled);
    return k->name ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

typedef struct {
    const gp_exec_stalls *s;
    gp_stall_group *groups;      /* per reason */
} summing;

/* A row of the instructions at[0 .. n), kind `kind`. */
static int sum_row(const summing *m, gp_stall_line *row, gp_stall_row_kind kind,
                   const gp_exec_stall_pc *const *at, size_t n)
{
    GP_TRY(counts_init(&row->counts, m->s->n_reasons));
    row->kind = kind;
    row->file = at[0]->file;
    row->line = at[0]->line;
    row->pc = at[0]->pc;
    for (size_t i = 0; i < n; i++)
        counts_add(&row->counts, at[i]->samples, at[i]->not_issued, m->s->n_reasons);
    return GP_OK;
}

/* The kernel's lines and instructions from at[0 .. n), its instructions in place order. */
static int sum_lines(const summing *m, gp_stall_kernel *k, const gp_exec_stall_pc *const *at,
                     size_t n)
{
    k->lines = calloc(n, sizeof *k->lines);
    k->pcs = calloc(n, sizeof *k->pcs);
    if (!k->lines || !k->pcs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0, line_end; i < n; i = line_end) {
        for (line_end = i + 1; line_end < n && same_line(at[i], at[line_end]); line_end++)
            ;
        gp_stall_line *line = &k->lines[k->n_lines++];
        GP_TRY(sum_row(m, line, GP_STALL_ROW_LINE, at + i, line_end - i));
        line->first_pc = k->n_pcs;
        for (size_t p = i, pc_end; p < line_end; p = pc_end) {
            for (pc_end = p + 1; pc_end < line_end && at[pc_end]->pc == at[p]->pc; pc_end++)
                ;
            GP_TRY(sum_row(m, &k->pcs[k->n_pcs++], GP_STALL_ROW_PC, at + p, pc_end - p));
            line->n_pcs++;
        }
    }
    return GP_OK;
}

static int most_samples_first(const void *a, const void *b)
{
    const gp_stall_line *x = a, *y = b;
    if (x->counts.samples != y->counts.samples)
        return x->counts.samples > y->counts.samples ? -1 : 1;
    const int c = compare_files(x->file, y->file);
    return c ? c : compare_codes(x->line, y->line);
}

/* Every row's totals; the lines worst first, those below GP_STALL_LINE_MIN_PERCENT summed. */
static int finish_kernel(const summing *m, gp_stall_kernel *k, uint64_t all)
{
    const size_t n = m->s->n_reasons;
    for (size_t i = 0; i < k->n_lines; i++)
        counts_add(&k->counts, k->lines[i].counts.reasons, k->lines[i].counts.not_issued, n);
    counts_finish(&k->counts, m->groups, n, all, false);
    const bool few = k->counts.samples < GP_STALL_FEW_SAMPLES;
    k->counts.few = few;
    for (size_t i = 0; i < k->n_pcs; i++)
        counts_finish(&k->pcs[i].counts, m->groups, n, k->counts.samples, few);
    for (size_t i = 0; i < k->n_lines; i++)
        counts_finish(&k->lines[i].counts, m->groups, n, k->counts.samples, few);
    qsort(k->lines, k->n_lines, sizeof *k->lines, most_samples_first);
    while (k->shown < k->n_lines &&
           k->lines[k->shown].counts.share >= GP_STALL_LINE_MIN_PERCENT)
        k->shown++;
    GP_TRY(counts_init(&k->other.counts, n));
    k->other.kind = GP_STALL_ROW_OTHER;
    k->other.others = k->n_lines - k->shown;
    for (size_t i = k->shown; i < k->n_lines; i++)
        counts_add(&k->other.counts, k->lines[i].counts.reasons,
                   k->lines[i].counts.not_issued, n);
    counts_finish(&k->other.counts, m->groups, n, k->counts.samples, few);
    return GP_OK;
}

static int add_kernel(gp_stall_summary *s, const summing *m, const gp_exec_info *e,
                      const gp_kernel_labels *kl, const gp_exec_stall_pc *const *at, size_t n)
{
    gp_stall_kernel *k = &s->kernels[s->n_kernels++];
    k->mangled = at[0]->kernel;
    k->code = at[0]->code;
    GP_TRY(counts_init(&k->counts, m->s->n_reasons));
    GP_TRY(name_kernel(k, e, kl));
    return sum_lines(m, k, at, n);
}

static int most_samples_kernel_first(const void *a, const void *b)
{
    const gp_stall_kernel *x = a, *y = b;
    if (x->counts.samples != y->counts.samples)
        return x->counts.samples > y->counts.samples ? -1 : 1;
    if (x->number != y->number)   /* numbered first, in #N order */
        return x->number && (!y->number || x->number < y->number) ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The kernels of the instructions in place order. */
static int sum_kernels(gp_stall_summary *s, const summing *m, const gp_exec_info *e,
                       const gp_kernel_labels *kl, const gp_exec_stall_pc *const *at, size_t n)
{
    s->kernels = calloc(n ? n : 1, sizeof *s->kernels);
    if (!s->kernels)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0, end; i < n; i = end) {
        for (end = i + 1; end < n && same_kernel(at[i], at[end]); end++)
            ;
        GP_TRY(add_kernel(s, m, e, kl, at + i, end - i));
    }
    for (size_t i = 0; i < s->n_kernels; i++)
        for (size_t l = 0; l < s->kernels[i].n_lines; l++)
            for (size_t r = 0; r < m->s->n_reasons; r++)
                s->samples += s->kernels[i].lines[l].counts.reasons[r];
    for (size_t i = 0; i < s->n_kernels; i++)
        GP_TRY(finish_kernel(m, &s->kernels[i], s->samples));
    qsort(s->kernels, s->n_kernels, sizeof *s->kernels, most_samples_kernel_first);
    return GP_OK;
}

int gp_stall_summarize(const gp_exec_info *e, const gp_kernel_labels *kl, gp_stall_summary *s)
{
    *s = (gp_stall_summary){.stalls = &e->stalls};
    const gp_exec_stalls *st = &e->stalls;
    const gp_exec_stall_pc **at = malloc((st->n_pcs ? st->n_pcs : 1) * sizeof *at);
    gp_stall_group *groups = malloc((st->n_reasons ? st->n_reasons : 1) * sizeof *groups);
    int rc = at && groups ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < st->n_pcs; i++)
        at[i] = &st->pcs[i];
    for (size_t r = 0; rc == GP_OK && r < st->n_reasons; r++)
        groups[r] = gp_stall_group_of(st->reasons[r]);
    if (rc == GP_OK) {
        qsort(at, st->n_pcs, sizeof *at, by_place);
        rc = sum_kernels(s, &(summing){.s = st, .groups = groups}, e, kl, at, st->n_pcs);
    }
    free(groups);
    free(at);
    if (rc != GP_OK)
        gp_stall_summary_free(s);
    return rc;
}

static void free_rows(gp_stall_line *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++)
        free(rows[i].counts.reasons);
    free(rows);
}

void gp_stall_summary_free(gp_stall_summary *s)
{
    for (size_t i = 0; i < s->n_kernels; i++) {
        gp_stall_kernel *k = &s->kernels[i];
        free(k->counts.reasons);
        free(k->name);
        free_rows(k->lines, k->n_lines);
        free_rows(k->pcs, k->n_pcs);
        free(k->other.counts.reasons);
    }
    free(s->kernels);
    *s = (gp_stall_summary){0};
}

int gp_stall_view_init(gp_stall_view *v, const gp_exec_info *e)
{
    *v = (gp_stall_view){0};
    int rc = gp_exec_summarize(e, &v->kernels, &v->n_kernels);
    if (rc == GP_OK)
        rc = gp_kernel_labels_init(&v->labels, v->kernels, v->n_kernels, GP_KERNEL_NAME_SHORT);
    if (rc == GP_OK)
        rc = gp_stall_summarize(e, &v->labels, &v->summary);
    if (rc != GP_OK)
        gp_stall_view_free(v);
    return rc;
}

void gp_stall_view_free(gp_stall_view *v)
{
    gp_stall_summary_free(&v->summary);
    gp_kernel_labels_free(&v->labels);
    gp_exec_summary_free(v->kernels, v->n_kernels);
    *v = (gp_stall_view){0};
}
