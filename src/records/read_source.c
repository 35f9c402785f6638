/* --source's records of records/read_source.h. A record that is not as the library writes it
 * is ignored with a warning (its instruction is then missing from its kernel's view). */
#include "records/read_source.h"

#include "gpuprof/order.h"
#include "gpuprof/status.h"
#include "records/launch_table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_LIMIT 9007199254740992ull /* 2^53: counts are exact in a JSON number below */
#define PATCHED_NOTE "patched by --source: not timed (a patched launch counts its instructions)"

/* A `source` record: its patched launch and its instruction (strings owned). */
typedef struct patched_instruction {
    int pid;
    uint64_t launch;
    size_t order;                /* its place among the records read: kept within a launch */
    gp_source_instruction ins;
} patched_instruction;

/* A `source_note` record. */
typedef struct kernel_note {
    int pid;
    char *kernel, *note;
    uint64_t code;               /* the kernel's code it is about (0: not known) */
} kernel_note;

void gp_records_free_source(reader *rd)
{
    source_records *s = &rd->source;
    for (size_t i = 0; i < s->n_ins; i++) {
        free(s->ins[i].ins.function);
        free(s->ins[i].ins.file);
    }
    for (size_t i = 0; i < s->n_notes; i++) {
        free(s->notes[i].kernel);
        free(s->notes[i].note);
    }
    free(s->ins);
    free(s->notes);
    *s = (source_records){0};
}

/* ---- the records ----------------------------------------------------------------------------- */

/* The counters of gp_source_counter, in its order. */
static int counts_of(gp_json_reader *j, const cJSON *o, uint64_t *counts)
{
    const cJSON *a;
    GP_TRY(gp_json_get_array(j, o, "counts", &a));
    return gp_json_get_wholes(j, a, "counts", GP_SRC_COUNTERS, 0, COUNT_LIMIT,
                              "12 counts, in the order of gp_source_counter", counts);
}

/* A record's fields; the strings point into the document. */
typedef struct {
    int pid;
    uint64_t launch;
    const char *kernel, *file;
    uint64_t crc, pc;
    uint32_t line;
    uint64_t counts[GP_SRC_COUNTERS];
} source_record;

static int source_of(gp_json_reader *j, const cJSON *o, source_record *r)
{
    unsigned context;
    int device;
    GP_TRY(gp_json_get_int(j, o, "pid", 0, &r->pid));
    GP_TRY(gp_json_get_uint(j, o, "context", 0, &context));
    GP_TRY(gp_json_get_int(j, o, "device", 0, &device));
    GP_TRY(gp_json_get_integer(j, o, "launch", 0, UINT64_MAX - 1, &r->launch));
    GP_TRY(gp_json_get_text(j, o, "kernel", &r->kernel));
    GP_TRY(gp_json_expect(j, "kernel", r->kernel[0] != '\0', "the kernel's mangled name"));
    GP_TRY(gp_json_get_code(j, o, "crc", false, &r->crc));
    GP_TRY(gp_json_get_integer(j, o, "pc", 0, UINT32_MAX, &r->pc));
    GP_TRY(gp_json_get_file_line(j, o, &r->file, &r->line));
    return counts_of(j, o, r->counts);
}

int gp_records_read_source(reader *rd, const cJSON *o)
{
    source_record r;
    if (source_of(&rd->json, o, &r) != GP_OK)
        return gp_records_ignore(rd, "the record is ignored: its kernel's per-line view lacks "
                                     "the instruction");
    source_records *s = &rd->source;
    patched_instruction *p = gp_append_zeroed(&s->ins, &s->n_ins, &s->ins_capacity, sizeof *p);
    if (!p)
        return gp_records_out_of_memory();
    *p = (patched_instruction){.pid = r.pid, .launch = r.launch, .order = s->n_ins - 1,
                               .ins = {.function = strdup(r.kernel), .pc = (uint32_t)r.pc,
                                       .crc = r.crc, .line = r.line}};
    memcpy(p->ins.counts, r.counts, sizeof r.counts);
    p->ins.file = r.file ? strdup(r.file) : NULL;
    return p->ins.function && (!r.file || p->ins.file) ? GP_OK : gp_records_out_of_memory();
}

int gp_records_read_source_note(reader *rd, const cJSON *o)
{
    int pid;
    const char *kernel, *note;
    uint64_t code;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_text(j, o, "kernel", &kernel) != GP_OK ||
        gp_json_get_code(j, o, "code", true, &code) != GP_OK ||
        gp_json_get_text(j, o, "note", &note) != GP_OK ||
        gp_json_expect(j, "note", note[0] != '\0', "why the kernel has no lines") != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    source_records *s = &rd->source;
    kernel_note *n = gp_append_zeroed(&s->notes, &s->n_notes, &s->notes_capacity, sizeof *n);
    if (!n)
        return gp_records_out_of_memory();
    *n = (kernel_note){.pid = pid, .kernel = strdup(kernel), .note = strdup(note),
                       .code = code};
    return n->kernel && n->note ? GP_OK : gp_records_out_of_memory();
}

