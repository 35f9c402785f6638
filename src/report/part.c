/* A report part's table (gpuprof/part.h): which columns show where, a row's cells, and the
 * part's JSON read back through its columns' setters (report/part_load.h). */
#include "gpuprof/part.h"

#include "gpuprof/status.h"
#include "report/part_load.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

bool gp_part_shows(const gp_part *t, size_t c, unsigned view, const void *ctx)
{
    const gp_part_column *col = &t->columns[c];
    const bool for_people = view & (GP_IN_TEXT | GP_IN_HTML);
    return (col->in & view) && (!for_people || !col->when || col->when(ctx));
}

size_t gp_part_columns(const gp_part *t, gp_part_view view, const void *ctx, size_t *cols)
{
    const gp_part_order *order = &t->order[view];
    const size_t n = order->n ? order->n : t->n_columns;
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t c = order->n ? order->columns[i] : i;
        const bool room = shown < GP_PART_MAX_COLUMNS;
        if (c < t->n_columns && room && gp_part_shows(t, c, 1u << view, ctx))
            cols[shown++] = c;
    }
    return shown;
}

const void *gp_part_row_at(const gp_part *t, const void *rows, size_t i)
{
    return (const char *)rows + i * t->row_size;
}

/* The number in a GP_PART_FIELD column's field of the row. */
static double field_number(const gp_part_column *col, const void *row)
{
    const char *at = (const char *)row + col->field_at;
    switch (col->field_kind) {
    case GP_FIELD_DOUBLE: return *(const double *)at;
    case GP_FIELD_INT: return *(const int *)at;
    case GP_FIELD_UNSIGNED: return *(const unsigned *)at;
    case GP_FIELD_ULONG: return (double)*(const unsigned long *)at;
    case GP_FIELD_ULLONG: return (double)*(const unsigned long long *)at;
    case GP_FIELD_BOOL: return *(const bool *)at;
    case GP_FIELD_NONE: break;
    }
    return NAN;
}

gp_cell gp_part_cell(const gp_part *t, size_t c, const void *row, const void *ctx,
                         char *buf, size_t len)
{
    const gp_part_column *col = &t->columns[c];
    buf[0] = '\0';
    gp_cell cell = col->field_kind ? GP_CELL_NUMBER(field_number(col, row))
                   : col->get_at   ? col->get_at(row, ctx, col->at, buf, len)
                                   : col->get(row, ctx, buf, len);
    if (cell.format == GP_NUMBER_COLUMN)
        cell.format = col->format;
    return cell;
}

/* ---- JSON read back ---------------------------------------------------------------------- */

/* 2^53: every whole number below it is exact in a JSON number. */
#define INTEGER_LIMIT 9007199254740992.0

const char *gp_part_whole(const gp_cell *v, uint64_t min, uint64_t max, uint64_t *out,
                          char *why, size_t len)
{
    const double d = v->number;
    if (v->text || !isfinite(d) || d != floor(d)) {
        snprintf(why, len, "expected a whole number");
        return why;
    }
    if (d < (double)min || d > (double)max || d >= INTEGER_LIMIT) {
        snprintf(why, len, "must be from %llu to %llu", (unsigned long long)min,
                 (unsigned long long)(max < INTEGER_LIMIT ? max : (uint64_t)INTEGER_LIMIT));
        return why;
    }
    *out = (uint64_t)d;
    return NULL;
}

const char *gp_part_at_least(const gp_cell *v, double min, double *out, char *why, size_t len)
{
    if (v->text) {
        snprintf(why, len, "expected a number or null");
        return why;
    }
    if (v->number < min) {
        snprintf(why, len, "must be at least %g", min);
        return why;
    }
    *out = v->number;
    return NULL;
}

