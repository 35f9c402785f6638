/* --replay=application's matching of later runs (records/records.h). */
#include "records/records.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a launch is matched by, beside its kernel's name (which follows it in the key). */
typedef struct {
    size_t process;            /* its process's rank among the run's, by pid */
    unsigned grid[3], block[3];
    size_t smem;
    uint64_t code;             /* the code it ran (a JIT compiler's variants have one name) */
    uint64_t ordinal;          /* launches of the same process, kernel, code and shape before
                                  it */
} launch_key;

static int compare_pids(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Each launch's process rank, from the sorted distinct pids of the run. */
static int process_ranks(const gp_exec_info *e, size_t *ranks)
{
    int *pids = malloc((e->n_launches ? e->n_launches : 1) * sizeof *pids);
    if (!pids)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < e->n_launches; i++)
        pids[i] = e->launches[i].pid;
    qsort(pids, e->n_launches, sizeof *pids, compare_pids);
    for (size_t i = 0; i < e->n_launches; i++) {
        const int *at = bsearch(&e->launches[i].pid, pids, e->n_launches, sizeof *pids,
                                compare_pids);
        size_t rank = 0;
        for (const int *p = pids; p < at; p++)
            rank += p == pids || p[0] != p[-1];
        ranks[i] = rank;
    }
    free(pids);
    return GP_OK;
}

/* The key of launch i (its ordinal counted in `seen`, keyed without the ordinal): a
 * malloc'd byte string of *len bytes, NULL when memory ran out. */
static unsigned char *key_of(const gp_exec_launch *l, size_t rank, gp_hashmap *seen,
                             size_t *len)
{
    const char *name = l->mangled ? l->mangled : l->kernel;
    const size_t name_len = strlen(name);
    launch_key k = {rank, {l->grid.x, l->grid.y, l->grid.z},
                    {l->block.x, l->block.y, l->block.z}, l->shared_bytes, l->code, 0};
    *len = sizeof k + name_len;
    unsigned char *key = malloc(*len);
    if (!key)
        return NULL;
    memcpy(key, &k, sizeof k);
    memcpy(key + sizeof k, name, name_len);
    uint64_t *count = gp_hashmap_add(seen, key, *len, NULL);
    if (!count) {
        free(key);
        return NULL;
    }
    k.ordinal = (*count)++;
    memcpy(key, &k, sizeof k);
    return key;
}

/* Every kernel of a run (a graph's kernel nodes too: each run launches them in the same
 * order) by its key: the index of its launch. */
static int index_launches(const gp_exec_info *e, gp_hashmap *by_key)
{
    size_t *ranks = malloc((e->n_launches ? e->n_launches : 1) * sizeof *ranks);
    gp_hashmap seen;
    gp_hashmap_init(&seen, sizeof(uint64_t));
    int rc = ranks ? process_ranks(e, ranks) : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++) {
        size_t len = 0;
        unsigned char *key = key_of(&e->launches[i], ranks[i], &seen, &len);
        size_t *at = key ? gp_hashmap_add(by_key, key, len, NULL) : NULL;
        if (at)
            *at = i;
        else
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        free(key);
    }
    gp_hashmap_free(&seen);
    free(ranks);
    return rc;
}

static int warn(gp_report *into, const char *fmt, unsigned pass, const gp_exec_launch *l,
                size_t n)
{
    char text[GP_TEXT_LEN + 160];
    snprintf(text, sizeof text, fmt, pass + 1, l ? l->kernel : "", n);
    return gp_report_add_warning(into, text);
}

/* Add each profiled launch of the run to its match in `into`; the first launch that has none
 * and the number of such launches are warned about. */
static int merge_launches(gp_report *into, const gp_report *run, unsigned pass,
                          const gp_hashmap *first, const gp_hashmap *later)
{
    size_t unmatched = 0, cursor = 0, key_len = 0;
    const gp_exec_launch *example = NULL;
    const void *key = NULL;
    for (const size_t *j; (j = gp_hashmap_next(later, &cursor, &key, &key_len)) != NULL;) {
        const gp_exec_launch *l = &run->exec.launches[*j];
        const size_t *i = gp_hashmap_find(first, key, key_len);
        if (!l->profiled)
            continue;
        if (!i) {
            example = example && example->id < l->id ? example : l;
            unmatched++;
            continue;
        }
        gp_exec_launch *into_l = &into->exec.launches[*i];
        if (gp_metric_set_add_counters(&into_l->metrics, l->metrics.counters,
                                       l->metrics.n_counters) != 0)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        into_l->passes |= l->passes;
        into_l->origins |= l->origins;
        into_l->profiled = true;
        if (into_l->duration_ms < 0)
            into_l->duration_ms = l->duration_ms;
    }
    if (!unmatched)
        return GP_OK;
    return warn(into, "application replay: run %u launched %s, and %zu profiled launches in "
                      "all, that the first run did not launch in that process, with that "
                      "shape, as often: their counters are left out",
                pass, example, unmatched);
}

