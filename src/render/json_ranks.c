/* A rank view in JSON (render/json_ranks.h). What is derived (each rank's launches and kernel
 * time, each kernel's number, spreads, slowest and fastest rank, collective flag) is written
 * for readers, and computed again from the ranks and cells when the view is read back
 * (src/report/load_ranks.c). Ranks are named by their rank, never by an index. */
#include "render/json_ranks.h"

#include "render/json_out.h"

#include <math.h>
#include <stdint.h>

static void add_rank_or_null(cJSON *o, const char *key, const gp_rank_view *v, size_t index)
{
    if (index < v->n_ranks)
        cJSON_AddNumberToObject(o, key, v->ranks[index].rank);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_count_or_null(cJSON *o, const char *key, int n)
{
    if (n)
        cJSON_AddNumberToObject(o, key, n);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *rank_json(const gp_rank_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", e->rank);
    add_count_or_null(o, "size", e->size);
    cJSON_AddStringToObject(o, "from", e->from);
    cJSON_AddStringToObject(o, "file", e->file);
    cJSON_AddNumberToObject(o, "pid", e->pid);
    cJSON_AddNumberToObject(o, "exit_status", e->exit_status);
    add_count_or_null(o, "signal", e->signal);
    cJSON_AddNumberToObject(o, "launches", (double)e->launches);
    gp_json_add_number(o, "kernel_ms", e->kernel_ms);
    cJSON_AddBoolToObject(o, "kernel_estimated", e->kernel_estimated);
    return o;
}

static cJSON *spread_json(const gp_rank_spread *s)
{
    cJSON *o = cJSON_CreateObject();
    gp_json_add_number(o, "min", s->min);
    gp_json_add_number(o, "median", s->median);
    gp_json_add_number(o, "max", s->max);
    cJSON_AddNumberToObject(o, "ranks", (double)s->ranks);
    cJSON_AddBoolToObject(o, "estimated", s->estimated);
    return o;
}

static cJSON *cell_json(const gp_rank_cell *c, const gp_rank_view *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", v->ranks[c->rank].rank);
    cJSON_AddNumberToObject(o, "calls", (double)c->calls);
    cJSON_AddNumberToObject(o, "timed", (double)c->timed);
    cJSON_AddNumberToObject(o, "profiled", (double)c->profiled);
    gp_json_add_number(o, "total_ms", c->total_ms);
    cJSON_AddBoolToObject(o, "total_estimated", c->total_estimated);
    gp_json_add_number(o, "dram_bytes", c->dram_bytes);
    cJSON_AddBoolToObject(o, "dram_estimated", c->dram_estimated);
    return o;
}

/* number: the kernel's #N in every view of the rank view, its place (most time first). */
static cJSON *kernel_json(const gp_rank_kernel *k, size_t number, const gp_rank_view *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "number", (double)number);
    cJSON_AddStringToObject(o, "kernel", k->kernel);
    if (k->mangled)
        cJSON_AddStringToObject(o, "mangled", k->mangled);
    else
        cJSON_AddNullToObject(o, "mangled");
    cJSON_AddBoolToObject(o, "collective", k->collective);
    cJSON_AddItemToObject(o, "time_ms", spread_json(&k->time_ms));
    cJSON_AddItemToObject(o, "dram_bytes", spread_json(&k->dram_bytes));
    add_rank_or_null(o, "slowest_rank", v, k->slowest);
    add_rank_or_null(o, "fastest_rank", v, k->fastest);
    cJSON *cells = cJSON_AddArrayToObject(o, "by_rank");
    for (size_t c = 0; c < k->n_cells; c++)
        cJSON_AddItemToArray(cells, cell_json(&k->cells[c], v));
    return o;
}

cJSON *gp_json_ranks(const gp_rank_view *v)
{
    cJSON *o = cJSON_CreateObject();
    add_count_or_null(o, "world_size", v->world_size);
    cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
    for (size_t i = 0; i < v->n_ranks; i++)
        cJSON_AddItemToArray(ranks, rank_json(&v->ranks[i]));
    cJSON *kernels = cJSON_AddArrayToObject(o, "kernels");
    for (size_t i = 0; i < v->n_kernels; i++)
        cJSON_AddItemToArray(kernels, kernel_json(&v->kernels[i], i + 1, v));
    return o;
}
