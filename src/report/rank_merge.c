/* gpuprof report r0.json r1.json ...: the ranks of a distributed job made one rank view
 * (gpuprof/ranks.h), one file at a time. Each file is folded into the view as soon as it is
 * read, and freed by the caller before the next is read: what stays is the view (a few
 * numbers per kernel and rank, and each rank's file name), the header of the lowest rank,
 * each distinct warning once, and a table of the kernels by identity. So merging a thousand
 * ranks takes the memory of one report and its view, not of a thousand reports.
 *
 * Each file is an exec report with a rank, or a rank view already (its ranks join this one's);
 * no rank twice. The merged report's header (command line, GPU, profiler, program) is the
 * lowest rank's, whatever the order of the files. */
#include "gpuprof/ranks.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"
#include "report/merge.h"
#include "report/rank_ranges.h"
#include "report/sort_moved.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel's launches in the file being folded: what becomes its cell. */
typedef struct {
    size_t calls, timed, profiled;
    double ms;                   /* the timed launches' durations, summed */
    double read, written;        /* dram_read_bytes, dram_write_bytes summed over the */
    size_t reads, writes;        /* profiled launches that have them */
} tally;

/* A warning of the files, once however many ranks have it: the lowest three of those. */
#define WARNING_RANKS 3
typedef struct {
    char *text;
    size_t n_ranks;              /* the ranks that gave it; 0: a view's own, of no rank */
    size_t n_kept;               /* of them, the lowest kept in ranks */
    int ranks[WARNING_RANKS];
} rank_warning;

struct gp_rank_merge {
    gp_report *into;
    gp_rank_view *view;
    gp_hashmap kernels;          /* code and identity: the kernel's index in the view + 1 */
    gp_hashmap ranks;            /* rank (int): its index in the view (size_t) */
    int lowest;                  /* the rank whose header `into` has; -1: none yet */
    tally *tallies;              /* per kernel of the view, for the file being folded */
    size_t n_tallies;
    rank_warning *warnings;      /* in the order first met */
    size_t n_warnings, warning_capacity;
    gp_hashmap warning_index;    /* text: its index in warnings (size_t) */
    gp_rank_ranges_index ranges; /* the view's range paths */
};

