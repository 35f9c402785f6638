/* A kernel's metrics as a part (gpuprof/report_parts.h), one row per metric over the kernel's
 * profiled launches: text's block under each kernel (nvprof's --metrics layout: launches,
 * metric, min, max, avg, unit) and JSON's kernels[].metrics, keyed by the metric (unit, min,
 * average, max, launches, combined, note); and a metric's value as people read it, which
 * every view's metric cells share. */
#include "gpuprof/report_parts.h"

#include "gpuprof/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- a metric's value as people read it ------------------------------------------------ */

/* The catalogue's units whose values are counts: whole numbers, their averages rounded as
 * nvprof printed them. */
static const char *const count_units[] = {
    "bytes", "conflicts", "sectors", "requests", "instructions", "transactions", "wavefronts",
    "cycles", "launches",
};

bool gp_metric_is_count(const gp_metric_value *m)
{
    const size_t n = strlen(m->key);
    if (!gp_find_metric(m->key))
        return n > 4 && strcmp(m->key + n - 4, ".sum") == 0 && !strpbrk(m->unit, "/%");
    for (size_t i = 0; i < sizeof count_units / sizeof count_units[0]; i++)
        if (strcmp(m->unit, count_units[i]) == 0)
            return true;
    return false;
}

/* Never an exponent below 10^15. */
void gp_metric_value_text(char *buf, size_t len, const gp_metric_value *m)
{
    if (!m || !m->valid) {
        snprintf(buf, len, "n/a");
        return;
    }
    const char *u = m->unit;
    double v = m->value;
    if (strcmp(u, "%") == 0 || strcmp(u, "GB/s") == 0)
        snprintf(buf, len, "%.1f", v);
    else if (strcmp(u, "fraction") == 0)
        snprintf(buf, len, "%.3f", v);
    else if (strstr(u, "/request") || strstr(u, "/instruction"))
        snprintf(buf, len, "%.2f", v);
    else if (fabs(v) >= 1e15)
        snprintf(buf, len, "%.4g", v);
    else if (gp_metric_is_count(m) || v == floor(v))
        snprintf(buf, len, "%.0f", v);
    else if (fabs(v) >= 1e4)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

/* ---- the part ---------------------------------------------------------------------------- */

/* A metric's least, average or most: its word for people ("*" after it where it was
 * combined over launches of different passes: the block's legend says why), its number
 * (NAN: no launch had one) for JSON. */
static gp_cell value_cell(const gp_metric_value *v, bool combined, char *buf, size_t len)
{
    gp_metric_value_text(buf, len, v);
    const size_t used = strlen(buf);
    if (combined && v->valid && used + 1 < len)
        snprintf(buf + used, len - used, "*");
    return (gp_cell){.text = buf, .number = v->valid ? v->value : NAN};
}

GP_PART_TEXT_GETTER(get_key, gp_metric_stats, void, r->average.key)
GP_PART_NUMBER_GETTER(get_launches, gp_metric_stats, void, r->launches)
GP_PART_GETTER(get_min, gp_metric_stats, void, value_cell(&r->min, false, buf, len))
GP_PART_GETTER(get_max, gp_metric_stats, void, value_cell(&r->max, false, buf, len))
GP_PART_GETTER(get_average, gp_metric_stats, void,
               value_cell(&r->average, r->combined, buf, len))
GP_PART_TEXT_GETTER(get_unit, gp_metric_stats, void, r->average.unit)
/* JSON has combined and note only where they say something. */
GP_PART_GETTER(get_combined, gp_metric_stats, void,
               r->combined ? GP_CELL_NUMBER(1) : GP_CELL_ABSENT)
GP_PART_GETTER(get_note, gp_metric_stats, void,
               r->average.note[0] ? GP_CELL_TEXT(r->average.note) : GP_CELL_ABSENT)

enum { LAUNCHES, KEY, MIN, MAX, AVERAGE, UNIT, COMBINED, NOTE };

#define BOTH (GP_IN_TEXT | GP_IN_JSON)

/* In text's order; JSON has its own (below). */
static const gp_part_column columns[] = {
    [LAUNCHES] = {.key = "launches", .header = "launches", .format = GP_NUMBER_WHOLE,
                  .in = BOTH, .get = get_launches,
                  .legend = "the kernel's profiled launches that had a value"},
    [KEY] = {.key = "metric", .header = "metric", .align = GP_ALIGN_LEFT, .gap = 2, .in = BOTH,
             .get = get_key, .legend = "the metric's key (gpuprof metrics lists them)"},
    [MIN] = {.key = "min", .header = "min", .format = GP_NUMBER_WORDED, .gap = 1, .in = BOTH,
             .get = get_min, .legend = "the least value of a launch (null: none had one)"},
    [MAX] = {.key = "max", .header = "max", .format = GP_NUMBER_WORDED, .gap = 1, .in = BOTH,
             .get = get_max, .legend = "the most value of a launch (null: none had one)"},
    [AVERAGE] = {.key = "average", .header = "avg", .format = GP_NUMBER_WORDED, .gap = 1,
                 .in = BOTH, .get = get_average,
                 .legend = "the average over the launches (null: none had one)"},
    [UNIT] = {.key = "unit", .header = "unit", .align = GP_ALIGN_LEFT, .gap = 2, .in = BOTH,
              .get = get_unit},
    [COMBINED] = {.key = "combined", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
                  .get = get_combined,
                  .legend = "no launch had every input (they were collected in different "
                            "passes): the average is derived from each input's mean over the "
                            "launches that had it, and launches is the fewest of those"},
    [NOTE] = {.key = "note", .in = GP_IN_JSON, .get = get_note,
              .legend = "the first note of the kernel's launches (see metric.note)"},
};

const gp_part gp_metric_stats_part = {
    .key = "metrics", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .n_key = 2, .row_size = sizeof(gp_metric_stats), .json_keyed_by = KEY,
    .order = {[GP_VIEW_JSON] = GP_PART_ORDER(KEY, UNIT, MIN, AVERAGE, MAX, LAUNCHES, COMBINED,
                                             NOTE)},
};

/* ---- a launch's or result's metric value ------------------------------------------------- */

GP_PART_TEXT_GETTER(get_value_key, gp_metric_value, void, r->key)
GP_PART_GETTER(get_value, gp_metric_value, void, value_cell(r, false, buf, len))
GP_PART_TEXT_GETTER(get_value_unit, gp_metric_value, void, r->unit)
/* What it means: the catalogue's words, or a raw counter's kind. */
static gp_cell get_description(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    const gp_metric_def *def = gp_find_metric(((const gp_metric_value *)row)->key);
    return GP_CELL_TEXT(def ? def->description : "PerfWorks metric");
}
/* JSON has why a value is missing, and its note, only where there is one. */
GP_PART_GETTER(get_reason, gp_metric_value, void, r->valid ? GP_CELL_ABSENT : GP_CELL_TEXT(r->why))
GP_PART_GETTER(get_value_note, gp_metric_value, void,
               r->note[0] ? GP_CELL_TEXT(r->note) : GP_CELL_ABSENT)

enum { VALUE_KEY, VALUE, VALUE_UNIT, DESCRIPTION, REASON, VALUE_NOTE };

static const gp_part_column value_columns[] = {
    [VALUE_KEY] = {.key = "metric", .header = "metric", .align = GP_ALIGN_LEFT, .gap = 4,
                   .in = BOTH, .get = get_value_key},
    [VALUE] = {.key = "value", .header = "value", .format = GP_NUMBER_WORDED, .gap = 1,
               .in = BOTH, .get = get_value, .legend = "the metric's value (null: none)"},
    [VALUE_UNIT] = {.key = "unit", .header = "unit", .align = GP_ALIGN_LEFT, .gap = 1,
                    .in = BOTH, .get = get_value_unit},
    [DESCRIPTION] = {.key = "description", .header = "description", .align = GP_ALIGN_PROSE,
                     .gap = 1, .in = GP_IN_TEXT, .get = get_description},
    [REASON] = {.key = "reason", .in = GP_IN_JSON, .get = get_reason,
                .legend = "why the value is null"},
    [VALUE_NOTE] = {.key = "note", .in = GP_IN_JSON, .get = get_value_note,
                    .legend = "what the value leaves out, or why it is above 100 %"},
};

const gp_part gp_metric_value_part = GP_PART_DECLARE("metrics", value_columns, 1,
                                                     gp_metric_value, VALUE_KEY);
