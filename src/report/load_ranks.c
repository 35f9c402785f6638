/* Reading back a rank view (report/load_ranks.h) through its parts' declarations
 * (gpuprof/report_parts.h): its ranks, in order and each once, each kernel's value on each rank
 * it ran on, and each NVTX range path's (where the ranks had ranges). What the writer derives
 * from those (each rank's launches and kernel time, each kernel's number, spreads, slowest and
 * fastest rank, collective flag, the world size) is checked to be of its type, not kept: it is
 * derived again (gp_rank_view_derive), so that the view renders as it did before it was
 * written. */
#include "report/load_ranks.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/ranks.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/part_load.h"
#include "report/rank_ranges.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What the readers of the section share: the view, and the identities of its kernels. */
typedef struct {
    gp_rank_view *view;
    gp_hashmap identities;
    gp_rank_ranges_index ranges; /* the range paths read */
} ranks_reader;

/* null, or a whole number of at least `min`: 0 for null. */
static int get_int_or_null(gp_json_reader *rd, const cJSON *o, const char *key, int min,
                           int *out)
{
    const cJSON *v;
    *out = 0;
    GP_TRY(gp_json_need(rd, o, key, &v));
    return cJSON_IsNull(v) ? GP_OK : gp_json_get_int(rd, o, key, min, out);
}

/* A check across the rows of the array o[key], once they are read: unless ok,
 * "<key>[i].<field>: expected <what>". */
static int expect_at(gp_json_reader *rd, const char *key, size_t i, const char *field,
                     bool ok, const char *what)
{
    if (ok)
        return GP_OK;
    const size_t at = gp_json_enter_key(rd, key);
    gp_json_enter_index(rd, i);
    const int rc = gp_json_expect(rd, field, false, what);
    gp_json_leave(rd, at);
    return rc;
}

/* The rows of the array o[t->key] (required, and at least one where `what` says so). */
static int load_rows(gp_json_reader *rd, const cJSON *o, const gp_part *t, const char *what,
                     void **rows, size_t *n)
{
    const cJSON *a;
    *rows = NULL;
    GP_TRY(gp_json_get_array(rd, o, t->key, &a));
    GP_TRY(gp_json_expect(rd, t->key, cJSON_GetArraySize(a) >= 1, what));
    return gp_part_load(rd, o, t, rows, n);
}

/* ---- the ranks ------------------------------------------------------------------------- */

static int read_ranks(gp_json_reader *rd, const cJSON *o, gp_rank_view *v)
{
    void *rows;
    size_t n = 0;
    int rc = load_rows(rd, o, &gp_rank_entry_part, "at least one rank", &rows, &n);
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        const gp_rank_entry *row = gp_part_row_at(&gp_rank_entry_part, rows, i);
        rc = expect_at(rd, "ranks", i, "rank", !i || row->rank > row[-1].rank,
                       "a rank above the one before (ranks in order, each once)");
        gp_rank_entry *e = rc == GP_OK ? gp_rank_view_add_rank(v, row->file) : NULL;
        if (rc == GP_OK && !e)
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (rc == GP_OK) {
            char *file = e->file;   /* the view's copy */
            *e = *row;
            e->file = file;
        }
    }
    free(rows);
    return rc;
}

/* ---- the kernels ------------------------------------------------------------------------- */

