/* The catalogue commands' tables as parts (gpuprof/report_parts.h): `gpuprof list`'s variants
 * (rows made by catalogue/ from its family table: report/ may not read it), and `gpuprof
 * device`'s GPUs in JSON (every report's device objects too). A device's text is a listing,
 * not a table: the view writes it. */
#include "gpuprof/report_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A column in JSON alone (the devices'). The number format says how people
 * would read it; JSON writes the number as it is. */
#define JSON_COLUMN(name, number_format, getter, meaning)                                     \
    {.key = (name), .format = (number_format), .in = GP_IN_JSON, .get = (getter),             \
     .legend = (meaning)}

/* ---- list: the variants ----------------------------------------------------------------- */

GP_PART_TEXT_GETTER(get_family, gp_variant_row, void, r->family)
GP_PART_TEXT_GETTER(get_variant, gp_variant_row, void, r->name)
GP_PART_TEXT_GETTER(get_default_block, gp_variant_row, void, r->default_block)
GP_PART_TEXT_GETTER(get_blocks, gp_variant_row, void, r->blocks)
GP_PART_TEXT_GETTER(get_origin, gp_variant_row, void, r->origin)
GP_PART_TEXT_GETTER(get_summary, gp_variant_row, void, r->summary)
GP_PART_NUMBER_GETTER(get_in_place, gp_variant_row, void, r->in_place)

enum { FAMILY, VARIANT, DEFAULT_BLOCK, BLOCKS, ORIGIN, SUMMARY, NAME, IN_PLACE };

/* In CSV's order; text's is the same without the family and origin, JSON has its own (the
 * variant's name first, as "name"). */
static const gp_part_column variant_columns[] = {
    [FAMILY] = {.key = "family", .in = GP_IN_CSV, .get = get_family},
    [VARIANT] = {.key = "variant", .header = "variant", .align = GP_ALIGN_LEFT, .gap = 2,
                 .in = GP_IN_TEXT | GP_IN_CSV, .get = get_variant},
    [DEFAULT_BLOCK] = {.key = "default_block", .header = "default", .align = GP_ALIGN_LEFT,
                       .gap = 2, .in = GP_IN_TEXT | GP_IN_CSV, .get = get_default_block,
                       .legend = "the block a run takes without --block (\"-\": a library "
                                 "call's own)"},
    [BLOCKS] = {.key = "blocks", .header = "blocks", .align = GP_ALIGN_LEFT, .gap = 2,
                .in = GP_IN_TEXT | GP_IN_CSV, .get = get_blocks,
                .legend = "the blocks --block takes"},
    [ORIGIN] = {.key = "origin", .in = GP_IN_CSV | GP_IN_JSON, .get = get_origin,
                .legend = "where it comes from: the book's kernel, or \"modern\""},
    [SUMMARY] = {.key = "summary", .header = "summary", .align = GP_ALIGN_PROSE, .gap = 2,
                 .in = GP_IN_TEXT | GP_IN_CSV | GP_IN_JSON, .get = get_summary},
    [NAME] = {.key = "name", .in = GP_IN_JSON, .get = get_variant},
    [IN_PLACE] = {.key = "in_place", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
                  .get = get_in_place,
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
