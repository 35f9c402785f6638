/* CSV of a rank view (gpuprof/ranks.h): one header line (unless --no-header), then a row per
 * kernel with its spread over the ranks, or with --by-rank a row per kernel and rank it ran
 * on; --csv-columns chooses among the columns (render/csv_layout.h). Kernels in the view's
 * order, kernel_id their #N of the text and HTML; ranks by their rank. Numbers as "%.10g",
 * empty where unknown; flags 1 or 0. */
#include "gpuprof/ranks.h"
#include "gpuprof/status.h"
#include "render/csv.h"
#include "render/csv_layout.h"

#include <stdint.h>

/* A kernel's spread over the ranks. */
enum {
    S_KERNEL_ID, S_KERNEL, S_MANGLED, S_COLLECTIVE, S_RANKS, S_OF_RANKS, S_WORLD, S_TIME_MIN,
    S_TIME_MEDIAN, S_TIME_MAX, S_TIME_ESTIMATED, S_SLOWEST, S_FASTEST, S_DRAM_MIN,
    S_DRAM_MEDIAN, S_DRAM_MAX, S_DRAM_ESTIMATED,
    S_VARIANT,      /* of a kernel that ran several codes; empty otherwise; last: no column moves */
    S_COUNT
};
static const char *const spread_columns[S_COUNT] = {
    [S_KERNEL_ID] = "kernel_id", [S_KERNEL] = "kernel", [S_MANGLED] = "mangled",
    [S_COLLECTIVE] = "collective", [S_RANKS] = "ranks", [S_OF_RANKS] = "of_ranks",
    [S_WORLD] = "world_size", [S_TIME_MIN] = "time_min_ms",
    [S_TIME_MEDIAN] = "time_median_ms", [S_TIME_MAX] = "time_max_ms",
    [S_TIME_ESTIMATED] = "time_estimated", [S_SLOWEST] = "slowest_rank",
    [S_FASTEST] = "fastest_rank", [S_DRAM_MIN] = "dram_min_bytes",
    [S_DRAM_MEDIAN] = "dram_median_bytes", [S_DRAM_MAX] = "dram_max_bytes",
    [S_DRAM_ESTIMATED] = "dram_estimated", [S_VARIANT] = "variant",
};

/* A kernel on one rank. */
enum {
    B_KERNEL_ID = S_KERNEL_ID, B_KERNEL = S_KERNEL, B_MANGLED = S_MANGLED,  /* as the spread's */
    B_COLLECTIVE = S_COLLECTIVE, B_RANK, B_FILE, B_CALLS, B_TIMED,
    B_PROFILED, B_TOTAL, B_TOTAL_ESTIMATED, B_DRAM, B_DRAM_ESTIMATED, B_SLOWEST, B_FASTEST,
    B_VARIANT,
    B_COUNT
};
static const char *const rank_columns[B_COUNT] = {
    [B_KERNEL_ID] = "kernel_id", [B_KERNEL] = "kernel", [B_MANGLED] = "mangled",
    [B_COLLECTIVE] = "collective", [B_RANK] = "rank", [B_FILE] = "file", [B_CALLS] = "calls",
    [B_TIMED] = "timed", [B_PROFILED] = "profiled", [B_TOTAL] = "total_ms",
    [B_TOTAL_ESTIMATED] = "total_estimated", [B_DRAM] = "dram_bytes",
    [B_DRAM_ESTIMATED] = "dram_estimated", [B_SLOWEST] = "slowest", [B_FASTEST] = "fastest",
    [B_VARIANT] = "variant",
};

#define MAX_CELLS 20
#define CELL_LEN 48
_Static_assert((int)S_COUNT <= MAX_CELLS && (int)B_COUNT <= MAX_CELLS, "a row's cells fit");
typedef struct {
    const char *text[MAX_CELLS];
    char scratch[MAX_CELLS][CELL_LEN];
} cells;

static void set_number(cells *c, size_t i, double v)
{
    gp_csv_number(c->scratch[i], CELL_LEN, v);
    c->text[i] = c->scratch[i];
}

static void set_count(cells *c, size_t i, size_t v)
{
    set_number(c, i, (double)v);
}

static void set_flag(cells *c, size_t i, bool v)
{
    c->text[i] = v ? "1" : "0";
}

/* A rank's number, empty for none (SIZE_MAX, a world size of 0 given as -1). */
static void set_rank(cells *c, size_t i, int rank)
{
    if (rank < 0)
        c->text[i] = "";
    else
        set_number(c, i, rank);
}

