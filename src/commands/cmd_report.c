/* report FILE...: render saved JSON reports again, as text, JSON, CSV or HTML; several are
 * merged into one, each result labelled with its file. The exec reports of a distributed
 * job's ranks (each with its rank) make a rank view instead: each kernel per rank, read one
 * file at a time, so that a thousand ranks take the memory of one report. */
#include "gpuprof/commands.h"

#include "gpuprof/ranks.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

/* How a report read from a file joins the others: merged into a report, or folded into a
 * rank view. */
typedef int add_report(void *into, gp_report *part, const char *file);

static int merge_into_report(void *into, gp_report *part, const char *file)
{
    return gp_report_merge(into, part, file);
}

static int fold_into_view(void *into, gp_report *part, const char *file)
{
    return gp_rank_merge_add(into, part, file);
}

/* `first` (read already), then each other file read: each added and freed before the next
 * is read. */
static int add_all(const gp_request *req, gp_report *first, add_report *add, void *into)
{
    int rc = add(into, first, req->operands[0]);
    gp_report_free(first);
    for (size_t i = 1; rc == GP_OK && i < req->n_operands; i++) {
        gp_report part;
        rc = gp_report_read_json(req->operands[i], &part);
        if (rc == GP_OK)
            rc = add(into, &part, req->operands[i]);
        gp_report_free(&part);
    }
    return rc;
}

/* The ranks' files as one rank view, made whole once every file is in. */
static int merge_ranks(const gp_request *req, gp_report *report, gp_report *first)
{
    gp_rank_merge *m;
    GP_TRY(gp_rank_merge_open(report, &m));
    const int rc = add_all(req, first, fold_into_view, m);
    const int closed = gp_rank_merge_close(m, rc == GP_OK);
    return rc != GP_OK ? rc : closed;
}

/* The files, one read as it is; several merged, as a rank view where the first has a rank
 * (--by-rank: even one). */
static int read_reports(const gp_request *req, gp_report *report)
{
    if (req->n_operands == 1 && !req->by_rank)
        return gp_report_read_json(req->operands[0], report);
    gp_report first;
    int rc = gp_report_read_json(req->operands[0], &first);
    if (rc == GP_OK && req->by_rank && !gp_report_has_rank(&first))
        rc = gp_fail(GP_ERR_USAGE, "--by-rank: %s has no rank (it shows ranks' exec reports "
                     "side by side; gpuprof exec records a rank from --rank=N, or from RANK, "
                     "OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID)", req->operands[0]);
    if (rc == GP_OK)
        rc = gp_report_has_rank(&first) ? merge_ranks(req, report, &first)
                                        : add_all(req, &first, merge_into_report, report);
    gp_report_free(&first);
    return rc;
}

/* What a rank view has no rows for: it keeps each kernel's values per rank, not its launches
 * or metrics. */
static int check_rank_view(const gp_request *req, const gp_report *report)
{
    if (!report->ranks)
        return GP_OK;
    if (req->launches)
        return gp_fail(GP_ERR_USAGE, "--launches does not apply to ranks' reports (a rank view "
                                     "keeps each kernel per rank, not its launches: report one "
                                     "rank's file)");
    if (req->metrics_detail)
        return gp_fail(GP_ERR_USAGE, "--metrics-detail does not apply to ranks' reports (a "
                                     "rank view keeps times and DRAM bytes per rank: report "
                                     "one rank's file)");
    return GP_OK;
}

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(read_reports(req, report));
    if (req->launches && !report->is_exec)
        return gp_fail(GP_ERR_USAGE, "--launches applies to exec reports only (%s is a report "
                                     "of '%s')", req->operands[0], report->command);
    GP_TRY(check_rank_view(req, report));
    return gp_render_report(out, report, gp_render_options_for(req));
}