/* ---- the views --------------------------------------------------------------------------------- */

static bool same_launch(const patched_instruction *a, const patched_instruction *b)
{
    return a->pid == b->pid && a->launch == b->launch;
}

static int by_launch(const void *a, const void *b)
{
    const patched_instruction *x = a, *y = b;
    const int launch = gp_records_launch_order(x->pid, x->launch, y->pid, y->launch);
    return launch ? launch : gp_order_u64(x->order, y->order);
}

/* The kernels of one patched launch (one, unless the records name several), as views. */
static int add_launch_views(gp_exec_info *e, const patched_instruction *p, size_t n,
                            gp_source_instruction *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = p[i].ins;
    gp_source_kernel *k;
    size_t nk;
    GP_TRY(gp_source_view_build(scratch, n, &k, &nk));
    int rc = gp_source_view_record(k, nk);
    size_t moved = 0;
    while (rc == GP_OK && moved < nk) {
        gp_exec_source_view *v;
        rc = gp_exec_add_source_view(e, &v);
        if (rc == GP_OK)
            *v = (gp_exec_source_view){.view = k[moved++], .pid = p[0].pid,
                                       .launch = p[0].launch, .code = p[0].ins.crc};
    }
    for (size_t i = moved; i < nk; i++) /* those not moved when memory ran out */
        gp_source_kernel_clear(&k[i]);
    free(k);
    return rc;
}

/* Each run of instructions of one (pid, launch), in the order they came. */
static int build_views(source_records *s, gp_exec_info *e)
{
    if (!s->n_ins)
        return GP_OK;
    qsort(s->ins, s->n_ins, sizeof *s->ins, by_launch);
    gp_source_instruction *scratch = malloc(s->n_ins * sizeof *scratch);
    if (!scratch)
        return gp_records_out_of_memory();
    int rc = GP_OK;
    for (size_t first = 0, end; rc == GP_OK && first < s->n_ins; first = end) {
        for (end = first + 1; end < s->n_ins && same_launch(&s->ins[first], &s->ins[end]);)
            end++;
        rc = add_launch_views(e, s->ins + first, end - first, scratch);
    }
    free(scratch);
    return rc;
}

/* A note is its kernel's view's in that process (the first note holds), or a view of its
 * own, without a launch. A view's code is its cubin's CRC; a note's is its launch's, 0 where
 * the library did not know it (a library loaded lazily, inject/codes.h): any view's. */
static int add_note(gp_exec_info *e, const kernel_note *n)
{
    for (size_t i = 0; i < e->n_source_views; i++) {
        gp_exec_source_view *v = &e->source_views[i];
        if (v->pid != n->pid || (n->code && v->code != n->code) ||
            strcmp(v->view.kernel, n->kernel) != 0)
            continue;
        if (!v->note && !(v->note = strdup(n->note)))
            return gp_records_out_of_memory();
        return GP_OK;
    }
    gp_exec_source_view *v;
    GP_TRY(gp_exec_add_source_view(e, &v));
    v->pid = n->pid;
    v->code = n->code;
    v->view.kernel = strdup(n->kernel);
    v->note = strdup(n->note);
    return v->view.kernel && v->note ? GP_OK : gp_records_out_of_memory();
}

/* The patched launch's time is not the kernel's own: its note says so. A graph node's lines
 * come from a shadow launch before its graph launch (the library's note on the view says
 * so): the node's own launches ran unpatched, and the graph launch's id is its nodes'. */
static int note_patched(reader *rd)
{
    const gp_exec_info *e = &rd->report->exec;
    for (size_t i = 0; i < e->n_source_views; i++) {
        const gp_exec_source_view *v = &e->source_views[i];
        gp_exec_launch *l =
            v->launch == GP_NO_LAUNCH ? NULL : gp_records_find_launch(rd, v->pid, v->launch, 0);
        if (l && !l->graph)
            GP_TRY(gp_records_add_note(l, PATCHED_NOTE));
    }
    return GP_OK;
}

int gp_records_finish_source(reader *rd)
{
    source_records *s = &rd->source;
    gp_exec_info *e = &rd->report->exec;
    GP_TRY(build_views(s, e));
    for (size_t i = 0; i < s->n_notes; i++)
        GP_TRY(add_note(e, &s->notes[i]));
    return note_patched(rd);
}
