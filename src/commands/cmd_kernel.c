/* The kernel commands (one per family): expand, run while the report is written result by
 * result (text and CSV rows as they become final, so that a sweep cut short keeps what it
 * printed), and turn failed checks into exit 1. A long run shows its progress on a terminal.
 * With --stalls, the command runs again in a child under exec (commands/kernel_stalls.h),
 * which only samples: --source's lines are its parent's, counted after it. */
#include "gpuprof/commands.h"

#include "commands/kernel_stalls.h"
#include "gpuprof/device.h"
#include "gpuprof/plan.h"
#include "gpuprof/render.h"
#include "gpuprof/runner.h"
#include "gpuprof/status.h"

#include <stdbool.h>
#include <time.h>
#include <unistd.h>

/* Progress is shown once the run has lasted this long: a short run's would only flicker. */
#define PROGRESS_AFTER_S 2.0

typedef struct {
    gp_report_stream *stream;
    const gp_report *report;
    size_t total;
    FILE *term;                /* stderr where it is a terminal, else NULL: no progress */
    struct timespec start;
    bool shown;                /* a progress line is on the terminal */
} sweep;

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

/* "[3/12] reduce unrollwarps8 int32 n=16777216 block=256x1 ...": the configuration that is
 * about to run. */
static void starting(void *ctx, size_t result)
{
    sweep *s = ctx;
    if (!s->term || seconds_since(&s->start) < PROGRESS_AFTER_S)
        return;
    char what[GP_TEXT_LEN], line[GP_TEXT_LEN + 32];
    gp_result_describe(&s->report->results[result], what, sizeof what);
    snprintf(line, sizeof line, "[%zu/%zu] %s ...", result + 1, s->total, what);
    gp_render_progress(s->term, line);
    s->shown = true;
}

static void clear_progress(sweep *s)
{
    if (s->shown)
        gp_render_progress_clear(s->term);
    s->shown = false;
}

/* The progress line goes first: results and progress may share a terminal. */
static int finished(void *ctx, size_t result)
{
    sweep *s = ctx;
    clear_progress(s);
    return gp_stream_result(s->stream, result);
}

static int run_and_render(const gp_request *req, const gp_plan *plan, FILE *out,
                          gp_report *report)
{
    sweep s = {.report = report, .total = plan->n_configs,
               .term = isatty(fileno(stderr)) ? stderr : NULL};
    clock_gettime(CLOCK_MONOTONIC, &s.start);
    GP_TRY(gp_stream_open(out, report, gp_render_options_for(req), &s.stream));
    size_t failed = 0;
    const gp_run_observer obs = {&s, starting, finished};
    const int rc = gp_run_plan(req, plan, report, &failed, &obs);
    clear_progress(&s);
    const int written = gp_stream_close(s.stream, rc == GP_OK);
    GP_TRY(rc);
    GP_TRY(written);
    if (failed)
        return gp_fail(GP_ERR_RUNTIME, "%zu result%s FAILED the check against the CPU", failed,
                       failed == 1 ? "" : "s");
    if (req->require_metrics && report->profiler.state != GP_PROF_OK)
        return gp_fail(GP_ERR_RUNTIME, "--require-metrics: %s", report->profiler.reason);
    return GP_OK;
}

int gp_cmd_kernel(const gp_request *req, FILE *out, gp_report *report)
{
    if (req->stalls && !gp_kernel_stalls_child())
        return gp_kernel_stalls(req, out, report);
    /* The sampled child patches nothing (patched code spoils PC sampling). */
    gp_request run = *req;
    if (req->stalls)
        run.source = run.sass = false;
    gp_device_use_one_queue();
    gp_plan plan;
    GP_TRY(gp_plan_expand(&run, &plan)); /* every usage error before any device */
    int rc = gp_report_set_command_line(report, req->argc, req->argv);
    if (rc == GP_OK)
        rc = run_and_render(&run, &plan, out, report);
    gp_plan_free(&plan);
    return rc;
}
