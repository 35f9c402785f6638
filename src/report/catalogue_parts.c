/* The catalogue commands' tables as parts (gpuprof/report_parts.h): `gpuprof list`'s variants
 * (rows made by catalogue/ from its family table: report/ may not read it). */
#include "gpuprof/report_parts.h"

#include <stdio.h>
#include <string.h>

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
