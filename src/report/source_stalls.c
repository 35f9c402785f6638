/* The per-line views joined to their warp-stall samples (gpuprof/source_stalls.h). */
#include "gpuprof/source_stalls.h"

#include <string.h>

const gp_stall_kernel *gp_source_stall_kernel(const gp_stall_summary *s, const char *mangled,
                                              uint64_t code)
{
    for (size_t i = 0; s && mangled && i < s->n_kernels; i++)
        if (s->kernels[i].code == code && strcmp(s->kernels[i].mangled, mangled) == 0)
            return &s->kernels[i];
    return NULL;
}

/* A view people read as a table: one with a launch (the others only say why not). */
static bool has_lines(const gp_exec_source_view *v)
{
    return v->launch != GP_NO_LAUNCH && v->view.kernel;
}

bool gp_stall_kernel_has_lines(const gp_exec_info *e, const gp_stall_kernel *k)
{
    for (size_t i = 0; i < e->n_source_views; i++) {
        const gp_exec_source_view *v = &e->source_views[i];
        if (has_lines(v) && v->code == k->code && strcmp(v->view.kernel, k->mangled) == 0)
            return true;
    }
    return false;
}

bool gp_source_any_stalls(const gp_exec_info *e, const gp_stall_summary *s)
{
    for (size_t i = 0; s && i < e->n_source_views; i++) {
        const gp_exec_source_view *v = &e->source_views[i];
        if (has_lines(v) && gp_source_stall_kernel(s, v->view.kernel, v->code))
            return true;
    }
    return false;
}

const gp_stall_line *gp_source_pc_stalls(const gp_stall_kernel *k, uint32_t pc)
{
    for (size_t i = 0; k && i < k->n_pcs; i++)
        if (k->pcs[i].pc == pc)
            return &k->pcs[i];
    return NULL;
}

/* The samples of a line-less entry: its one instruction's. */
static const gp_stall_line *entry_stalls(const gp_stall_kernel *k, const gp_source_kernel *v,
                                         const gp_source_line *l)
{
    const size_t line = (size_t)(l - v->lines);
    for (size_t p = 0; p < v->n_pcs; p++)
        if (v->pcs[p].line == line)
            return gp_source_pc_stalls(k, v->pcs[p].pc);
    return NULL;
}

const gp_stall_line *gp_source_line_stalls(const gp_stall_kernel *k, const gp_source_kernel *v,
                                           const gp_source_line *l)
{
    if (!k)
        return NULL;
    if (!l->file)
        return entry_stalls(k, v, l);
    for (size_t i = 0; i < k->n_lines; i++) {
        const gp_stall_line *s = &k->lines[i];
        if (s->file && s->line == l->line && strcmp(s->file, l->file) == 0)
            return s;
    }
    return NULL;
}

/* Whether a row holds enough of its kernel's samples for people's lists: as many as a line
 * the stall section lists. */
static bool sampled(const gp_stall_line *s)
{
    return s && s->counts.samples && s->counts.share >= GP_STALL_LINE_MIN_PERCENT;
}

bool gp_source_line_listed(const gp_stall_kernel *k, const gp_source_kernel *v,
                           const gp_source_line *l)
{
    return gp_source_moves_memory(l->counts) || sampled(gp_source_line_stalls(k, v, l));
}

bool gp_source_pc_listed(const gp_stall_kernel *k, const gp_source_pc *p)
{
    return gp_source_moves_memory(p->counts) || sampled(gp_source_pc_stalls(k, p->pc));
}

gp_stall_group gp_stall_top_group(const gp_stall_counts *c)
{
    gp_stall_group top = GP_STALL_GROUPS;
    for (size_t g = 0; g < GP_STALL_GROUPS; g++)
        if (c->groups[g] && (top == GP_STALL_GROUPS || c->groups[g] > c->groups[top]))
            top = (gp_stall_group)g;
    return top;
}
