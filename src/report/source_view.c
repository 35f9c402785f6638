/* The per-line view of gpuprof/source_view.h: instructions grouped by kernel, then by file
 * and line (each line's text is read by source_record.c, once the views are built). */
#include "gpuprof/source_view.h"

#include "gpuprof/status.h"
#include "report/sort_moved.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t gp_source_requests(const uint64_t *c)
{
    return c[GP_SRC_GLOBAL_LD] + c[GP_SRC_GLOBAL_ST];
}

uint64_t gp_source_excess(const uint64_t *c)
{
    return c[GP_SRC_SECTORS] > c[GP_SRC_SECTORS_IDEAL] ? c[GP_SRC_SECTORS] - c[GP_SRC_SECTORS_IDEAL]
                                                       : 0;
}

uint64_t gp_source_shared_requests(const uint64_t *c)
{
    return c[GP_SRC_SHARED_LD] + c[GP_SRC_SHARED_ST];
}

uint64_t gp_source_shared_excess(const uint64_t *c)
{
    return c[GP_SRC_WAVEFRONTS] > c[GP_SRC_WAVEFRONTS_IDEAL]
               ? c[GP_SRC_WAVEFRONTS] - c[GP_SRC_WAVEFRONTS_IDEAL]
               : 0;
}

uint64_t gp_source_local_requests(const uint64_t *c)
{
    return c[GP_SRC_LOCAL_LD] + c[GP_SRC_LOCAL_ST];
}

bool gp_source_moves_memory(const uint64_t *c)
{
    return gp_source_requests(c) || gp_source_shared_requests(c) || gp_source_local_requests(c) ||
           c[GP_SRC_SECTORS] || c[GP_SRC_WAVEFRONTS] || c[GP_SRC_LOCAL_SECTORS];
}

uint64_t gp_source_kernel_excess(const gp_source_kernel *k)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < k->n_lines; i++)
        sum += gp_source_excess(k->lines[i].counts);
    return sum;
}

uint64_t gp_source_kernel_shared_excess(const gp_source_kernel *k)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < k->n_lines; i++)
        sum += gp_source_shared_excess(k->lines[i].counts);
    return sum;
}

void gp_source_kernel_clear(gp_source_kernel *k)
{
    free(k->kernel);
    for (size_t l = 0; k->lines && l < k->n_lines; l++) { /* a copy's may be missing */
        free(k->lines[l].file);
        free(k->lines[l].text);
    }
    free(k->lines);
    free(k->pcs);
    for (size_t f = 0; k->files && f < k->n_files; f++)
        free(k->files[f].path);
    free(k->files);
    *k = (gp_source_kernel){0};
}

void gp_source_view_free(gp_source_kernel *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++)
        gp_source_kernel_clear(&k[i]);
    free(k);
}

