/* A rank view in JSON (render/json_ranks.h), printed a rank and a cell at a time, as cJSON
 * prints a document whole (tests compare the two), each an object of the rank view's parts
 * (gpuprof/report_parts.h). What is derived (each rank's launches and kernel
 * time, each kernel's number, spreads, slowest and fastest rank, collective flag) is written
 * for readers, and computed again from the ranks and cells when the view is read back
 * (src/report/load_ranks.c). Ranks are named by their rank, never by an index. */
#include "render/json_ranks.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/part.h"

#include <string.h>

/* o's member `key`, placed before its member `before`: cJSON adds at the end only (and
 * 1.7.15 inserts nowhere but first), so the members from `before` on move after it, each
 * with its key. */
static void add_before(cJSON *o, const char *before, const char *key, cJSON *item)
{
    cJSON *m = cJSON_GetObjectItemCaseSensitive(o, before);
    cJSON_AddItemToObject(o, key, item);
    while (m && m != item) {
        cJSON *next = m->next;
        cJSON_AddItemToArray(o, cJSON_DetachItemViaPointer(o, m));
        m = next;
    }
}

/* A kernel's head: its columns, with its spreads before its slowest rank, as the schema
 * orders them. Its by_rank is printed after it, cell by cell. */
static cJSON *kernel_head_json(const gp_rank_kernel *k, const gp_rank_part_ctx *c)
{
    cJSON *o = gp_part_json_row(&gp_rank_kernel_part, k, c);
    add_before(o, "slowest_rank", "time_ms",
               gp_part_json_row(&gp_rank_spread_part, &k->time_ms, c));
    add_before(o, "slowest_rank", "dram_bytes",
               gp_part_json_row(&gp_rank_spread_part, &k->dram_bytes, c));
    return o;
}

/* ---- printing, a piece at a time --------------------------------------------------------- */

static void tabs(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fputc('\t', out);
}

/* An item as cJSON prints it `depth` levels down a document printed whole: each line after
 * its first indented by `depth` more tabs (cJSON escapes line breaks inside strings, so a
 * line break is the layout's). Open: its closing line left out, for members written after
 * it. The item is freed. */
static int print_nested(FILE *out, cJSON *item, int depth, bool open)
{
    char *text = item ? cJSON_Print(item) : NULL;
    cJSON_Delete(item);
    if (!text)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing JSON");
    char *end = open ? strrchr(text, '\n') : NULL;
    if (end)
        *end = '\0';
    for (const char *line = text;;) {
        const char *next = strchr(line, '\n');
        fwrite(line, 1, next ? (size_t)(next - line + 1) : strlen(line), out);
        if (!next)
            break;
        tabs(out, depth);
        line = next + 1;
    }
    cJSON_free(text);
    return GP_OK;
}

/* A member `key`, `depth` levels down (after another member: `after`), whose value is an
 * array of n items, each printed by `item` a level further down. */
typedef int item_printer(FILE *out, const gp_rank_part_ctx *ctx, size_t i, int depth);

static int print_array(FILE *out, bool after, const char *key, size_t n, item_printer *item,
                       const gp_rank_part_ctx *ctx, int depth)
{
    fputs(after ? ",\n" : "", out);
    tabs(out, depth);
    fprintf(out, "\"%s\":\t[", key);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(item(out, ctx, i, depth + 1));
    }
    fputc(']', out);
    return GP_OK;
}

/* The end of an object whose value is `depth` levels down. */
static void close_object(FILE *out, int depth)
{
    fputc('\n', out);
    tabs(out, depth);
    fputc('}', out);
}

static int print_cell(FILE *out, const gp_rank_part_ctx *ctx, size_t i, int depth)
{
    return print_nested(out, gp_part_json_row(&gp_rank_cell_part, &ctx->kernel->cells[i], ctx),
                        depth, false);
}

static int print_kernel(FILE *out, const gp_rank_part_ctx *view, size_t i, int depth)
{
    const gp_rank_kernel *k = &view->view->kernels[i];
    const gp_rank_part_ctx ctx = {.view = view->view, .kernel = k};
    GP_TRY(print_nested(out, kernel_head_json(k, &ctx), depth, true));
    GP_TRY(print_array(out, true, "by_rank", k->n_cells, print_cell, &ctx, depth + 1));
    close_object(out, depth);
    return GP_OK;
}

/* A range path: its columns, its spread before its slowest rank, then its by_rank (a cell per
 * rank, few enough to print with it). */
static cJSON *range_json(const gp_rank_range *r, const gp_rank_part_ctx *c)
{
    cJSON *o = gp_part_json_row(&gp_rank_range_part, r, c);
    cJSON *cells = cJSON_CreateArray();
    add_before(o, "slowest_rank", "time_ms",
               gp_part_json_row(&gp_rank_spread_part, &r->time_ms, c));
    for (size_t i = 0; cells && i < r->n_cells; i++)
        cJSON_AddItemToArray(cells, gp_part_json_row(&gp_rank_range_cell_part, &r->cells[i], c));
    cJSON_AddItemToObject(o, "by_rank", cells);
    return o;
}

static int print_range(FILE *out, const gp_rank_part_ctx *ctx, size_t i, int depth)
{
    return print_nested(out, range_json(&ctx->view->ranges[i], ctx), depth, false);
}

static int print_rank(FILE *out, const gp_rank_part_ctx *ctx, size_t i, int depth)
{
    return print_nested(out, gp_part_json_row(&gp_rank_entry_part, &ctx->view->ranks[i], ctx),
                        depth, false);
}

/* The section as cJSON would print it whole, its value `depth` levels down, written a rank
 * and a cell at a time: the document of a thousand ranks is never in memory at once. The
 * range paths only where the view has any. */
static int print_ranks(FILE *out, const gp_rank_view *v, int depth)
{
    const gp_rank_part_ctx ctx = {.view = v};
    fputs("{\n", out);
    tabs(out, depth + 1);
    if (v->world_size)
        fprintf(out, "\"world_size\":\t%d,\n", v->world_size);
    else
        fputs("\"world_size\":\tnull,\n", out);
    GP_TRY(print_array(out, false, "ranks", v->n_ranks, print_rank, &ctx, depth + 1));
    GP_TRY(print_array(out, true, "kernels", v->n_kernels, print_kernel, &ctx, depth + 1));
    if (v->n_ranges)
        GP_TRY(print_array(out, true, "ranges", v->n_ranges, print_range, &ctx, depth + 1));
    close_object(out, depth);
    return GP_OK;
}

int gp_json_print_with_ranks(FILE *out, cJSON *root, const gp_rank_view *v)
{
    GP_TRY(print_nested(out, root, 0, true));
    fputs(",\n\t\"ranks\":\t", out);
    GP_TRY(print_ranks(out, v, 1));
    fputs("\n}\n", out);
    return GP_OK;
}
