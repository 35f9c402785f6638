/* The per-line view of report/load_source.h: each kernel's lines and instructions through
 * their parts (gpuprof/report_parts.h), a line's file and line beside. */
#include "report/load_source.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/load_parts.h"
#include "report/part_load.h"

#include <stdlib.h>
#include <string.h>

/* One more element, zeroed, at the end of *v's *n; NULL when out of memory. */
static void *append(void **v, size_t *n, size_t size)
{
    char *grown = realloc(*v, (*n + 1) * size);
    if (!grown)
        return NULL;
    *v = grown;
    memset(grown + *n * size, 0, size);
    return grown + (*n)++ * size;
}

/* The kernel whose lines are read, and the next of them. */
typedef struct {
    const gp_source_kernel *kernel;
    gp_source_line *next;
} line_cursor;

/* The rows of part t, o[t->key]: an array that must be there. */
static int read_part(gp_json_reader *rd, const cJSON *o, const gp_part *t, void **rows,
                     size_t *n)
{
    const cJSON *a;
    GP_TRY(gp_json_get_array(rd, o, t->key, &a));
    return gp_part_load(rd, o, t, rows, n);
}

/* The next line's file and line: a string and a whole number, or null and null (the part's
 * loader takes no null word); and its recorded text where the view has files (a string, or
 * null where its file was not read), none where it has not (a report from before). */
static int read_place(gp_json_reader *rd, const cJSON *o, void *lines_of)
{
    line_cursor *at = lines_of;
    gp_source_line *l = at->next++;
    const cJSON *file, *line;
    if (at->kernel->n_files)
        GP_TRY(gp_json_get_string_copy(rd, o, "text", &l->text, true));
    else
        GP_TRY(gp_json_expect(rd, "text", !gp_json_field(o, "text"),
                              "no text: the kernel's files were not recorded"));
    GP_TRY(gp_json_need(rd, o, "file", &file));
    if (cJSON_IsNull(file)) {
        GP_TRY(gp_json_need(rd, o, "line", &line));
        return gp_json_expect(rd, "line", cJSON_IsNull(line), "null when file is null");
    }
    uint64_t number;
    GP_TRY(gp_json_get_string_copy(rd, o, "file", &l->file, false));
    GP_TRY(gp_json_get_integer(rd, o, "line", 1, UINT32_MAX, &number));
    l->line = (uint32_t)number;
    return GP_OK;
}

/* Each instruction's line is one of the kernel's. */
static int check_instruction_lines(gp_json_reader *rd, const gp_source_kernel *k)
{
    for (size_t i = 0; i < k->n_pcs; i++)
        if (k->pcs[i].line >= k->n_lines) {
            const size_t at = gp_json_enter_key(rd, gp_source_pc_part.key);
            gp_json_enter_index(rd, i);
            const int rc = gp_json_expect(rd, "line", false, "the index of one of the lines");
            gp_json_leave(rd, at);
            return rc;
        }
    return GP_OK;
}

/* One recorded file: its path, and its hash or null (unread when recorded). */
static int read_file(gp_json_reader *rd, const cJSON *o, void *kernel)
{
    gp_source_kernel *k = kernel;
    gp_source_file *f = append((void **)&k->files, &k->n_files, sizeof *f);
    if (!f)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    char *hash;
    GP_TRY(gp_json_get_string_copy(rd, o, "file", &f->path, false));
    GP_TRY(gp_json_get_string_copy(rd, o, "hash", &hash, true));
    f->read = hash != NULL;
    const bool ok = !hash || gp_source_hash_read(hash, &f->hash);
    free(hash);
    return gp_json_expect(rd, "hash", ok, "\"fnv1a64:\" and 16 hex digits, or null");
}

/* A kernel's name, recorded files, lines and instructions, into k (zeroed). */
static int read_view(gp_json_reader *rd, const cJSON *o, gp_source_kernel *k)
{
    void *rows;
    GP_TRY(gp_json_get_string_copy(rd, o, "kernel", &k->kernel, false));
    GP_TRY(gp_json_get_bool(rd, o, "has_lines", &k->has_lines));
    if (gp_json_field(o, "files"))
        GP_TRY(gp_json_read_objects(rd, o, "files", read_file, k));
    GP_TRY(read_part(rd, o, &gp_source_line_part, &rows, &k->n_lines));
    k->lines = rows;
    line_cursor at = {k, k->lines};
    GP_TRY(gp_json_read_objects(rd, o, gp_source_line_part.key, read_place, &at));
    GP_TRY(read_part(rd, o, &gp_source_pc_part, &rows, &k->n_pcs));
    k->pcs = rows;
    return check_instruction_lines(rd, k);
}

static int read_kernel(gp_json_reader *rd, const cJSON *o, void *result)
{
    gp_result *res = result;
    gp_source_kernel *k = append((void **)&res->lines, &res->n_line_kernels, sizeof *k);
    if (!k)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
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
