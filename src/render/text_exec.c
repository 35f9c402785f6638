/* Text output of gpuprof exec, for people, as nvprof printed it: what ran and how it ended
 * ("N launches of K kernels"); the summary, one row per kernel (its share of the time, its
 * launches and their times), or with --launches one row per launch (the launch part's
 * columns, gpuprof/report_parts.h, then how it was profiled, its metrics and kernel), or
 * with --by-range a row per NVTX range (text_ranges.c); then with --stalls why warps wait
 * (text_stalls.c), the kernels' metrics (text_exec_metrics.c); with --source each kernel's lines
 * (text_exec_lines.c). */
#include "gpuprof/exec_graph.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/kernel_labels.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/metrics.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_activities.h"
#include "render/text_exec_lines.h"
#include "render/text_exec_metrics.h"
#include "render/text_graph.h"
#include "render/text_launches.h"
#include "render/text_ranges.h"
#include "render/text_stalls.h"
#include "render/text.h"
#include "render/text_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 4096

/* The header's first line: the program, how it ended, what it launched. */
static void print_program(FILE *out, const gp_report *r, size_t n_kernels, size_t width)
{
    const gp_exec_info *e = &r->exec;
    char line[4 * GP_TEXT_LEN];
    size_t used = gp_text_exec_program(line, sizeof line, r);
    if (e->signal && used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used,
                                 ": killed by signal %d (exit status %d)", e->signal,
                                 e->exit_status);
    else if (used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used, ": exit status %d",
                                 e->exit_status);
    if (used < sizeof line)
        used += (size_t)snprintf(line + used, sizeof line - used, ", %zu launch%s of %zu "
                                 "kernel%s in %zu process%s", e->n_launches,
                                 e->n_launches == 1 ? "" : "es", n_kernels,
                                 n_kernels == 1 ? "" : "s", e->processes,
                                 e->processes == 1 ? "" : "es");
    if (e->rank.known && used < sizeof line)
        gp_exec_describe_rank(&e->rank, "; ", line + used, sizeof line - used);
    gp_text_paragraph(out, line, width, 2);
}

/* The header's second line: the GPUs and the metrics in a few words ("GPU 0: NVIDIA H100
 * (sm_90, 3352.3 GB/s peak); metrics: default set, kernel replay, 1/1 launches profiled");
 * how they were collected is the legend's, under the summary. */
static void print_device_and_metrics(FILE *out, const gp_report *r, size_t width)
{
    const gp_exec_info *e = &r->exec;
    const gp_profiler_info *p = &r->profiler;
    char line[2048];
    const size_t used = gp_text_exec_gpus(line, sizeof line, e);
    char replay[160] = "--replay=";
    if (gp_exec_rotated(p))
        snprintf(replay + 9, sizeof replay - 9, "%s", gp_exec_replay_name(p->replay));
    else
        gp_exec_describe_replay(p, replay, sizeof replay);
    if (p->state == GP_PROF_OK)
        snprintf(line + used, sizeof line - used, "; metrics: %s set, %s, %zu/%zu launches "
                 "profiled", p->metric_set, replay, gp_exec_profiled(e), e->n_launches);
    else
        snprintf(line + used, sizeof line - used, "; metrics: %s",
                 p->state == GP_PROF_UNAVAILABLE ? "unavailable (see below)" : "none");
    gp_text_paragraph(out, line, width, 2);
}

/* Under the summary: its legend, what its share divides by (the GPU activities' %GPU divides
 * by more) and the units of the whole report (the activities' bytes too); under either table
 * how the metrics and times were obtained, in full (the summary's passes column too; the
 * launches' legend says theirs). */
static void print_profiler(FILE *out, const gp_report *r, bool summary, size_t width)
{
    if (summary)
        gp_text_paragraph(out, "legend: %kernels = each kernel's share of the time of all "
                          "kernels; " GP_TEXT_UNITS, width, 2);
    const gp_profiler_info *p = &r->profiler;
    char replay[160], line[1024], sms[32] = "";
    gp_exec_describe_replay(p, replay, sizeof replay);
    if (r->exec.n_devices)
        snprintf(sms, sizeof sms, " (%d SMs)", r->exec.devices[0].multiprocessors);
    if (p->state == GP_PROF_OK && gp_exec_rotated(p))
        snprintf(line, sizeof line, "metrics: CUPTI range profiler on %s%s, --replay=%s (%s); "
                 "times from CUPTI's activity records, of a profiled launch from its counters "
                 "where it ran without SASS instrumentation%s", p->chip, sms,
                 gp_exec_replay_name(p->replay), replay,
                 summary ? "; passes: the one-pass groups a kernel's launches collected" : "");
    else if (p->state == GP_PROF_OK)
        snprintf(line, sizeof line, "metrics: CUPTI range profiler on %s%s, %s (%d pass%s); "
                 "times from CUPTI's activity records, of a profiled launch from its counters",
                 p->chip, sms, replay, p->passes, p->passes == 1 ? "" : "es");
    else if (p->state == GP_PROF_UNAVAILABLE)
        snprintf(line, sizeof line, "metrics: unavailable (%s); times from CUPTI's activity "
                 "records", p->reason);
    else
        snprintf(line, sizeof line, "times from CUPTI's activity records");
    gp_text_paragraph(out, line, width, 2);
    if (p->state == GP_PROF_OK && gp_exec_describe_footprint(p, line, sizeof line))
        gp_text_paragraph(out, line, width, 2);
}