static int out_of_memory(void)
{
    return gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

int gp_rank_merge_open(gp_report *into, gp_rank_merge **out)
{
    gp_rank_merge *m = calloc(1, sizeof *m);
    gp_rank_view *v = m ? gp_rank_view_new() : NULL;
    if (!v) {
        free(m);
        return out_of_memory();
    }
    m->into = into;
    m->view = into->ranks = v;
    m->lowest = -1;
    gp_hashmap_init(&m->kernels, sizeof(size_t));
    gp_hashmap_init(&m->ranks, sizeof(size_t));
    gp_hashmap_init(&m->warning_index, sizeof(size_t));
    gp_rank_ranges_index_init(&m->ranges, v);
    into->is_exec = true;
    *out = m;
    return GP_OK;
}

/* ---- what each file must be ---------------------------------------------------------- */

/* Every message says how a report gets its rank, in its one line. */
#define HOW_TO_RANK "(gpuprof exec records a rank from --rank=N, or from RANK, " \
                    "OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID)"

static int check_part(const gp_report *part, const char *file)
{
    if (!part->is_exec)
        return gp_fail(GP_ERR_USAGE, "%s: a kernel command's report among ranks' reports: a "
                       "rank view takes exec reports with a rank " HOW_TO_RANK, file);
    if (!gp_report_has_rank(part))
        return gp_fail(GP_ERR_USAGE, "%s: no rank, among ranks' reports: a rank view takes "
                       "each rank's report with its rank " HOW_TO_RANK, file);
    return GP_OK;
}

/* The rank's index in the view, where duplicate_rank found it not yet. */
static int claim_rank(gp_rank_merge *m, int rank, size_t *index)
{
    bool added = false;
    size_t *at = gp_hashmap_add(&m->ranks, &rank, sizeof rank, &added);
    if (!at)
        return out_of_memory();
    *at = *index = m->view->n_ranks;
    return GP_OK;
}

/* GP_OK when the view lacks the rank; else a usage error naming the file that has it. */
static int duplicate_rank(const gp_rank_merge *m, int rank, const char *file)
{
    const size_t *at = gp_hashmap_find(&m->ranks, &rank, sizeof rank);
    if (!at)
        return GP_OK;
    return gp_fail(GP_ERR_USAGE, "%s: rank %d again (%s has it): a rank view takes each "
                   "rank's report once " HOW_TO_RANK, file, rank, m->view->ranks[*at].file);
}

/* ---- the header: the lowest rank's ------------------------------------------------------ */

/* What ran and how, from the part, whose rank is the lowest so far (the one it replaces
 * freed): the header a merge takes, and the lowest rank's program. */
static void take_header(gp_report *into, gp_report *part)
{
    gp_merge_take_header(into, part);
    gp_exec_info *e = &into->exec, *p = &part->exec;
    gp_merge_move_words(&e->argv, &e->argc, &p->argv, &p->argc);
    e->pid = p->pid;
    e->request = p->request;
}

/* The part's processes counted, the GPUs that the view lacks, and its header where its
 * lowest rank is the lowest so far. */
static int take_run(gp_rank_merge *m, gp_report *part, int lowest)
{
    GP_TRY(gp_merge_add_processes(&m->into->exec, &part->exec));
    if (m->lowest < 0 || lowest < m->lowest) {
        take_header(m->into, part);
        m->lowest = lowest;
    }
    return GP_OK;
}

/* ---- the warnings: each once, with its ranks --------------------------------------------- */

/* A rank of the warning's, among the lowest kept where it is one of them. */
static void keep_lowest(rank_warning *w, int rank)
{
    size_t i = w->n_kept;
    for (; i > 0 && w->ranks[i - 1] > rank; i--)
        if (i < WARNING_RANKS)
            w->ranks[i] = w->ranks[i - 1];
    if (i < WARNING_RANKS)
        w->ranks[i] = rank;
    w->n_kept += w->n_kept < WARNING_RANKS;
}

/* The warning once, with `count` more ranks of which `ranks` (n of them) are the lowest. */
static int add_warning(gp_rank_merge *m, const char *text, const int *ranks, size_t n,
                       size_t count)
{
    bool added = false;
    size_t *at = gp_hashmap_add_str(&m->warning_index, text, &added);
    if (!at)
        return out_of_memory();
    if (added) {
        rank_warning *w = gp_append_zeroed(&m->warnings, &m->n_warnings,
                                           &m->warning_capacity, sizeof *w);
        char *copy = w ? strdup(text) : NULL;
        if (!copy)
            return out_of_memory();
        w->text = copy;
        *at = m->n_warnings - 1;
    }
    rank_warning *w = &m->warnings[*at];
    for (size_t i = 0; i < n; i++)
        keep_lowest(w, ranks[i]);
    w->n_ranks += count;
    return GP_OK;
}

/* A whole number of a warning's head, and what follows it. */
static bool head_number(const char **p, long *out)
{
    char *end;
    if (**p < '0' || **p > '9')
        return false;
    *out = strtol(*p, &end, 10);
    *p = end;
    return *out >= 0 && *out <= INT_MAX;
}

/* A rank view's warning as emit_warning wrote it: its ranks, how many, and its text after
 * them; false for a warning without that head (the view's own: passed on as it is). */
static bool parse_head(const char *text, int *ranks, size_t *n, size_t *count,
                       const char **rest)
{
    const char *p = text;
    const bool several = strncmp(p, "ranks ", 6) == 0;
    if (!several && strncmp(p, "rank ", 5) != 0)
        return false;
    p += several ? 6 : 5;
    long v;
    for (*n = 0;; p += 2) {
        if (*n == WARNING_RANKS || !head_number(&p, &v))
            return false;
        ranks[(*n)++] = (int)v;
        if (strncmp(p, ", ", 2) != 0)
            break;
    }
    *count = *n;
    if (strncmp(p, " and ", 5) == 0) {
        p += 5;
        if (!head_number(&p, &v) || strncmp(p, " more", 5) != 0)
            return false;
        *count += (size_t)v;
        p += 5;
    }
    if (strncmp(p, ": ", 2) != 0 || several != (*count > 1))
        return false;
    *rest = p + 2;
    return true;
}

static int add_warnings(gp_rank_merge *m, const gp_report *part, const int *rank)
{
    for (size_t i = 0; i < part->n_warnings; i++)
        GP_TRY(add_warning(m, part->warnings[i], rank, rank ? 1 : 0, rank ? 1 : 0));
    return GP_OK;
}

/* A rank view's warnings: those of its ranks join this view's (one text, the ranks of
 * both). */
static int add_view_warnings(gp_rank_merge *m, const gp_report *part)
{
    for (size_t i = 0; i < part->n_warnings; i++) {
        int ranks[WARNING_RANKS];
        size_t n, count;
        const char *rest;
        if (parse_head(part->warnings[i], ranks, &n, &count, &rest))
            GP_TRY(add_warning(m, rest, ranks, n, count));
        else
            GP_TRY(add_warning(m, part->warnings[i], NULL, 0, 0));
    }
    return GP_OK;
}

/* "rank 3: TEXT", "ranks 0, 1, 5: TEXT", "ranks 0, 1, 5 and 12 more: TEXT". */
static int emit_warning(gp_report *into, const rank_warning *w)
{
    char head[128] = "";
    size_t used = 0;
    const size_t shown = w->n_kept;
    for (size_t i = 0; i < shown && used < sizeof head; i++)
        used += (size_t)snprintf(head + used, sizeof head - used, "%s%d",
                                 i ? ", " : w->n_ranks == 1 ? "rank " : "ranks ", w->ranks[i]);
    if (w->n_ranks > shown && used < sizeof head)
        used += (size_t)snprintf(head + used, sizeof head - used, " and %zu more",
                                 w->n_ranks - shown);
    const size_t len = used + strlen(w->text) + 3;
    char *text = malloc(len);
    if (!text)
        return out_of_memory();
    snprintf(text, len, "%s%s%s", head, used ? ": " : "", w->text);
    const int rc = gp_report_add_warning(into, text);
    free(text);
    return rc;
}

/* ---- one rank's report ------------------------------------------------------------------ */

/* The view's kernel of that identity, added when new: its index. */
static int kernel_index(gp_rank_merge *m, const char *kernel, const char *mangled,
                        uint64_t code, size_t *index)
{
    bool added = false;
    size_t *at = gp_hashmap_add_named(&m->kernels, &code, sizeof code,
                                      mangled ? mangled : kernel, &added);
    if (!at)
        return out_of_memory();
    if (added) {
        if (!gp_rank_view_add_kernel(m->view, kernel, mangled, code))
            return out_of_memory();
        *at = m->view->n_kernels;
    }
    *index = *at - 1;
    return GP_OK;
}

/* A tally per kernel of the view: the new ones zeroed. */
static int grow_tallies(gp_rank_merge *m)
{
    if (m->n_tallies >= m->view->n_kernels)
        return GP_OK;
    const size_t n = m->view->n_kernels + m->view->n_kernels / 2 + 8;
    tally *grown = realloc(m->tallies, n * sizeof *grown);
    if (!grown)
        return out_of_memory();
    memset(grown + m->n_tallies, 0, (n - m->n_tallies) * sizeof *grown);
    m->tallies = grown;
    m->n_tallies = n;
    return GP_OK;
}

static void add_bytes(const gp_metric_set *s, tally *t)
{
    for (size_t i = 0; i < s->n_metrics; i++) {
        const gp_metric_value *v = &s->metrics[i];
        if (!v->valid)
            continue;
        if (strcmp(v->key, "dram_read_bytes") == 0) {
            t->read += v->value;
            t->reads++;
        } else if (strcmp(v->key, "dram_write_bytes") == 0) {
            t->written += v->value;
            t->writes++;
        }
    }
}

static void add_launch(tally *t, const gp_exec_launch *l)
{
    t->calls++;
    if (l->duration_ms >= 0) {
        t->timed++;
        t->ms += l->duration_ms;
    }
    if (l->profiled) {
        t->profiled++;
        add_bytes(&l->metrics, t);
    }
}

/* The tally as the exec summary counts a kernel: every call at the mean of those that have
 * the value (gpuprof/exec_summary.h). */
static void fill_cell(gp_rank_cell *c, const tally *t, size_t rank)
{
    c->rank = rank;
    c->calls = t->calls;
    c->timed = t->timed;
    c->profiled = t->profiled;
    c->total_ms = t->timed
                      ? gp_rank_as_written((double)t->calls * (t->ms / (double)t->timed))
                      : NAN;
    c->total_estimated = t->timed && t->timed < t->calls;
    const bool bytes = t->reads && t->writes;
    c->dram_bytes = bytes ? gp_rank_as_written((double)t->calls *
                                               (t->read / (double)t->reads +
                                                t->written / (double)t->writes))
                          : NAN;
    const size_t fewest = t->reads < t->writes ? t->reads : t->writes;
    c->dram_estimated = bytes && fewest < t->calls;
}

static int fold_launches(gp_rank_merge *m, const gp_exec_info *e, size_t rank)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        size_t k;
        GP_TRY(kernel_index(m, l->kernel, l->mangled, l->code, &k));
        GP_TRY(grow_tallies(m));
        add_launch(&m->tallies[k], l);
    }
    /* Each kernel that ran a cell, and its tally zeroed for the next file. */
    for (size_t k = 0; k < m->view->n_kernels; k++) {
        if (!m->tallies[k].calls)
            continue;
        gp_rank_cell *c = gp_rank_kernel_add_cell(&m->view->kernels[k]);
        if (!c)
            return out_of_memory();
        fill_cell(c, &m->tallies[k], rank);
        memset(&m->tallies[k], 0, sizeof m->tallies[k]);
    }
    return GP_OK;
}

