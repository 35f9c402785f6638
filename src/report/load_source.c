/* The per-line view of report/load_source.h: each kernel's lines and instructions through
 * their parts (gpuprof/report_parts.h), a line's file and line beside; an exec view's warp
 * stalls (derived by the writer from exec.stalls) checked against the stalls read. */
#include "report/load_source.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/source_stalls.h"
#include "gpuprof/status.h"
#include "report/load_parts.h"
#include "report/part_load.h"

#include <math.h>
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
    GP_TRY(gp_json_get_code(rd, o, "code", true, &k->code));
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
    v->view.code = v->code;
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

/* ---- exec's views beside their warp stalls (gpuprof/source_stalls.h) ---------------------- */

/* A line's or instruction's stall keys as the writer derives them: none where the view has
 * no stalls joined (k NULL), else its samples, their share of k's and their top group. */
static int check_row_stalls(gp_json_reader *rd, const cJSON *o, const gp_stall_kernel *k,
                            const gp_stall_line *s)
{
    if (!k)
        return gp_json_expect(rd, "stall_samples", !gp_json_field(o, "stall_samples"),
                              "none: exec.stalls did not sample the kernel's code");
    uint64_t samples;
    double percent;
    GP_TRY(gp_json_get_integer(rd, o, "stall_samples", 0, UINT64_MAX, &samples));
    GP_TRY(gp_json_expect(rd, "stall_samples", samples == (s ? s->counts.samples : 0),
                          "its samples in exec.stalls"));
    GP_TRY(gp_json_get_number(rd, o, "stall_percent", 0, false, &percent));
    const double share = s ? s->counts.share : 0;
    GP_TRY(gp_json_expect(rd, "stall_percent", fabs(percent - share) <= 1e-6 * (1 + share),
                          "their share of the kernel code's samples in exec.stalls"));
    const gp_stall_group g = s ? gp_stall_top_group(&s->counts) : GP_STALL_GROUPS;
    const cJSON *group = gp_json_field(o, "stall_group");
    const bool same = g == GP_STALL_GROUPS ? !group
                      : cJSON_IsString(group) && !strcmp(group->valuestring, gp_stall_groups[g].key);
    return gp_json_expect(rd, "stall_group", same, g == GP_STALL_GROUPS
                          ? "none: no samples" : "the group of the most samples in exec.stalls");
}

/* Each element of o[key] (an array as read), its row's stalls by check. */
typedef const gp_stall_line *stalls_of(const gp_stall_kernel *k, const gp_source_kernel *v,
                                       size_t i);

static const gp_stall_line *line_stalls(const gp_stall_kernel *k, const gp_source_kernel *v,
                                        size_t i)
{
    return gp_source_line_stalls(k, v, &v->lines[i]);
}

static const gp_stall_line *pc_stalls(const gp_stall_kernel *k, const gp_source_kernel *v,
                                      size_t i)
{
    return gp_source_pc_stalls(k, v->pcs[i].pc);
}

static int check_rows(gp_json_reader *rd, const cJSON *o, const char *key, size_t n,
                      const gp_stall_kernel *k, const gp_source_kernel *v, stalls_of *of)
{
    const size_t at = gp_json_enter_key(rd, key);
    const cJSON *row = gp_json_field(o, key)->child;
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && row && i < n; i++, row = row->next) {
        const size_t at_i = gp_json_enter_index(rd, i);
        rc = check_row_stalls(rd, row, k, of(k, v, i));
        gp_json_leave(rd, at_i);
    }
    gp_json_leave(rd, at);
    return rc;
}

static int check_view_stalls(gp_json_reader *rd, const cJSON *o, const gp_exec_source_view *v,
                             const gp_stall_summary *s)
{
    const gp_stall_kernel *k = gp_source_stall_kernel(s, v->view.kernel, v->code);
    GP_TRY(check_rows(rd, o, gp_source_line_part.key, v->view.n_lines, k, &v->view,
                      line_stalls));
    return check_rows(rd, o, gp_source_pc_part.key, v->view.n_pcs, k, &v->view, pc_stalls);
}

int gp_report_check_source_stalls(gp_json_reader *rd, const cJSON *o, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    const cJSON *view = gp_json_field(o, "source_lines");
    if (!view)
        return GP_OK;
    gp_stall_summary s = {0};
    if (e->stalls.sampled)
        GP_TRY(gp_stall_summarize(e, NULL, &s));
    const size_t at = gp_json_enter_key(rd, "source_lines");
    int rc = GP_OK;
    view = view->child;
    for (size_t i = 0; rc == GP_OK && view && i < e->n_source_views; i++, view = view->next) {
        const size_t at_i = gp_json_enter_index(rd, i);
        rc = check_view_stalls(rd, view, &e->source_views[i], &s);
        gp_json_leave(rd, at_i);
    }
    gp_json_leave(rd, at);
    gp_stall_summary_free(&s);
    return rc;
}