/* The index of a rank of the view (its ranks are in order), or SIZE_MAX. */
static size_t rank_index(const gp_rank_view *v, int rank)
{
    size_t lo = 0, hi = v->n_ranks;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (v->ranks[mid].rank == rank)
            return mid;
        if (v->ranks[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

/* A cell appended to a kernel's or range's cells (its owner), zeroed; NULL when out of host
 * memory. */
typedef void *add_cell_fn(void *owner);

static void *add_kernel_cell(void *kernel)
{
    return gp_rank_kernel_add_cell(kernel);
}

static void *add_range_cell(void *range)
{
    return gp_rank_range_add_cell(range);
}

/* A kernel's or range's by_rank, rows of part t (each beginning with its rank, as a cell's
 * index begins it), their ranks' numbers made indices into the view's ranks. */
static int read_cells(gp_json_reader *rd, const cJSON *o, gp_rank_view *v, const gp_part *t,
                      add_cell_fn *add, void *owner)
{
    void *rows;
    size_t n = 0, last = SIZE_MAX;
    int rc = load_rows(rd, o, t, "the ranks it ran on, at least one", &rows, &n);
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        const void *row = gp_part_row_at(t, rows, i);
        size_t number;
        memcpy(&number, row, sizeof number);
        const size_t index = rank_index(v, (int)number);
        rc = expect_at(rd, "by_rank", i, "rank", index != SIZE_MAX, "one of the ranks");
        if (rc == GP_OK)
            rc = expect_at(rd, "by_rank", i, "rank", last == SIZE_MAX || index > last,
                           "a rank above the one before (each rank once, in order)");
        void *c = rc == GP_OK ? add(owner) : NULL;
        if (rc == GP_OK && !c)
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        if (rc == GP_OK) {
            memcpy(c, row, t->row_size);
            memcpy(c, &index, sizeof index);
            last = index;
        }
    }
    free(rows);
    return rc;
}

/* A spread the writer derived: checked. */
static int check_spread(gp_json_reader *rd, const cJSON *o, void *unused)
{
    gp_rank_spread spread;
    (void)unused;
    return gp_part_load_row(rd, o, &gp_rank_spread_part, &spread);
}

static int read_kernel(gp_json_reader *rd, const cJSON *o, void *reader)
{
    ranks_reader *rr = reader;
    gp_rank_kernel head = {0};  /* its name, and what it derives, checked */
    const char *mangled = NULL;
    const cJSON *m;
    uint64_t code;
    GP_TRY(gp_part_load_row(rd, o, &gp_rank_kernel_part, &head));
    GP_TRY(gp_json_need(rd, o, "mangled", &m));
    if (!cJSON_IsNull(m))
        GP_TRY(gp_json_get_text(rd, o, "mangled", &mangled));
    GP_TRY(gp_json_get_code(rd, o, "code", true, &code));
    bool added = false;
    if (!gp_hashmap_add_named(&rr->identities, &code, sizeof code,
                              mangled ? mangled : head.kernel, &added))
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_json_expect(rd, mangled ? "mangled" : "kernel", added,
                          "a kernel (and code) no other entry has"));
    gp_rank_kernel *k = gp_rank_view_add_kernel(rr->view, head.kernel, mangled, code);
    if (!k)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_json_read_object(rd, o, "time_ms", false, check_spread, NULL));
    GP_TRY(gp_json_read_object(rd, o, "dram_bytes", false, check_spread, NULL));
    return read_cells(rd, o, rr->view, &gp_rank_cell_part, add_kernel_cell, k);
}

/* ---- the range paths --------------------------------------------------------------------- */

static int read_range(gp_json_reader *rd, const cJSON *o, void *reader)
{
    ranks_reader *rr = reader;
    gp_rank_range head = {0};  /* its path, and what it derives, checked */
    GP_TRY(gp_part_load_row(rd, o, &gp_rank_range_part, &head));
    size_t index;
    bool added;
    GP_TRY(gp_rank_ranges_find(&rr->ranges, head.path, &index, &added));
    GP_TRY(gp_json_expect(rd, "path", added, "a path no other range has"));
    GP_TRY(gp_json_read_object(rd, o, "time_ms", false, check_spread, NULL));
    return read_cells(rd, o, rr->view, &gp_rank_range_cell_part, add_range_cell,
                      &rr->view->ranges[index]);
}

/* ---- the section ----------------------------------------------------------------------------- */

int gp_report_read_ranks(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    int world;
    r->ranks = gp_rank_view_new();
    if (!r->ranks)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    ranks_reader rr = {.view = r->ranks};
    gp_hashmap_init(&rr.identities, 0);
    gp_rank_ranges_index_init(&rr.ranges, r->ranks);
    int rc = get_int_or_null(rd, o, "world_size", 1, &world);
    if (rc == GP_OK)
        rc = read_ranks(rd, o, r->ranks);
    if (rc == GP_OK)
        rc = gp_json_read_objects(rd, o, "kernels", read_kernel, &rr);
    /* A view of no ranges has none (gpuprof before them wrote none either). */
    if (rc == GP_OK && gp_json_field(o, "ranges"))
        rc = gp_json_read_objects(rd, o, "ranges", read_range, &rr);
    gp_hashmap_free(&rr.identities);
    gp_rank_ranges_index_free(&rr.ranges);
    if (rc == GP_OK)
        rc = gp_rank_view_derive(r->ranks);
    return rc == GP_OK ? gp_rank_view_derive_ranges(r->ranks) : rc;
}