static bool lacks_passes(const gp_profiler_info *p, const gp_exec_kernel *k)
{
    int n = 0;
    for (uint32_t m = k->passes; m; m &= m - 1)
        n++;
    return k->profiled > 0 && n < p->pass_groups;
}

#define MAX_NAMED 5

/* Under rotation: the kernels whose launches did not collect every pass (launched too few
 * times), named, so that their n/a metrics are not a surprise. */
static void print_lacking(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                          const gp_kernel_labels *kl, const gp_render_options *o)
{
    if (r->profiler.state != GP_PROF_OK || !gp_exec_rotated(&r->profiler))
        return;
    size_t lacking = 0;
    for (size_t i = 0; i < nk; i++)
        lacking += lacks_passes(&r->profiler, &k[i]);
    if (!lacking)
        return;
    char line[MAX_NAMED * (NAME_LEN + 16) + 256];
    size_t used = (size_t)snprintf(line, sizeof line, "%zu kernel%s lack%s passes (too few "
                                   "launches to collect each one; the metrics of a missing pass "
                                   "are n/a): ", lacking, lacking == 1 ? "" : "s",
                                   lacking == 1 ? "s" : "");
    for (size_t i = 0, named = 0; i < nk && named < MAX_NAMED && used < sizeof line; i++) {
        if (!lacks_passes(&r->profiler, &k[i]))
            continue;
        char passes[16];
        gp_exec_describe_passes(&r->profiler, k[i].passes, passes, sizeof passes);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s#%zu %s (%s)",
                                 named++ ? ", " : "", i + 1,
                                 gp_kernel_labels_name(kl, k[i].kernel, k[i].variant), passes);
    }
    if (lacking > MAX_NAMED && used < sizeof line)
        snprintf(line + used, sizeof line - used, ", and %zu more", lacking - MAX_NAMED);
    gp_text_paragraph(out, line, gp_text_width(o), 2);
}

/* ---- the summary: one row per kernel ----------------------------------------------------- */

static int print_kernels(FILE *out, const gp_report *r, const gp_exec_kernel *k, size_t nk,
                         const gp_kernel_labels *kl, const gp_render_options *o)
{
    gp_kernel_rows kr;
    GP_TRY(gp_kernel_rows_init(&kr, r, k, nk, kl));
    fputc('\n', out);
    const size_t width = gp_text_width(o);
    const int rc = gp_part_text(out, &gp_kernels_part, k, nk, &kr.ctx, width);
    const bool estimated = kr.ctx.estimated;
    gp_kernel_rows_free(&kr);
    if (rc == GP_OK && estimated)
        gp_text_estimate_note(out, width);
    char variants[512];
    if (rc == GP_OK && gp_exec_describe_variants(k, nk, variants, sizeof variants))
        gp_text_paragraph(out, variants, width, 2);
    return rc;
}

int gp_text_exec(FILE *out, const gp_report *r, const gp_render_options *o)
{
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    GP_TRY(gp_exec_summarize(&r->exec, &k, &nk));
    gp_kernel_labels kl;
    int rc = gp_kernel_labels_init(&kl, k, nk, o ? o->kernel_name : GP_KERNEL_NAME_SHORT);
    if (rc == GP_OK)
        rc = gp_kernel_labels_sources(&kl, r);
    if (rc != GP_OK) {
        gp_exec_summary_free(k, nk);
        return rc;
    }
    const size_t width = gp_text_width(o);
    /* Two lines of header; how the numbers were obtained follows the table, as its legend. */
    print_program(out, r, nk, width);
    print_device_and_metrics(out, r, width);
    gp_text_exec_sources(out, r, width);
    /* --launches and --by-range replace the summary, and leave out what is per kernel. */
    const bool launches = o && o->launches, ranges = o && o->by_range;
    rc = launches ? gp_text_launches(out, r, &kl, o)
         : ranges ? gp_text_ranges(out, r, k, nk, &kl, o)
                  : print_kernels(out, r, k, nk, &kl, o);
    const bool summary = !launches && !ranges;
    if (rc == GP_OK) {
        print_profiler(out, r, summary, width);
        print_lacking(out, r, k, nk, &kl, o);
        gp_text_graph_mode(out, &r->exec, width);
    }
    if (rc == GP_OK && summary)
        rc = gp_text_stalls(out, r, &kl, o);
    if (rc == GP_OK && summary)
        rc = gp_text_exec_metrics(out, r, k, nk, &kl, o);
    /* The GPU activities besides kernels (copies, memsets, unified memory), after them. */
    if (rc == GP_OK && summary)
        rc = gp_text_activities(out, r, &kl, o);
    /* --source: each kernel's lines, last, as the kernel commands show theirs. */
    if (rc == GP_OK)
        rc = gp_text_exec_lines(out, r, k, nk, &kl, o);
    gp_kernel_labels_free(&kl);
    gp_exec_summary_free(k, nk);
    return rc;
}
