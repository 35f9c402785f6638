/* The catalogue commands' tables as parts (gpuprof/report_parts.h): `gpuprof list`'s variants
 * (rows made by catalogue/ from its family table: report/ may not read it), `gpuprof
 * device`'s GPUs in JSON (every report's device objects too) and `gpuprof metrics --json`'s
 * catalogue. Their text is a listing (a device's lines, a metric's block), not a table: the
 * views write it. */
#include "gpuprof/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A column in JSON alone (the devices' and the metrics'). The number format says how people
 * would read it; JSON writes the number as it is. */
#define JSON_COLUMN(name, number_format, getter, meaning)                                     \
    {.key = (name), .format = (number_format), .in = GP_IN_JSON, .get = (getter),             \
     .legend = (meaning)}

/* ---- list: the variants ----------------------------------------------------------------- */

GP_PART_TEXT_GETTER(get_family, gp_variant_row, void, r->family)
GP_PART_TEXT_GETTER(get_variant, gp_variant_row, void, r->name)
GP_PART_TEXT_GETTER(get_default_block, gp_variant_row, void, r->default_block)
GP_PART_TEXT_GETTER(get_blocks, gp_variant_row, void, r->blocks)
GP_PART_TEXT_GETTER(get_blocks_brief, gp_variant_row, void, r->blocks_brief)
GP_PART_TEXT_GETTER(get_origin, gp_variant_row, void, r->origin)
GP_PART_TEXT_GETTER(get_summary, gp_variant_row, void, r->summary)

enum { FAMILY, VARIANT, DEFAULT_BLOCK, BLOCKS, BLOCKS_BRIEF, ORIGIN, SUMMARY, NAME, IN_PLACE };

/* In CSV's order; text's is the same without the family and origin, its blocks brief (every
 * row within 120 columns), JSON has its own (the variant's name first, as "name"). */
static const gp_part_column variant_columns[] = {
    [FAMILY] = {.key = "family", .in = GP_IN_CSV, .get = get_family},
    [VARIANT] = {.key = "variant", .header = "variant", .align = GP_ALIGN_LEFT, .gap = 2,
                 .in = GP_IN_TEXT | GP_IN_CSV, .get = get_variant},
    [DEFAULT_BLOCK] = {.key = "default_block", .header = "default", .align = GP_ALIGN_LEFT,
                       .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV, .get = get_default_block,
                       .legend = "the block a run takes without --block (\"-\": a library "
                                 "call's own)"},
    [BLOCKS] = {.key = "blocks", .in = GP_IN_CSV, .get = get_blocks,
                .legend = "the blocks --block takes"},
    [BLOCKS_BRIEF] = {.key = "blocks_brief", .header = "blocks", .align = GP_ALIGN_LEFT,
                      .gap = 2, .in = GP_IN_TEXT, .get = get_blocks_brief},
    [ORIGIN] = {.key = "origin", .in = GP_IN_CSV | GP_IN_JSON, .get = get_origin,
                .legend = "where it comes from: the book's kernel, or \"modern\""},
    [SUMMARY] = {.key = "summary", .header = "summary", .align = GP_ALIGN_PROSE, .gap = 2,
                 .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_JSON, .get = get_summary},
    [NAME] = {.key = "name", .in = GP_IN_JSON, .get = get_variant},
    [IN_PLACE] = {.key = "in_place", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
                  GP_PART_FIELD(gp_variant_row, in_place),
                  .legend = "it overwrites its input, restored before every launch"},
};

const gp_part gp_variant_part = {
    .key = "variants", .columns = variant_columns,
    .n_columns = sizeof variant_columns / sizeof *variant_columns, .n_key = 1,
    .row_size = sizeof(gp_variant_row), .json_keyed_by = -1,
    .order = {[GP_VIEW_JSON] = GP_PART_ORDER(NAME, SUMMARY, ORIGIN, IN_PLACE)},
};

size_t gp_variant_family_end(const gp_variant_row *rows, size_t n, size_t first)
{
    size_t end = first;
    while (end < n && strcmp(rows[end].family, rows[first].family) == 0)
        end++;
    return end;
}

/* ---- device: a GPU ---------------------------------------------------------------------- */

/* "13.0": a version as the CUDA API gives it (13000), or a compute capability. */
static gp_cell version(char *buf, size_t len, int major, int minor)
{
    snprintf(buf, len, "%d.%d", major, minor);
    return GP_CELL_TEXT(buf);
}

GP_PART_NUMBER_GETTER(get_index, gp_device_info, void, r->index)
GP_PART_TEXT_GETTER(get_name, gp_device_info, void, r->name)
GP_PART_GETTER(get_cc, gp_device_info, void, version(buf, len, r->cc_major, r->cc_minor))
GP_PART_NUMBER_GETTER(get_multiprocessors, gp_device_info, void, r->multiprocessors)
GP_PART_NUMBER_GETTER(get_memory, gp_device_info, void, r->memory_bytes)
GP_PART_NUMBER_GETTER(get_l2, gp_device_info, void, r->l2_bytes)
GP_PART_NUMBER_GETTER(get_sm_clock, gp_device_info, void, r->sm_clock_mhz)
GP_PART_NUMBER_GETTER(get_memory_clock, gp_device_info, void, r->memory_clock_mhz)
GP_PART_NUMBER_GETTER(get_bus, gp_device_info, void, r->memory_bus_bits)
GP_PART_NUMBER_GETTER(get_peak, gp_device_info, void, r->peak_gbps)
GP_PART_NUMBER_GETTER(get_copy, gp_device_info, void,
                      r->copy_gbps >= 0 ? r->copy_gbps : NAN)
