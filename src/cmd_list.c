/* list: every family and variant with its summary, allowed and default blocks. */
#include "gpuprof/commands.h"

#include "gpuprof/registry.h"
#include "gpuprof/status.h"

static void list_text(FILE *out)
{
    for (int f = 0; f < GP_FAM_COUNT; f++) {
        const gp_variant *vs[64];
        size_t n = gp_family_variants((gp_family)f, vs, 64);
        if (n == 0)
            continue;
        fprintf(out, "%s: %s\n", gp_family_name((gp_family)f), gp_family_summary((gp_family)f));
        fprintf(out, "  %-22s %-9s %-36s %s\n", "variant", "default", "blocks", "summary");
        for (size_t i = 0; i < n && i < 64; i++) {
            char blocks[96], def[32];
            gp_describe_blocks(vs[i], blocks, sizeof blocks);
            gp_format_block(vs[i]->default_block, gp_family_is_2d((gp_family)f), def,
                            sizeof def);
            fprintf(out, "  %-22s %-9s %-36s %s\n", vs[i]->name, def, blocks, vs[i]->summary);
        }
        fputc('\n', out);
    }
}

static void list_csv(FILE *out, bool header)
{
    if (header)
        fputs("family,variant,default_block,blocks,origin,summary\n", out);
    size_t n;
    const gp_variant *v = gp_variant_table(&n);
    for (size_t i = 0; i < n; i++) {
        char blocks[96], def[32];
        gp_describe_blocks(&v[i], blocks, sizeof blocks);
        gp_format_block(v[i].default_block, gp_family_is_2d(v[i].family), def, sizeof def);
        fprintf(out, "%s,%s,%s,\"%s\",\"%s\",\"%s\"\n", gp_family_name(v[i].family), v[i].name,
                def, blocks, v[i].origin, v[i].summary);
    }
}

int gp_cmd_list(const gp_request *req, FILE *out)
{
    if (req->output == GP_OUT_JSON)
        GP_TRY(gp_render_list_json(out));
    else if (req->output == GP_OUT_CSV)
        list_csv(out, !req->no_header);
    else
        list_text(out);
    return fflush(out) == 0 ? GP_OK : gp_fail(GP_ERR_RUNTIME, "writing the list failed");
}
