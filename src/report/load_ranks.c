/* Reading back a rank view (report/load_ranks.h): its ranks, in order and each once, and each
 * kernel's value on each rank it ran on. What the writer derives from those (each rank's
 * launches and kernel time, each kernel's number, spreads, slowest and fastest rank,
 * collective flag, the world size) is checked to be of its type, not kept: it is derived
 * again (gp_rank_view_derive), so that the view renders as it did before it was written. */
#include "report/load_ranks.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/ranks.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdint.h>

/* What the readers of the section share: the view, and the identities of its kernels. */
typedef struct {
    gp_rank_view *view;
    gp_hashmap identities;
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

/* ---- the ranks ------------------------------------------------------------------------- */

/* What each rank's entry derives from the cells: checked, not kept. */
static int check_rank_sums(gp_json_reader *rd, const cJSON *o)
{
    uint64_t launches;
    double ms;
    bool estimated;
    GP_TRY(gp_json_get_integer(rd, o, "launches", 0, UINT64_MAX, &launches));
    GP_TRY(gp_json_get_number(rd, o, "kernel_ms", 0, true, &ms));
    return gp_json_get_bool(rd, o, "kernel_estimated", &estimated);
}

static int read_rank(gp_json_reader *rd, const cJSON *o, void *reader)
{
    gp_rank_view *v = ((ranks_reader *)reader)->view;
    int rank;
    uint64_t status;
    GP_TRY(gp_json_get_int(rd, o, "rank", 0, &rank));
    GP_TRY(gp_json_expect(rd, "rank", !v->n_ranks || rank > v->ranks[v->n_ranks - 1].rank,
                          "a rank above the one before (ranks in order, each once)"));
    const char *file;
    GP_TRY(gp_json_get_text(rd, o, "file", &file));
    gp_rank_entry *e = gp_rank_view_add_rank(v, file);
    if (!e)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    e->rank = rank;
    GP_TRY(get_int_or_null(rd, o, "size", 1, &e->size));
    GP_TRY(gp_json_expect(rd, "size", !e->size || rank < e->size, "more than the rank"));
    GP_TRY(gp_json_get_string(rd, o, "from", e->from, sizeof e->from));
    GP_TRY(gp_json_expect(rd, "from", e->from[0], "the option or variable it came from"));
    GP_TRY(gp_json_get_int(rd, o, "pid", 0, &e->pid));
    GP_TRY(gp_json_get_integer(rd, o, "exit_status", 0, 255, &status));
    e->exit_status = (int)status;
    GP_TRY(get_int_or_null(rd, o, "signal", 1, &e->signal));
    return check_rank_sums(rd, o);
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

static int read_cell(gp_json_reader *rd, const cJSON *o, void *reader)
{
    const gp_rank_view *v = ((ranks_reader *)reader)->view;
    gp_rank_kernel *k = &v->kernels[v->n_kernels - 1];
    int rank;
    uint64_t calls, timed, profiled;
    GP_TRY(gp_json_get_int(rd, o, "rank", 0, &rank));
    const size_t index = rank_index(v, rank);
    GP_TRY(gp_json_expect(rd, "rank", index != SIZE_MAX, "one of the ranks"));
    GP_TRY(gp_json_expect(rd, "rank", !k->n_cells || index > k->cells[k->n_cells - 1].rank,
                          "a rank above the one before (each rank once, in order)"));
    gp_rank_cell *c = gp_rank_kernel_add_cell(k);
    if (!c)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    c->rank = index;
    GP_TRY(gp_json_get_integer(rd, o, "calls", 1, UINT64_MAX, &calls));
    GP_TRY(gp_json_get_integer(rd, o, "timed", 0, calls, &timed));
    GP_TRY(gp_json_get_integer(rd, o, "profiled", 0, calls, &profiled));
    c->calls = (size_t)calls;
    c->timed = (size_t)timed;
    c->profiled = (size_t)profiled;
    GP_TRY(gp_json_get_number(rd, o, "total_ms", 0, true, &c->total_ms));
    GP_TRY(gp_json_expect(rd, "total_ms", isnan(c->total_ms) == !timed,
                          "a number when a launch was timed, else null"));
    GP_TRY(gp_json_get_bool(rd, o, "total_estimated", &c->total_estimated));
    GP_TRY(gp_json_get_number(rd, o, "dram_bytes", 0, true, &c->dram_bytes));
    return gp_json_get_bool(rd, o, "dram_estimated", &c->dram_estimated);
}

static int check_spread(gp_json_reader *rd, const cJSON *o, void *unused)
{
    (void)unused;
    double v;
    uint64_t ranks;
    bool estimated;
    for (const char *const *k = (const char *const[]){"min", "median", "max", NULL}; *k; k++)
        GP_TRY(gp_json_get_number(rd, o, *k, 0, true, &v));
    GP_TRY(gp_json_get_integer(rd, o, "ranks", 0, UINT64_MAX, &ranks));
    return gp_json_get_bool(rd, o, "estimated", &estimated);
}

/* What each kernel derives from its cells: checked, not kept. */
static int check_kernel_derived(gp_json_reader *rd, const cJSON *o)
{
    uint64_t number;
    bool collective;
    int rank;
    GP_TRY(gp_json_get_integer(rd, o, "number", 1, UINT64_MAX, &number));
    GP_TRY(gp_json_get_bool(rd, o, "collective", &collective));
    GP_TRY(gp_json_read_object(rd, o, "time_ms", false, check_spread, NULL));
    GP_TRY(gp_json_read_object(rd, o, "dram_bytes", false, check_spread, NULL));
    GP_TRY(get_int_or_null(rd, o, "slowest_rank", 0, &rank));
    return get_int_or_null(rd, o, "fastest_rank", 0, &rank);
}

static int read_kernel(gp_json_reader *rd, const cJSON *o, void *reader)
{
    ranks_reader *rr = reader;
    const char *kernel, *mangled = NULL;
    const cJSON *m, *cells;
    uint64_t code;
    GP_TRY(gp_json_get_text(rd, o, "kernel", &kernel));
    GP_TRY(gp_json_need(rd, o, "mangled", &m));
    if (!cJSON_IsNull(m))
        GP_TRY(gp_json_get_text(rd, o, "mangled", &mangled));
    GP_TRY(gp_json_get_code(rd, o, "code", true, &code));
    bool added = false;
    if (!gp_hashmap_add_named(&rr->identities, &code, sizeof code, mangled ? mangled : kernel,
                              &added))
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_json_expect(rd, mangled ? "mangled" : "kernel", added,
                          "a kernel (and code) no other entry has"));
    if (!gp_rank_view_add_kernel(rr->view, kernel, mangled, code))
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(check_kernel_derived(rd, o));
    GP_TRY(gp_json_get_array(rd, o, "by_rank", &cells));
    GP_TRY(gp_json_expect(rd, "by_rank", cJSON_GetArraySize(cells) >= 1,
                          "the ranks it ran on, at least one"));
    return gp_json_read_objects(rd, o, "by_rank", read_cell, rr);
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
    int rc = get_int_or_null(rd, o, "world_size", 1, &world);
    if (rc == GP_OK)
        rc = gp_json_read_objects(rd, o, "ranks", read_rank, &rr);
    if (rc == GP_OK)
        rc = gp_json_expect(rd, "ranks", r->ranks->n_ranks >= 1, "at least one rank");
    if (rc == GP_OK)
        rc = gp_json_read_objects(rd, o, "kernels", read_kernel, &rr);
    gp_hashmap_free(&rr.identities);
    return rc == GP_OK ? gp_rank_view_derive(r->ranks) : rc;
}