GP_PART_GETTER(get_driver, gp_device_info, void,
               version(buf, len, r->driver_version / 1000, r->driver_version % 1000 / 10))
GP_PART_GETTER(get_runtime, gp_device_info, void,
               version(buf, len, r->runtime_version / 1000, r->runtime_version % 1000 / 10))

static const gp_part_column device_columns[] = {
    JSON_COLUMN("index", GP_NUMBER_WHOLE, get_index, "the CUDA device's ordinal"),
    JSON_COLUMN("name", GP_NUMBER_COLUMN, get_name, NULL),
    JSON_COLUMN("compute_capability", GP_NUMBER_COLUMN, get_cc, "\"9.0\""),
    JSON_COLUMN("multiprocessors", GP_NUMBER_WHOLE, get_multiprocessors, NULL),
    JSON_COLUMN("memory_bytes", GP_NUMBER_COUNT, get_memory, NULL),
    JSON_COLUMN("l2_bytes", GP_NUMBER_COUNT, get_l2, NULL),
    JSON_COLUMN("sm_clock_mhz", GP_NUMBER_WHOLE, get_sm_clock, "the SM clock's maximum"),
    JSON_COLUMN("memory_clock_mhz", GP_NUMBER_WHOLE, get_memory_clock, NULL),
    JSON_COLUMN("memory_bus_bits", GP_NUMBER_WHOLE, get_bus, NULL),
    JSON_COLUMN("peak_bandwidth_gbps", GP_NUMBER_FIXED1, get_peak,
                "2 x memory clock x bus width, GB/s"),
    JSON_COLUMN("copy_bandwidth_gbps", GP_NUMBER_FIXED1, get_copy,
                "a device-to-device copy's, bytes read + written, measured; null: not"),
    JSON_COLUMN("driver_version", GP_NUMBER_COLUMN, get_driver, "\"13.0\""),
    JSON_COLUMN("runtime_version", GP_NUMBER_COLUMN, get_runtime, "\"13.0\""),
};

const gp_part gp_device_part = GP_PART_DECLARE("devices", device_columns, 1, gp_device_info, -1);

/* ---- metrics: the catalogue ------------------------------------------------------------- */

/* The metric's availability on the context's chip; NULL without a chip. */
static const gp_metric_availability *on_chip(const gp_metric_def *m,
                                             const gp_metric_catalogue_context *c)
{
    return c && c->availability ? &c->availability[m - c->catalogue] : NULL;
}

/* Available: true or false on a chip; without one, null (an unknown number, not a flag). */
static gp_cell availability(const gp_metric_availability *a)
{
    return a ? (gp_cell){.number = a->available, .format = GP_NUMBER_FLAG}
             : (gp_cell){.number = NAN, .format = GP_NUMBER_WHOLE};
}

/* An unavailable metric's first missing counter; left out for the others. */
static gp_cell missing(const gp_metric_availability *a)
{
    return a && !a->available ? GP_CELL_TEXT(a->missing) : GP_CELL_ABSENT;
}

GP_PART_TEXT_GETTER(get_key, gp_metric_def, void, r->key)
GP_PART_TEXT_GETTER(get_unit, gp_metric_def, void, r->unit)
GP_PART_TEXT_GETTER(get_description, gp_metric_def, void, r->description)
GP_PART_TEXT_GETTER(get_formula, gp_metric_def, void, r->formula)
GP_PART_TEXT_GETTER(get_set, gp_metric_def, void, gp_metric_group_name(r->group))
GP_PART_GETTER(get_ncu_metric, gp_metric_def, void,
               r->ncu_metric ? GP_CELL_TEXT(r->ncu_metric) : GP_CELL_NUMBER(NAN))
GP_PART_NUMBER_GETTER(get_ncu_scale, gp_metric_def, void, r->ncu_scale)
GP_PART_GETTER(get_available, gp_metric_def, gp_metric_catalogue_context,
               availability(on_chip(r, c)))
GP_PART_GETTER(get_missing, gp_metric_def, gp_metric_catalogue_context,
               missing(on_chip(r, c)))

static const gp_part_column metric_columns[] = {
    JSON_COLUMN("key", GP_NUMBER_COLUMN, get_key, "the metric's name, as --metrics takes it"),
    JSON_COLUMN("unit", GP_NUMBER_COLUMN, get_unit, NULL),
    JSON_COLUMN("description", GP_NUMBER_COLUMN, get_description, NULL),
    JSON_COLUMN("formula", GP_NUMBER_COLUMN, get_formula, "how it is derived from its inputs"),
    JSON_COLUMN("set", GP_NUMBER_COLUMN, get_set, "the group of metrics it belongs to"),
    JSON_COLUMN("ncu_metric", GP_NUMBER_COLUMN, get_ncu_metric,
                "Nsight Compute's metric for the same quantity; null: no single one"),
    JSON_COLUMN("ncu_scale", GP_NUMBER_FIXED2, get_ncu_scale, "ours = ncu's x ncu_scale"),
    JSON_COLUMN("available", GP_NUMBER_FLAG, get_available,
                "whether the chip has its inputs; null: no chip"),
    JSON_COLUMN("missing", GP_NUMBER_COLUMN, get_missing,
                "an unavailable metric's first missing input"),
};

const gp_part gp_metric_def_part = GP_PART_DECLARE("metrics", metric_columns, 1, gp_metric_def,
                                                   -1);