const char *gp_part_enum(const gp_cell *v, const char *const *names, size_t n, int *out,
                         char *why, size_t len)
{
    for (size_t i = 0; v->text && i < n; i++)
        if (strcmp(v->text, names[i]) == 0) {
            *out = (int)i;
            return NULL;
        }
    char valid[128] = "";  /* the names as far as they fit, as gp_json_get_enum lists them */
    for (size_t i = 0; i < n; i++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s'%s'",
                 i ? ", " : "one of ", names[i]);
    snprintf(why, len, "expected %s", valid);
    return why;
}

/* o[key] of a column into the row: a string for a word column, true or false (1 or 0) for
 * a flag, a number (or null: NAN) for a number column, then its setter's check. */
static int read_cell(gp_json_reader *rd, const cJSON *o, const gp_part_column *col, void *row)
{
    gp_cell value = {.number = NAN};
    bool flag = false;
    if (col->format == GP_NUMBER_COLUMN)
        GP_TRY(gp_json_get_text(rd, o, col->key, &value.text));
    else if (col->format == GP_NUMBER_FLAG) {
        GP_TRY(gp_json_get_bool(rd, o, col->key, &flag));
        value.number = flag;
    } else
        GP_TRY(gp_json_get_number(rd, o, col->key, -HUGE_VAL, true, &value.number));
    char why[160];
    if (!col->set(row, &value, why, sizeof why))
        return GP_OK;
    const size_t at = gp_json_enter_key(rd, col->key);
    const int rc = gp_json_fail(rd, "%s", why);
    gp_json_leave(rd, at);
    return rc;
}

/* A row; *kept false for a keyed row whose key its key column does not take. */
static int read_row(gp_json_reader *rd, const gp_part *t, const cJSON *o, void *row,
                    bool *kept)
{
    *kept = true;
    if (!cJSON_IsObject(o))
        return gp_json_fail(rd, "expected an object");
    for (size_t c = 0; c < t->n_columns; c++) {
        const gp_part_column *col = &t->columns[c];
        char why[160];
        if ((int)c == t->json_keyed_by) {
            const gp_cell key = GP_CELL_TEXT(o->string);
            *kept = col->set(row, &key, why, sizeof why) == NULL;
            if (!*kept)
                return GP_OK;
        } else if (col->set && (col->in & GP_IN_JSON)) {
            GP_TRY(read_cell(rd, o, col, row));
        }
    }
    return GP_OK;
}

int gp_part_load(gp_json_reader *rd, const cJSON *o, const gp_part *t, void **rows, size_t *n)
{
    *rows = NULL;
    *n = 0;
    const cJSON *part = gp_json_field(o, t->key);
    if (!part)
        return GP_OK;
    const bool keyed = t->json_keyed_by >= 0;
    const size_t at = gp_json_enter_key(rd, t->key);
    int rc = (keyed ? cJSON_IsObject(part) : cJSON_IsArray(part))
                 ? GP_OK
                 : gp_json_fail(rd, "expected %s", keyed ? "an object" : "an array");
    const size_t count = rc == GP_OK ? (size_t)cJSON_GetArraySize(part) : 0;
    char *out = count ? calloc(count, t->row_size) : NULL;
    if (count && !out)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t i = 0, kept_rows = 0;
    for (const cJSON *e = rc == GP_OK ? part->child : NULL; e && rc == GP_OK; e = e->next, i++) {
        const size_t step = keyed ? gp_json_enter_key(rd, e->string)
                                  : gp_json_enter_index(rd, i);
        bool kept;
        rc = read_row(rd, t, e, out + kept_rows * t->row_size, &kept);
        kept_rows += rc == GP_OK && kept;
        gp_json_leave(rd, step);
    }
    gp_json_leave(rd, at);
    if (rc != GP_OK) {
        free(out);
        return rc;
    }
    *rows = out;
    *n = kept_rows;
    return GP_OK;
}

int gp_part_load_row(gp_json_reader *rd, const cJSON *o, const gp_part *t, void *row)
{
    bool kept;
    return read_row(rd, t, o, row, &kept);
}