/* The first run's profiled launches that the run did not make: they lack its pass. */
static int missing_launches(gp_report *into, unsigned pass, const gp_hashmap *first,
                            const gp_hashmap *later)
{
    size_t missing = 0, cursor = 0, key_len = 0;
    const gp_exec_launch *example = NULL;
    const void *key = NULL;
    for (const size_t *i; (i = gp_hashmap_next(first, &cursor, &key, &key_len)) != NULL;) {
        const gp_exec_launch *l = &into->exec.launches[*i];
        if (!l->profiled || gp_hashmap_find(later, key, key_len))
            continue;
        example = example && example->id < l->id ? example : l;
        missing++;
    }
    if (!missing)
        return GP_OK;
    return warn(into, "application replay: run %u did not launch %s, and %zu profiled launches "
                      "in all, as the first run did: they lack its pass's metrics",
                pass, example, missing);
}

/* ---- --source's views ------------------------------------------------------------------ */

/* The first run's launch that matches the run's launch of this process (and id, unless
 * GP_NO_LAUNCH: then any of its launches of the kernel); NULL: none. */
static const gp_exec_launch *first_run_launch(const gp_report *into, const gp_report *run,
                                              const gp_exec_source_view *v,
                                              const gp_hashmap *first, const gp_hashmap *later)
{
    size_t cursor = 0, key_len = 0;
    const void *key = NULL;
    for (const size_t *j; (j = gp_hashmap_next(later, &cursor, &key, &key_len)) != NULL;) {
        const gp_exec_launch *l = &run->exec.launches[*j];
        const char *name = l->mangled ? l->mangled : l->kernel;
        if (l->pid != v->pid ||
            (v->launch != GP_NO_LAUNCH ? l->id != v->launch
                                       : l->code != v->code || strcmp(name, v->view.kernel) != 0))
            continue;
        const size_t *i = gp_hashmap_find(first, key, key_len);
        return i ? &into->exec.launches[*i] : NULL;
    }
    return NULL;
}

static bool has_view(const gp_exec_info *e, int pid, const gp_exec_source_view *v)
{
    for (size_t i = 0; i < e->n_source_views; i++)
        if (e->source_views[i].pid == pid && e->source_views[i].code == v->code &&
            strcmp(e->source_views[i].view.kernel, v->view.kernel) == 0)
            return true;
    return false;
}

/* A view of a later run (where the library patched the kernel's launch) is the first run's,
 * its process and launch those of the matching launch; one the first run has already, or
 * that matches none, is left out. */
static int adopt_source_views(gp_report *into, const gp_report *run, unsigned pass,
                              const gp_hashmap *first, const gp_hashmap *later)
{
    size_t unmatched = 0;
    for (size_t i = 0; i < run->exec.n_source_views; i++) {
        const gp_exec_source_view *v = &run->exec.source_views[i];
        const gp_exec_launch *l = first_run_launch(into, run, v, first, later);
        if (!l) {
            unmatched++;
            continue;
        }
        if (has_view(&into->exec, l->pid, v))
            continue;
        gp_exec_source_view *copy;
        GP_TRY(gp_exec_add_source_view(&into->exec, &copy));
        GP_TRY(gp_exec_source_view_copy(v, copy));
        copy->pid = l->pid;
        copy->launch = v->launch == GP_NO_LAUNCH ? GP_NO_LAUNCH : l->id;
    }
    if (!unmatched)
        return GP_OK;
    char text[160];
    snprintf(text, sizeof text, "application replay: %zu per-line views of run %u match no "
             "launch of the first run: they are left out", unmatched, pass + 1);
    return gp_report_add_warning(into, text);
}

/* The run's warnings that the first run did not give. */
static int add_new_warnings(gp_report *into, const gp_report *run)
{
    for (size_t i = 0; i < run->n_warnings; i++) {
        bool known = false;
        for (size_t k = 0; k < into->n_warnings && !known; k++)
            known = strcmp(into->warnings[k], run->warnings[i]) == 0;
        if (!known)
            GP_TRY(gp_report_add_warning(into, run->warnings[i]));
    }
    return GP_OK;
}

int gp_records_merge_run(gp_report *into, const gp_report *run, unsigned pass,
                         int exit_status)
{
    gp_hashmap first, later;
    gp_hashmap_init(&first, sizeof(size_t));
    gp_hashmap_init(&later, sizeof(size_t));
    int rc = index_launches(&into->exec, &first);
    if (rc == GP_OK)
        rc = index_launches(&run->exec, &later);
    if (rc == GP_OK)
        rc = merge_launches(into, run, pass, &first, &later);
    if (rc == GP_OK)
        rc = missing_launches(into, pass, &first, &later);
    if (rc == GP_OK)
        rc = adopt_source_views(into, run, pass, &first, &later);
    if (rc == GP_OK && exit_status != into->exec.exit_status) {
        char text[160];
        snprintf(text, sizeof text, "application replay: run %u exited with status %d, the "
                 "first with %d", pass + 1, exit_status, into->exec.exit_status);
        rc = gp_report_add_warning(into, text);
    }
    if (rc == GP_OK)
        rc = add_new_warnings(into, run);
    gp_hashmap_free(&first);
    gp_hashmap_free(&later);
    return rc;
}
