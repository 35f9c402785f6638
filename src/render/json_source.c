/* The per-line view of render/json_source.h: for each kernel its lines and its instructions,
 * the per-line view's parts (gpuprof/report_parts.h); exec's views say where they come from
 * besides, and with warp stalls (--stalls) each line's and instruction's samples
 * (gpuprof/source_stalls.h). */
#include "render/json_source.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/source_stalls.h"
#include "render/json_out.h"
#include "render/part.h"

#include <math.h>

/* The files its lines name as they were when recorded: path and hash (null: unread then). */
static void add_files(cJSON *o, const gp_source_kernel *k)
{
    if (!k->n_files)
        return;
    cJSON *a = cJSON_AddArrayToObject(o, "files");
    for (size_t i = 0; i < k->n_files; i++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "file", k->files[i].path);
        char hash[GP_SOURCE_HASH_LEN];
        gp_source_hash_text(k->files[i].hash, hash);
        if (k->files[i].read)
            cJSON_AddStringToObject(f, "hash", hash);
        else
            cJSON_AddNullToObject(f, "hash");
        cJSON_AddItemToArray(a, f);
    }
}

/* Its name, files, lines and instructions, its warp stalls beside (NULL: none). */
static cJSON *kernel_json(const gp_source_kernel *k, const gp_stall_kernel *stalls)
{
    gp_source_context ctx = gp_source_context_of(k);
    ctx.stalls = stalls;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", k->kernel);
    cJSON_AddBoolToObject(o, "has_lines", k->has_lines);
    add_files(o, k);
    gp_part_json(o, &gp_source_line_part, k->lines, k->n_lines, &ctx);
    gp_part_json(o, &gp_source_pc_part, k->pcs, k->n_pcs, &ctx);
    return o;
}

void gp_json_source_lines(cJSON *result, const gp_result *res)
{
    if (!res->lines)
        return;
    cJSON *a = cJSON_AddArrayToObject(result, "source_lines");
    for (size_t i = 0; i < res->n_line_kernels; i++) {
        cJSON *o = kernel_json(&res->lines[i], NULL);
        gp_json_add_code(o, "code", res->lines[i].code);
        cJSON_AddItemToArray(a, o);
    }
}

static cJSON *exec_view_json(const gp_exec_source_view *v, const gp_stall_summary *s,
                             bool merged)
{
    cJSON *o = kernel_json(&v->view, gp_source_stall_kernel(s, v->view.kernel, v->code));
    if (merged && v->input != GP_INPUT_UNKNOWN)
        cJSON_AddNumberToObject(o, "source", (double)v->input);
    cJSON_AddNumberToObject(o, "pid", v->pid);
    gp_json_add_code(o, "code", v->code);
    gp_json_add_number(o, "launch", v->launch == GP_NO_LAUNCH ? NAN : (double)v->launch);
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
    /* (out of host memory, the summary is empty, as exec.kernels is then) */
    gp_stall_summary s = {0};
    if (e->stalls.sampled)
        gp_stall_summarize(e, NULL, &s);
    cJSON *a = cJSON_AddArrayToObject(exec, "source_lines");
    for (size_t i = 0; i < e->n_source_views; i++)
        cJSON_AddItemToArray(a, exec_view_json(&e->source_views[i], &s, merged));
    gp_stall_summary_free(&s);
}