static int add_one_rank(gp_rank_merge *m, gp_report *part, const char *file)
{
    const gp_exec_info *e = &part->exec;
    size_t index = 0;
    GP_TRY(duplicate_rank(m, e->rank.rank, file));
    GP_TRY(claim_rank(m, e->rank.rank, &index));
    gp_rank_entry *r = gp_rank_view_add_rank(m->view, file);
    if (!r)
        return out_of_memory();
    r->rank = e->rank.rank;
    r->size = e->rank.size;
    snprintf(r->from, sizeof r->from, "%s", e->rank.from);
    r->pid = e->pid;
    r->exit_status = e->exit_status;
    r->signal = e->signal;
    GP_TRY(fold_launches(m, e, index));
    GP_TRY(gp_rank_ranges_fold_exec(&m->ranges, e, index));
    GP_TRY(add_warnings(m, part, &e->rank.rank));
    return take_run(m, part, e->rank.rank);
}

/* ---- a rank view's ranks ------------------------------------------------------------------ */

/* Its ranks, each with the index it takes in this view: index[i] for the part's rank i. */
static int add_view_ranks(gp_rank_merge *m, const gp_rank_view *pv, size_t *index)
{
    for (size_t i = 0; i < pv->n_ranks; i++) {
        const gp_rank_entry *from = &pv->ranks[i];
        GP_TRY(duplicate_rank(m, from->rank, from->file));
        GP_TRY(claim_rank(m, from->rank, &index[i]));
        gp_rank_entry *r = gp_rank_view_add_rank(m->view, from->file);
        if (!r)
            return out_of_memory();
        char *file = r->file;
        *r = *from;
        r->file = file;
    }
    return GP_OK;
}

