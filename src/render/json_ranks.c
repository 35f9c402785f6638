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

static int print_kernel(FILE *out, const gp_rank_view *v, size_t i, int depth)
{
    const gp_rank_kernel *k = &v->kernels[i];
    const gp_rank_part_ctx ctx = {.view = v, .kernel = k};
    GP_TRY(print_nested(out, kernel_head_json(k, &ctx), depth, true));
    fputs(",\n", out);
    tabs(out, depth + 1);
    fputs("\"by_rank\":\t[", out);
    for (size_t c = 0; c < k->n_cells; c++) {
        fputs(c ? ", " : "", out);
        GP_TRY(print_nested(out, gp_part_json_row(&gp_rank_cell_part, &k->cells[c], &ctx),
                            depth + 2, false));
    }
    fputs("]\n", out);
    tabs(out, depth);
    fputc('}', out);
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

/* The view's range paths, where it has any: ",\n" and the member, a path at a time. */
static int print_ranges(FILE *out, const gp_rank_view *v, int depth)
{
    if (!v->n_ranges)
        return GP_OK;
    fputs(",\n", out);
    tabs(out, depth + 1);
    fputs("\"ranges\":\t[", out);
    const gp_rank_part_ctx ctx = {.view = v};
    for (size_t i = 0; i < v->n_ranges; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(print_nested(out, range_json(&v->ranges[i], &ctx), depth + 2, false));
    }
    fputc(']', out);
    return GP_OK;
}

/* The section as cJSON would print it whole, its value `depth` levels down, written a rank
 * and a cell at a time: the document of a thousand ranks is never in memory at once. */
static int print_ranks(FILE *out, const gp_rank_view *v, int depth)
{
    fputs("{\n", out);
    tabs(out, depth + 1);
    if (v->world_size)
        fprintf(out, "\"world_size\":\t%d,\n", v->world_size);
    else
        fputs("\"world_size\":\tnull,\n", out);
    tabs(out, depth + 1);
    fputs("\"ranks\":\t[", out);
    const gp_rank_part_ctx ctx = {.view = v};
    for (size_t i = 0; i < v->n_ranks; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(print_nested(out, gp_part_json_row(&gp_rank_entry_part, &v->ranks[i], &ctx),
                            depth + 2, false));
    }
    fputs("],\n", out);
    tabs(out, depth + 1);
    fputs("\"kernels\":\t[", out);
    for (size_t i = 0; i < v->n_kernels; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(print_kernel(out, v, i, depth + 2));
    }
    fputc(']', out);
    GP_TRY(print_ranges(out, v, depth));
    fputc('\n', out);
    tabs(out, depth);
    fputc('}', out);
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