/* ---- building ------------------------------------------------------------------------------ */

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The kernel's entry, added when new. */
static gp_source_kernel *kernel_of(gp_source_kernel **k, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*k)[i].kernel, name) == 0)
            return &(*k)[i];
    gp_source_kernel *grown = realloc(*k, (*n + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    *k = grown;
    gp_source_kernel *e = &grown[(*n)++];
    *e = (gp_source_kernel){.kernel = strdup(name)};
    return e->kernel ? e : NULL;
}

/* Its line's index, added when new; without line information each instruction is a line of
 * its own (file NULL, line 0). */
static int line_of(gp_source_kernel *k, const gp_source_instruction *v, size_t *at)
{
    for (size_t i = 0; v->file && i < k->n_lines; i++)
        if (k->lines[i].line == v->line && same_text(k->lines[i].file, v->file)) {
            *at = i;
            return GP_OK;
        }
    gp_source_line *grown = realloc(k->lines, (k->n_lines + 1) * sizeof *grown);
    if (!grown)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    k->lines = grown;
    gp_source_line *l = &grown[k->n_lines];
    *l = (gp_source_line){.file = v->file ? strdup(v->file) : NULL, .line = v->line};
    if (v->file && !l->file)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *at = k->n_lines++;
    return GP_OK;
}

static int add_instruction(gp_source_kernel *k, const gp_source_instruction *v)
{
    size_t at = 0;
    GP_TRY(line_of(k, v, &at));
    gp_source_pc *grown = realloc(k->pcs, (k->n_pcs + 1) * sizeof *grown);
    if (!grown)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    k->pcs = grown;
    gp_source_pc *p = &grown[k->n_pcs++];
    *p = (gp_source_pc){.pc = v->pc, .line = at};
    for (int c = 0; c < GP_SRC_COUNTERS; c++) {
        p->counts[c] = v->counts[c];
        k->lines[at].counts[c] += v->counts[c];
    }
    k->has_lines = k->has_lines || v->file != NULL;
    return GP_OK;
}

static int by_pc(const void *a, const void *b)
{
    const gp_source_pc *x = a, *y = b;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* A line's place: its file (none: "") and line. */
static int by_place(const void *a, const void *b)
{
    const gp_source_line *x = a, *y = b;
    const int file = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    return file ? file : (x->line > y->line) - (x->line < y->line);
}

/* Lines in file and line order (those without line information in the order they came);
 * each instruction's index follows its line. */
static int sort_lines(gp_source_kernel *k)
{
    size_t *moved;
    GP_TRY(gp_sort_moved(k->lines, k->n_lines, sizeof *k->lines, by_place, &moved));
    for (size_t i = 0; i < k->n_pcs; i++)
        k->pcs[i].line = moved[k->pcs[i].line];
    free(moved);
    qsort(k->pcs, k->n_pcs, sizeof *k->pcs, by_pc);
    return GP_OK;
}

int gp_source_view_build(const gp_source_instruction *v, size_t n_instructions,
                         gp_source_kernel **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    int rc = GP_OK;
    for (size_t i = 0; rc == GP_OK && i < n_instructions; i++) {
        gp_source_kernel *k = kernel_of(out, n, v[i].function);
        rc = k ? add_instruction(k, &v[i]) : gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (k && !k->code)
            k->code = v[i].crc;
    }
    for (size_t i = 0; rc == GP_OK && i < *n; i++)
        rc = sort_lines(&(*out)[i]);
    if (rc != GP_OK) {
        gp_source_view_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

int gp_source_view_copy(const gp_source_kernel *from, size_t n, gp_source_kernel **out)
{
    *out = n ? calloc(n, sizeof **out) : NULL;
    if (n && !*out)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < n; i++) {
        gp_source_kernel *k = &(*out)[i];
        const gp_source_kernel *f = &from[i];
        *k = (gp_source_kernel){.kernel = strdup(f->kernel), .n_lines = f->n_lines,
                                .n_pcs = f->n_pcs, .has_lines = f->has_lines,
                                .n_files = f->n_files, .code = f->code};
        k->lines = calloc(f->n_lines ? f->n_lines : 1, sizeof *k->lines);
        k->pcs = malloc((f->n_pcs ? f->n_pcs : 1) * sizeof *k->pcs);
        k->files = calloc(f->n_files ? f->n_files : 1, sizeof *k->files);
        bool ok = k->kernel && k->lines && k->pcs && k->files;
        for (size_t l = 0; ok && l < f->n_lines; l++) {
            const gp_source_line *from_line = &f->lines[l];
            k->lines[l] = *from_line;
            k->lines[l].file = from_line->file ? strdup(from_line->file) : NULL;
            k->lines[l].text = from_line->text ? strdup(from_line->text) : NULL;
            ok = (!from_line->file || k->lines[l].file) && (!from_line->text || k->lines[l].text);
        }
        for (size_t i = 0; ok && i < f->n_files; i++) {
            k->files[i] = f->files[i];
            ok = (k->files[i].path = strdup(f->files[i].path)) != NULL;
        }
        if (ok && f->n_pcs) /* a view of no instruction (exec: a note's) has no pcs at all */
            memcpy(k->pcs, f->pcs, f->n_pcs * sizeof *k->pcs);
        if (!ok) {
            gp_source_view_free(*out, i + 1);
            *out = NULL;
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        }
    }
    return GP_OK;
}