static int add_view_cells(gp_rank_merge *m, const gp_rank_view *pv, const size_t *index)
{
    for (size_t k = 0; k < pv->n_kernels; k++) {
        const gp_rank_kernel *from = &pv->kernels[k];
        size_t to;
        GP_TRY(kernel_index(m, from->kernel, from->mangled, from->code, &to));
        for (size_t c = 0; c < from->n_cells; c++) {
            gp_rank_cell *cell = gp_rank_kernel_add_cell(&m->view->kernels[to]);
            if (!cell)
                return out_of_memory();
            *cell = from->cells[c];
            cell->rank = index[from->cells[c].rank];
        }
    }
    return GP_OK;
}

/* A rank view's ranks joined to this one's (a view of some nodes' ranks, say): its warnings
 * name their ranks already. */
static int add_view(gp_rank_merge *m, gp_report *part)
{
    const gp_rank_view *pv = part->ranks;
    size_t *index = malloc((pv->n_ranks ? pv->n_ranks : 1) * sizeof *index);
    if (!index)
        return out_of_memory();
    int rc = add_view_ranks(m, pv, index);
    if (rc == GP_OK)
        rc = add_view_cells(m, pv, index);
    if (rc == GP_OK)
        rc = gp_rank_ranges_fold_view(&m->ranges, pv, index);
    free(index);
    GP_TRY(rc);
    GP_TRY(add_view_warnings(m, part));
    return pv->n_ranks ? take_run(m, part, pv->ranks[0].rank) : GP_OK;
}

