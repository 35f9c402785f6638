/* --source for the kernel commands: each configuration launched once more after timing and
 * profiling, with CUPTI's SASS metrics patching its kernels, its instructions grouped into the
 * result's per-line view (gpuprof/source_view.h). Private to src/runner/. */
#ifndef GPUPROF_RUNNER_SOURCE_LINES_H
#define GPUPROF_RUNNER_SOURCE_LINES_H

#include "gpuprof/report.h"
#include "gpuprof/sass_source.h"

/* Before the device is opened: watch the modules the driver loads (their cubins name each
 * instruction's line). */
int gp_source_lines_watch(void);
/* Once the device is open: the SASS metrics configured; NULL with a warning in the report
 * when CUPTI refuses, or when watching failed (`unwatched`: why; "" when it did not), and the
 * run goes on without lines. */
int gp_source_lines_open(int device, const char *unwatched, gp_report *report,
                         gp_sass_source **out);

/* What launches a configuration: its inputs restored, then its kernels. */
typedef struct {
    void *ctx;
    int (*restore)(void *ctx);
    int (*launch)(void *ctx);
} gp_source_target;

/* One patched run of the target: its lines into res (res->lines). */
int gp_source_lines_collect(gp_sass_source *s, int device, const gp_source_target *t,
                            gp_result *res);

/* The end of the run: the configuration and the cubins released. */
void gp_source_lines_close(gp_sass_source *s);

#endif
