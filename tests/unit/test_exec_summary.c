/* gpuprof exec's per-kernel times (report/exec_summary.c) on launches made here: a kernel's
 * total is its calls at the mean of its timed launches, marked as an estimate where some were
 * untimed (rotation), and the shares and the order come from those totals. */
#include "tap.h"

#include "gpuprof/exec_summary.h"
#include "gpuprof/report.h"
#include "gpuprof/status.h"

#include <math.h>
#include <string.h>

#define UNTIMED (-1.0)

/* The launches, in program order: "none" twice untimed, "whole" three times at 5 ms, and
 * "part" ten times of which four timed (1, 2, 3, 4 ms): by the timed launches' sums "whole"
 * (15 ms) would come before "part" (10 ms); by the totals "part" (25 ms) comes first. */
static const struct {
    const char *kernel;
    double ms;
} launches[] = {
    {"none(int)", UNTIMED}, {"whole(int)", 5.0}, {"part(int)", 1.0},  {"part(int)", UNTIMED},
    {"part(int)", 2.0},     {"whole(int)", 5.0}, {"part(int)", UNTIMED}, {"part(int)", 3.0},
    {"none(int)", UNTIMED}, {"part(int)", UNTIMED}, {"part(int)", 4.0}, {"part(int)", UNTIMED},
    {"whole(int)", 5.0},    {"part(int)", UNTIMED}, {"part(int)", UNTIMED},
};
#define N_LAUNCHES (sizeof launches / sizeof launches[0])

static const gp_exec_kernel *find(const gp_exec_kernel *k, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].kernel, name) == 0)
            return &k[i];
    return NULL;
}

static void partly_timed(const gp_exec_kernel *part)
{
    tap_ok(part && part->calls == 10 && part->timed == 4 && part->total_estimated,
           "summary: 10 calls, 4 timed: the total is an estimate");
    tap_near(part ? part->total_ms : NAN, 25.0, 1e-12,
             "summary: the total is calls x the timed launches' mean (10 x 2.5 ms)");
    tap_ok(part && part->average_ms == 2.5 && part->min_ms == 1.0 && part->max_ms == 4.0,
           "summary: average, minimum and maximum of the timed launches");
}

static void fully_timed(const gp_exec_kernel *whole)
{
    tap_ok(whole && whole->calls == 3 && whole->timed == 3 && !whole->total_estimated,
           "summary: every launch timed: not an estimate");
    tap_near(whole ? whole->total_ms : NAN, 15.0, 1e-12, "summary: the timed launches' sum");
}

static void never_timed(const gp_exec_kernel *none)
{
    tap_ok(none && none->calls == 2 && none->timed == 0 && !none->total_estimated &&
               isnan(none->total_ms) && isnan(none->average_ms) && isnan(none->min_ms) &&
               isnan(none->time_percent),
           "summary: no launch timed: no total, no share, not an estimate");
}

/* The shares are of the totals, 25 + 15 ms: what is shown adds up to 100 %. */
static void shares_and_order(const gp_exec_kernel *k, size_t n)
{
    const gp_exec_kernel *part = find(k, n, "part(int)"), *whole = find(k, n, "whole(int)");
    tap_near(part ? part->time_percent : NAN, 62.5, 1e-9, "summary: time% of the estimate");
    tap_near(whole ? whole->time_percent : NAN, 37.5, 1e-9, "summary: time% of the other");
    tap_ok(n == 3 && k == part && k + 1 == whole && strcmp(k[2].kernel, "none(int)") == 0,
           "summary: the most time first by the totals; the kernel without one last");
    tap_ok(gp_exec_any_estimated(k, n) && !gp_exec_any_estimated(whole, 1),
           "summary: whether any total is an estimate");
}

void test_exec_summary(void)
{
    gp_exec_launch l[N_LAUNCHES];
    memset(l, 0, sizeof l);
    for (size_t i = 0; i < N_LAUNCHES; i++) {
        l[i].id = i + 1;
        l[i].kernel = (char *)launches[i].kernel;
        l[i].duration_ms = launches[i].ms;
        l[i].profiled = true;
    }
    const gp_exec_info e = {.launches = l, .n_launches = N_LAUNCHES};
    gp_exec_kernel *k = NULL;
    size_t n = 0;
    if (!tap_ok(gp_exec_summarize(&e, &k, &n) == GP_OK && n == 3, "summary: three kernels"))
        return;
    partly_timed(find(k, n, "part(int)"));
    fully_timed(find(k, n, "whole(int)"));
    never_timed(find(k, n, "none(int)"));
    shares_and_order(k, n);
    gp_exec_summary_free(k, n);
}
