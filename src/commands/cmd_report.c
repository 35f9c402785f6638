/* report FILE...: render saved JSON reports again, as text, JSON, CSV or HTML; several are
 * merged into one, each result labelled with its file, each file named once. The exec
 * reports of a distributed job's ranks (each with its rank) make a rank view instead: each
 * kernel per rank, read one file at a time, so that a thousand ranks take the memory of one
 * report. */
#include "gpuprof/commands.h"

#include "gpuprof/exec_ranges.h"
#include "gpuprof/order.h"
#include "gpuprof/ranks.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- each file once ------------------------------------------------------------------------ */

/* A file as the system knows it: its device and inode, whatever path names it (two spellings
 * of one path, a link to it); "-" is standard input's. */
typedef struct {
    dev_t dev;
    ino_t ino;
    size_t operand;              /* its place on the command line */
} file_identity;

static int by_identity(const void *a, const void *b)
{
    const file_identity *x = a, *y = b;
    const int dev = gp_order_u64(x->dev, y->dev), ino = gp_order_u64(x->ino, y->ino);
    return dev ? dev : ino ? ino : gp_order_u64(x->operand, y->operand);
}

/* A report merged with itself would count each of its kernels twice, "in 2 processes". A file
 * that cannot be looked at is left to the reader, which says why. */
static int check_each_once(const gp_request *req)
{
    if (req->n_operands < 2)
        return GP_OK;
    file_identity *ids = malloc(req->n_operands * sizeof *ids);
    if (!ids)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    size_t n = 0;
    for (size_t i = 0; i < req->n_operands; i++) {
        struct stat st;
        const char *file = req->operands[i];
        if ((strcmp(file, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(file, &st)) == 0)
            ids[n++] = (file_identity){st.st_dev, st.st_ino, i};
    }
    qsort(ids, n, sizeof *ids, by_identity);
    int rc = GP_OK;
    for (size_t k = 1; k < n && rc == GP_OK; k++) {
        if (ids[k].dev != ids[k - 1].dev || ids[k].ino != ids[k - 1].ino)
            continue;
        const char *later = req->operands[ids[k].operand];
        const char *first = req->operands[ids[k - 1].operand];
        rc = gp_fail(GP_ERR_USAGE, "%s %s%s: name each report once (one given twice would "
                     "count each of its kernels twice)", later,
                     strcmp(later, first) ? "is the same file as " : "is named twice",
                     strcmp(later, first) ? first : "");
    }
    free(ids);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------- */

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
    GP_TRY(check_each_once(req));
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

/* ---- what the report can show ------------------------------------------------------------- */

/* What a rank view has no rows for: it keeps each kernel's values per rank, not its launches,
 * metrics or lines. */
static int check_rank_view(const gp_request *req, const gp_report *report)
{
    if (!report->ranks)
        return GP_OK;
    if (req->source || req->sass)
        return gp_fail(GP_ERR_USAGE, "%s does not apply to ranks' reports (a rank view keeps "
                                     "times and DRAM bytes per rank: report one rank's file)",
                       req->source ? "--source" : "--sass");
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

/* --source and --sass show the per-line view: a report recorded without one has no lines to
 * show, and a table of none would pass for "no line moves memory". */
static int check_source(const gp_request *req, const gp_report *report)
{
    if (!(req->source || req->sass) || gp_report_has_source(report))
        return GP_OK;
    /* --sass shows the sampled instructions of --stalls' lines too. */
    if (!req->source && report->exec.stalls.sampled)
        return GP_OK;
    char others[64] = "";
    if (req->n_operands > 1)
        snprintf(others, sizeof others, " and the %zu other report%s", req->n_operands - 1,
                 req->n_operands > 2 ? "s" : "");
    return gp_fail(GP_ERR_USAGE, "%s: %s%s%s has %s per-line view (recorded without --source; "
                   "record one with 'gpuprof %s --source --json%s')",
                   req->source ? "--source" : "--sass", others[0] ? "none of " : "",
                   req->operands[0], others, others[0] ? "a" : "no",
                   report->is_exec ? "exec" : report->command,
                   report->is_exec ? " --output=FILE -- PROGRAM" : "");
}

/* --by-range shows the launches by NVTX range: a report recorded without --nvtx has none, and
 * a tree of one "(no range)" would pass for a program that opened none. A rank view shows each
 * range path over the ranks, where some rank's report had ranges. */
static int check_ranges(const gp_request *req, const gp_report *report)
{
    if (!req->by_range)
        return GP_OK;
    if (report->ranks && !report->ranks->n_ranges)
        return gp_fail(GP_ERR_USAGE, "--by-range: no rank of %s%s has NVTX ranges (a rank view "
                       "per range takes ranks' reports recorded with them: 'gpuprof exec --nvtx "
                       "--json --output=FILE -- PROGRAM' on each rank)", req->operands[0],
                       req->n_operands > 1 ? " and the other reports" : "");
    if (report->ranks)
        return GP_OK;
    if (gp_exec_has_ranges(&report->exec))
        return GP_OK;
    return gp_fail(GP_ERR_USAGE, "--by-range: %s has no NVTX ranges (%s; record them with "
                   "'gpuprof exec --nvtx --json --output=FILE -- PROGRAM')", req->operands[0],
                   !report->is_exec ? "it is not an exec report"
                                    : "recorded without --nvtx, or no launch was in a range");
}

/* --stalls shows why warps waited: a report recorded without it has nothing to show, and a
 * CSV of no rows would pass for a program whose warps never waited. */
static int check_stalls(const gp_request *req, const gp_report *report)
{
    if (!req->stalls || report->exec.stalls.sampled)
        return GP_OK;
    return gp_fail(GP_ERR_USAGE, "--stalls: %s%s was not recorded with --stalls (record one "
                   "with 'gpuprof exec --stalls --json --output=FILE -- PROGRAM')",
                   req->n_operands > 1 ? "none of the reports from " : "", req->operands[0]);
}

int gp_cmd_report(const gp_request *req, FILE *out, gp_report *report)
{
    GP_TRY(read_reports(req, report));
    if (req->launches && !report->is_exec)
        return gp_fail(GP_ERR_USAGE, "--launches applies to exec reports only (%s is a report "
                                     "of '%s')", req->operands[0], report->command);
    GP_TRY(check_rank_view(req, report));
    GP_TRY(check_source(req, report));
    GP_TRY(check_ranges(req, report));
    GP_TRY(check_stalls(req, report));
    return gp_render_report(out, report, gp_render_options_for(req));
}