static int rank_at(const gp_rank_view *v, size_t index)
{
    return index < v->n_ranks ? v->ranks[index].rank : -1;
}

/* A kernel's variant in column i: empty for a kernel of one code. */
static void set_variant(cells *c, size_t i, const gp_rank_kernel *k)
{
    if (k->variants)
        set_count(c, i, k->variant);
    else
        c->text[i] = "";
}

static void kernel_cells(cells *c, const gp_rank_kernel *k, size_t number)
{
    set_count(c, S_KERNEL_ID, number);   /* the same four first columns in both layouts */
    c->text[S_KERNEL] = k->kernel;
    c->text[S_MANGLED] = k->mangled ? k->mangled : "";
    set_flag(c, S_COLLECTIVE, k->collective);
}

static void write_spread(FILE *out, const gp_csv_layout *l, const gp_rank_view *v)
{
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        cells c;
        kernel_cells(&c, k, i + 1);
        set_count(&c, S_RANKS, k->n_cells);
        set_count(&c, S_OF_RANKS, v->n_ranks);
        set_rank(&c, S_WORLD, v->world_size ? v->world_size : -1);
        set_number(&c, S_TIME_MIN, k->time_ms.min);
        set_number(&c, S_TIME_MEDIAN, k->time_ms.median);
        set_number(&c, S_TIME_MAX, k->time_ms.max);
        set_flag(&c, S_TIME_ESTIMATED, k->time_ms.estimated);
        set_rank(&c, S_SLOWEST, rank_at(v, k->slowest));
        set_rank(&c, S_FASTEST, rank_at(v, k->fastest));
        set_number(&c, S_DRAM_MIN, k->dram_bytes.min);
        set_number(&c, S_DRAM_MEDIAN, k->dram_bytes.median);
        set_number(&c, S_DRAM_MAX, k->dram_bytes.max);
        set_flag(&c, S_DRAM_ESTIMATED, k->dram_bytes.estimated);
        set_variant(&c, S_VARIANT, k);
        const gp_csv_row row = {.fixed = c.text};
        gp_csv_layout_row(out, l, &row);
    }
}

static void write_by_rank(FILE *out, const gp_csv_layout *l, const gp_rank_view *v)
{
    for (size_t i = 0; i < v->n_kernels; i++) {
        const gp_rank_kernel *k = &v->kernels[i];
        for (size_t r = 0; r < k->n_cells; r++) {
            const gp_rank_cell *cell = &k->cells[r];
            cells c;
            kernel_cells(&c, k, i + 1);
            set_rank(&c, B_RANK, rank_at(v, cell->rank));
            c.text[B_FILE] = v->ranks[cell->rank].file;
            set_count(&c, B_CALLS, cell->calls);
            set_count(&c, B_TIMED, cell->timed);
            set_count(&c, B_PROFILED, cell->profiled);
            set_number(&c, B_TOTAL, cell->total_ms);
            set_flag(&c, B_TOTAL_ESTIMATED, cell->total_estimated);
            set_number(&c, B_DRAM, cell->dram_bytes);
            set_flag(&c, B_DRAM_ESTIMATED, cell->dram_estimated);
            set_flag(&c, B_SLOWEST, cell->rank == k->slowest);
            set_flag(&c, B_FASTEST, cell->rank == k->fastest);
            set_variant(&c, B_VARIANT, k);
            const gp_csv_row row = {.fixed = c.text};
            gp_csv_layout_row(out, l, &row);
        }
    }
}

int gp_csv_ranks(FILE *out, const gp_report *r, const gp_render_options *o)
{
    const bool by_rank = o && o->by_rank;
    gp_csv_layout l = {0};
    int rc = by_rank ? gp_csv_layout_fixed(&l, rank_columns, B_COUNT)
                     : gp_csv_layout_fixed(&l, spread_columns, S_COUNT);
    if (rc == GP_OK)
        rc = gp_csv_layout_choose(&l, o ? o->csv_columns : NULL);
    if (rc == GP_OK && !(o && o->no_header))
        gp_csv_layout_header(out, &l);
    if (rc == GP_OK && by_rank)
        write_by_rank(out, &l, r->ranks);
    else if (rc == GP_OK)
        write_spread(out, &l, r->ranks);
    gp_csv_layout_free(&l);
    return rc;
}
