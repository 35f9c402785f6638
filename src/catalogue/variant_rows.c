/* `gpuprof list`'s rows (gpuprof/registry.h): every variant of every family in plain words and
 * numbers, the rows of report/'s variants part (gpuprof/report_parts.h), which may not read
 * the family table itself. */
#include "gpuprof/registry.h"

#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"

#include <stdlib.h>

static gp_variant_row row_of(const gp_family *f, const gp_variant *v)
{
    gp_variant_row row = {.family = f->name, .family_summary = f->summary, .name = v->name,
                          .summary = v->summary, .origin = v->origin,
                          .block_x_mask = v->block_x_mask, .block_y_mask = v->block_y_mask,
                          .default_shape = v->default_block,
                          .in_place = (v->flags & GP_VF_IN_PLACE) != 0,
                          .library = (v->flags & GP_VF_LIBRARY) != 0};
    gp_describe_default_block(f, v, row.default_block, sizeof row.default_block);
    gp_describe_blocks(f, v, row.blocks, sizeof row.blocks);
    gp_describe_blocks_brief(f, v, row.blocks_brief, sizeof row.blocks_brief);
    return row;
}

int gp_variant_rows(struct gp_variant_row **out, size_t *n)
{
    size_t n_families, count = 0;
    const gp_family *families = gp_family_table(&n_families);
    for (size_t f = 0; f < n_families; f++)
        count += families[f].n_variants;
    gp_variant_row *rows = calloc(count, sizeof *rows);
    if (!rows)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *n = 0;
    for (size_t f = 0; f < n_families; f++)
        for (size_t i = 0; i < families[f].n_variants; i++)
            rows[(*n)++] = row_of(&families[f], &families[f].variants[i]);
    *out = rows;
    return GP_OK;
}
