/* A rank view in JSON (render/json_ranks.h), printed a rank and a cell at a time, as cJSON
 * prints a document whole (tests compare the two). What is derived (each rank's launches and kernel
 * time, each kernel's number, spreads, slowest and fastest rank, collective flag) is written
 * for readers, and computed again from the ranks and cells when the view is read back
 * (src/report/load_ranks.c). Ranks are named by their rank, never by an index. */
#include "render/json_ranks.h"

#include "gpuprof/status.h"
#include "render/json_out.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static void add_rank_or_null(cJSON *o, const char *key, const gp_rank_view *v, size_t index)
{
    if (index < v->n_ranks)
        cJSON_AddNumberToObject(o, key, v->ranks[index].rank);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *rank_json(const gp_rank_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", e->rank);
    gp_json_add_count_or_null(o, "size", e->size);
    cJSON_AddStringToObject(o, "from", e->from);
    cJSON_AddStringToObject(o, "file", e->file);
    cJSON_AddNumberToObject(o, "pid", e->pid);
    cJSON_AddNumberToObject(o, "exit_status", e->exit_status);
    gp_json_add_count_or_null(o, "signal", e->signal);
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

/* number: the kernel's #N in every view of the rank view, its place (most time first). Its
 * by_rank is printed after it, cell by cell. */
static cJSON *kernel_head_json(const gp_rank_kernel *k, size_t number, const gp_rank_view *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "number", (double)number);
    cJSON_AddStringToObject(o, "kernel", k->kernel);
    gp_json_add_string_or_null(o, "mangled", k->mangled);
    if (k->code) {
        gp_json_add_code(o, "code", k->code);
        if (k->variants) {
            cJSON_AddNumberToObject(o, "variant", k->variant);
            cJSON_AddNumberToObject(o, "variants", k->variants);
        }
    }
    cJSON_AddBoolToObject(o, "collective", k->collective);
    cJSON_AddItemToObject(o, "time_ms", spread_json(&k->time_ms));
    cJSON_AddItemToObject(o, "dram_bytes", spread_json(&k->dram_bytes));
    add_rank_or_null(o, "slowest_rank", v, k->slowest);
    add_rank_or_null(o, "fastest_rank", v, k->fastest);
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
    GP_TRY(print_nested(out, kernel_head_json(k, i + 1, v), depth, true));
    fputs(",\n", out);
    tabs(out, depth + 1);
    fputs("\"by_rank\":\t[", out);
    for (size_t c = 0; c < k->n_cells; c++) {
        fputs(c ? ", " : "", out);
        GP_TRY(print_nested(out, cell_json(&k->cells[c], v), depth + 2, false));
    }
    fputs("]\n", out);
    tabs(out, depth);
    fputc('}', out);
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
    for (size_t i = 0; i < v->n_ranks; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(print_nested(out, rank_json(&v->ranks[i]), depth + 2, false));
    }
    fputs("],\n", out);
    tabs(out, depth + 1);
    fputs("\"kernels\":\t[", out);
    for (size_t i = 0; i < v->n_kernels; i++) {
        fputs(i ? ", " : "", out);
        GP_TRY(print_kernel(out, v, i, depth + 2));
    }
    fputs("]\n", out);
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
