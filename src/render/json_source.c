/* The per-line view of render/json_source.h: for each kernel its lines (file, line, the
 * counters of gpuprof/sass_source.h by key, and the excess over the ideal) and its
 * instructions (offset, the index of their line, the counters); exec's views say where they
 * come from besides. */
#include "render/json_source.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/source_view.h"
#include "render/json_out.h"

static void add_counts(cJSON *o, const uint64_t *c)
{
    for (int k = 0; k < GP_SRC_COUNTERS; k++)
        cJSON_AddNumberToObject(o, gp_source_keys[k], (double)c[k]);
    cJSON_AddNumberToObject(o, "excess_sectors", (double)gp_source_excess(c));
}

static cJSON *line_json(const gp_source_line *l)
{
    cJSON *o = cJSON_CreateObject();
    if (l->file) {
        cJSON_AddStringToObject(o, "file", l->file);
        cJSON_AddNumberToObject(o, "line", l->line);
    } else {
        cJSON_AddNullToObject(o, "file");
        cJSON_AddNullToObject(o, "line");
    }
    add_counts(o, l->counts);
    return o;
}

static cJSON *pc_json(const gp_source_pc *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pc", p->pc);
    cJSON_AddNumberToObject(o, "line", (double)p->line);
    add_counts(o, p->counts);
    return o;
}

static cJSON *kernel_json(const gp_source_kernel *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", k->kernel);
    cJSON_AddBoolToObject(o, "has_lines", k->has_lines);
    cJSON *lines = cJSON_AddArrayToObject(o, "lines");
    for (size_t i = 0; i < k->n_lines; i++)
        cJSON_AddItemToArray(lines, line_json(&k->lines[i]));
    cJSON *pcs = cJSON_AddArrayToObject(o, "instructions");
    for (size_t i = 0; i < k->n_pcs; i++)
        cJSON_AddItemToArray(pcs, pc_json(&k->pcs[i]));
    return o;
}

void gp_json_source_lines(cJSON *result, const gp_result *res)
{
    if (!res->lines)
        return;
    cJSON *a = cJSON_AddArrayToObject(result, "source_lines");
    for (size_t i = 0; i < res->n_line_kernels; i++)
        cJSON_AddItemToArray(a, kernel_json(&res->lines[i]));
}

static cJSON *exec_view_json(const gp_exec_source_view *v, bool merged)
{
    cJSON *o = kernel_json(&v->view);
    if (merged && v->input != GP_INPUT_UNKNOWN)
        cJSON_AddNumberToObject(o, "source", (double)v->input);
    cJSON_AddNumberToObject(o, "pid", v->pid);
    gp_json_add_code(o, "code", v->code);
    if (v->launch == GP_NO_LAUNCH)
        cJSON_AddNullToObject(o, "launch");
    else
        cJSON_AddNumberToObject(o, "launch", (double)v->launch);
    if (v->note)
        cJSON_AddStringToObject(o, "note", v->note);
    else
        cJSON_AddNullToObject(o, "note");
    return o;
}

void gp_json_exec_source_lines(cJSON *exec, const gp_exec_info *e, bool merged)
{
    if (!gp_exec_has_source(e))
        return;
    cJSON *a = cJSON_AddArrayToObject(exec, "source_lines");
    for (size_t i = 0; i < e->n_source_views; i++)
        cJSON_AddItemToArray(a, exec_view_json(&e->source_views[i], merged));
}