int gp_rank_merge_add(gp_rank_merge *m, gp_report *part, const char *file)
{
    GP_TRY(check_part(part, file));
    return part->ranks ? add_view(m, part) : add_one_rank(m, part, file);
}

/* ---- the view made whole ---------------------------------------------------------------- */

static int by_rank(const void *a, const void *b)
{
    const gp_rank_entry *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Kernels' and ranges' cells alike: each begins with its rank's index. */
static int by_rank_index(const void *a, const void *b)
{
    size_t x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    return (x > y) - (x < y);
}

/* The ranks in order, each cell's index moved with its rank (a kernel's and a range's), the
 * cells in that order. */
static int sort_ranks(gp_rank_view *v)
{
    size_t *moved;
    GP_TRY(gp_sort_moved(v->ranks, v->n_ranks, sizeof *v->ranks, by_rank, &moved));
    for (size_t k = 0; k < v->n_kernels; k++) {
        gp_rank_kernel *kernel = &v->kernels[k];
        for (size_t c = 0; c < kernel->n_cells; c++)
            kernel->cells[c].rank = moved[kernel->cells[c].rank];
        if (kernel->n_cells > 1)
            qsort(kernel->cells, kernel->n_cells, sizeof *kernel->cells, by_rank_index);
    }
    for (size_t i = 0; i < v->n_ranges; i++) {
        gp_rank_range *range = &v->ranges[i];
        for (size_t c = 0; c < range->n_cells; c++)
            range->cells[c].rank = moved[range->cells[c].rank];
        if (range->n_cells > 1)
            qsort(range->cells, range->n_cells, sizeof *range->cells, by_rank_index);
    }
    free(moved);
    return GP_OK;
}

/* The job's end: the lowest rank that failed, as the exec section says one program's. */
static void take_end(gp_exec_info *e, const gp_rank_view *v)
{
    e->exit_status = e->signal = 0;
    for (size_t i = 0; i < v->n_ranks; i++)
        if (v->ranks[i].exit_status) {
            e->exit_status = v->ranks[i].exit_status;
            e->signal = v->ranks[i].signal;
            return;
        }
}

/* Ranks that recorded another world size than the lowest rank's. */
static int check_sizes(gp_report *into, const gp_rank_view *v)
{
    for (size_t i = 1; i < v->n_ranks; i++) {
        const gp_rank_entry *r = &v->ranks[i];
        if (!r->size || r->size == v->world_size)
            continue;
        char text[GP_TEXT_LEN];
        snprintf(text, sizeof text, "the ranks disagree on the world size: rank %d (%s) "
                 "recorded %d, rank %d %d", r->rank, r->file, r->size, v->ranks[0].rank,
                 v->world_size);
        return gp_report_add_warning(into, text);
    }
    return GP_OK;
}

static int by_device(const void *a, const void *b)
{
    const gp_device_info *x = a, *y = b;
    return x->index != y->index ? (x->index > y->index) - (x->index < y->index)
                                : strcmp(x->name, y->name);
}

static int finish(gp_rank_merge *m)
{
    gp_rank_view *v = m->view;
    GP_TRY(sort_ranks(v));
    GP_TRY(gp_rank_view_derive(v));
    GP_TRY(gp_rank_view_derive_ranges(v));
    gp_exec_info *e = &m->into->exec;
    if (e->n_devices > 1)
        qsort(e->devices, e->n_devices, sizeof *e->devices, by_device);
    take_end(e, v);
    for (size_t i = 0; i < m->n_warnings; i++)
        GP_TRY(emit_warning(m->into, &m->warnings[i]));
    return check_sizes(m->into, v);
}

int gp_rank_merge_close(gp_rank_merge *m, bool complete)
{
    if (!m)
        return GP_OK;
    const int rc = complete ? finish(m) : GP_OK;
    gp_hashmap_free(&m->kernels);
    gp_hashmap_free(&m->ranks);
    gp_hashmap_free(&m->warning_index);
    gp_rank_ranges_index_free(&m->ranges);
    for (size_t i = 0; i < m->n_warnings; i++)
        free(m->warnings[i].text);
    free(m->warnings);
    free(m->tallies);
    free(m);
    return rc;
}
