/* The per-line view of report/load_source.h. */
#include "report/load_source.h"

#include "gpuprof/source_view.h"
#include "gpuprof/status.h"
#include "report/load_parts.h"

#include <stdlib.h>
#include <string.h>

#define COUNT_LIMIT 9007199254740992ull /* 2^53: counts are exact in a JSON number below */

static int read_counts(gp_json_reader *rd, const cJSON *o, uint64_t *c)
{
    for (int k = 0; k < GP_SRC_COUNTERS; k++)
        GP_TRY(gp_json_get_integer(rd, o, gp_source_keys[k], 0, COUNT_LIMIT, &c[k]));
    uint64_t excess;
    GP_TRY(gp_json_get_integer(rd, o, "excess_sectors", 0, COUNT_LIMIT, &excess));
    return gp_json_expect(rd, "excess_sectors", excess == gp_source_excess(c),
                          "sectors minus ideal_sectors (0 when fewer)");
}

static void *grow(void *v, size_t n, size_t size)
{
    return realloc(v, (n + 1) * size);
}

static int read_line(gp_json_reader *rd, const cJSON *o, void *kernel)
{
    gp_source_kernel *k = kernel;
    gp_source_line *lines = grow(k->lines, k->n_lines, sizeof *lines);
    if (!lines)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    k->lines = lines;
    gp_source_line *l = &lines[k->n_lines++];
    *l = (gp_source_line){0};
    const cJSON *file;
    GP_TRY(gp_json_need(rd, o, "file", &file));
    if (!cJSON_IsNull(file)) {
        uint64_t line;
        GP_TRY(gp_json_get_string_copy(rd, o, "file", &l->file, false));
        GP_TRY(gp_json_get_integer(rd, o, "line", 1, UINT32_MAX, &line));
        l->line = (uint32_t)line;
    } else {
        const cJSON *line;
        GP_TRY(gp_json_need(rd, o, "line", &line));
        GP_TRY(gp_json_expect(rd, "line", cJSON_IsNull(line), "null when file is null"));
    }
    return read_counts(rd, o, l->counts);
}

static int read_pc(gp_json_reader *rd, const cJSON *o, void *kernel)
{
    gp_source_kernel *k = kernel;
    uint64_t pc, line;
    GP_TRY(gp_json_get_integer(rd, o, "pc", 0, UINT32_MAX, &pc));
    GP_TRY(gp_json_get_integer(rd, o, "line", 0, UINT64_MAX, &line));
    GP_TRY(gp_json_expect(rd, "line", line < k->n_lines, "the index of one of the lines"));
    gp_source_pc *pcs = grow(k->pcs, k->n_pcs, sizeof *pcs);
    if (!pcs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    k->pcs = pcs;
    gp_source_pc *p = &pcs[k->n_pcs++];
    *p = (gp_source_pc){.pc = (uint32_t)pc, .line = (size_t)line};
    return read_counts(rd, o, p->counts);
}

/* A kernel's name, lines and instructions, into k (zeroed). */
static int read_view(gp_json_reader *rd, const cJSON *o, gp_source_kernel *k)
{
    GP_TRY(gp_json_get_string_copy(rd, o, "kernel", &k->kernel, false));
    GP_TRY(gp_json_get_bool(rd, o, "has_lines", &k->has_lines));
    GP_TRY(gp_json_read_objects(rd, o, "lines", read_line, k));
    return gp_json_read_objects(rd, o, "instructions", read_pc, k);
}

static int read_kernel(gp_json_reader *rd, const cJSON *o, void *result)
{
    gp_result *res = result;
    gp_source_kernel *all = grow(res->lines, res->n_line_kernels, sizeof *all);
    if (!all)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    res->lines = all;
    gp_source_kernel *k = &all[res->n_line_kernels++];
    *k = (gp_source_kernel){0};
    return read_view(rd, o, k);
}

int gp_report_read_source_lines(gp_json_reader *rd, const cJSON *o, gp_result *res)
{
    if (!gp_json_field(o, "source_lines"))
        return GP_OK;
    /* An empty view still says --source was asked (and nothing ran or was counted). */
    res->lines = calloc(1, sizeof *res->lines);
    if (!res->lines)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return gp_json_read_objects(rd, o, "source_lines", read_kernel, res);
}

/* ---- exec's views ----------------------------------------------------------------------------- */

/* The patched launch's id, or null: none, and then no lines. */
static int read_view_launch(gp_json_reader *rd, const cJSON *o, gp_exec_source_view *v)
{
    const cJSON *launch;
    GP_TRY(gp_json_need(rd, o, "launch", &launch));
    if (!cJSON_IsNull(launch))
        return gp_json_get_integer(rd, o, "launch", 0, UINT64_MAX - 1, &v->launch);
    v->launch = GP_NO_LAUNCH;
    return gp_json_expect(rd, "launch", v->view.n_lines == 0 && v->view.n_pcs == 0,
                          "a launch id: the view has lines");
}

static int read_exec_view(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    gp_exec_source_view *v;
    GP_TRY(gp_exec_add_source_view(&r->exec, &v));
    GP_TRY(gp_report_read_input(rd, o, r, &v->input));
    GP_TRY(read_view(rd, o, &v->view));
    GP_TRY(gp_json_get_int(rd, o, "pid", 0, &v->pid));
    GP_TRY(gp_json_get_code(rd, o, "code", true, &v->code));
    GP_TRY(read_view_launch(rd, o, v));
    GP_TRY(gp_json_get_string_copy(rd, o, "note", &v->note, true));
    return gp_json_expect(rd, "note", !v->note || v->note[0], "a note or null, not \"\"");
}

int gp_report_read_exec_source_lines(gp_json_reader *rd, const cJSON *o, gp_report *r)
{
    if (!gp_json_field(o, "source_lines"))
        return GP_OK;
    r->exec.request.source = true; /* even with no view: --source was asked */
    return gp_json_read_objects(rd, o, "source_lines", read_exec_view, r);
}
