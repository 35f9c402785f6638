/* compare BASE NEW: two saved reports matched and judged; exits 1 when something got
 * significantly slower (for CI) and, as diff and cmp do, 2 on any trouble, two reports with
 * nothing in common included. */
#include "gpuprof/commands.h"

#include "gpuprof/compare.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

/* Two reports with nothing in common are trouble, not a pass: a CI job pointed at the wrong
 * files must fail. */
static int require_a_match(const gp_comparison *c)
{
    if (c->n_same + c->n_faster + c->n_slower > 0)
        return GP_OK;
    return gp_fail(GP_ERR_RUNTIME, "%s and %s have nothing in common (%zu only in the first, "
                                   "%zu only in the second; %s): nothing to compare",
                   c->base_file, c->next_file, c->n_only_base, c->n_only_new,
                   c->exec ? "kernels match by name, grid and block"
                           : "results match by family, variant, type, size, parameters and "
                             "block");
}

static int compare_files(const gp_request *req, FILE *out, gp_report *base, gp_report *next,
                         int *exit_status)
{
    GP_TRY(gp_report_read_json(req->operands[0], base));
    GP_TRY(gp_report_read_json(req->operands[1], next));
    gp_comparison c;
    int rc = gp_compare_reports(base, req->operands[0], next, req->operands[1],
                                req->threshold_pct, &c);
    if (rc == GP_OK)
        rc = require_a_match(&c);
    if (rc == GP_OK)
        rc = gp_render_compare(out, &c, gp_render_options_for(req));
    *exit_status = c.n_slower ? 1 : 0;
    gp_comparison_free(&c);
    return rc;
}

int gp_cmd_compare(const gp_request *req, FILE *out, gp_report *report)
{
    gp_report base, next;
    gp_report_init(&base);
    gp_report_init(&next);
    int rc = compare_files(req, out, &base, &next, &report->exit_status);
    gp_report_free(&base);
    gp_report_free(&next);
    return rc;
}
