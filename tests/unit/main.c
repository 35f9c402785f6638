/* Unit tests (no GPU, no driver): TAP on stdout, exit 1 when any test failed. */
#include "tap.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tap_fixtures = "tests/fixtures";
static int counter, failures;

bool tap_ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%sok %d - ", cond ? "" : "not ", ++counter);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    if (!cond)
        failures++;
    return cond;
}

bool tap_near(double got, double want, double tol, const char *what)
{
    bool ok = fabs(got - want) <= tol;
    if (!ok)
        tap_diag("%s: got %.17g, want %.17g (tolerance %g)", what, got, want, tol);
    return tap_ok(ok, "%s", what);
}

bool tap_str_eq(const char *got, const char *want, const char *what)
{
    bool ok = got && want && strcmp(got, want) == 0;
    if (!ok)
        tap_diag("%s: got '%s', want '%s'", what, got ? got : "(null)", want ? want : "(null)");
    return tap_ok(ok, "%s", what);
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

char *tap_capture(int (*write)(FILE *f, const void *arg), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    const int rc = write(f, arg);
    fclose(f);
    if (rc != GP_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

typedef struct {
    const gp_report *r;
    gp_render_options o;
} report_rendering;

static int write_report(FILE *f, const void *arg)
{
    const report_rendering *x = arg;
    return gp_render_report(f, x->r, x->o);
}

char *tap_render_report(const gp_report *r, gp_render_options o)
{
    const report_rendering x = {r, o};
    return tap_capture(write_report, &x);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        tap_fixtures = argv[1];
    test_numparse();
    test_cli();
    test_registry();
    test_plan();
    test_metrics();
    test_render();
    test_short_names();
    test_group();
    test_random();
    test_device();
    test_suggest();
    test_collectives();
    test_checked_calls();
    test_compare();
    test_hashmap();
    test_pass_groups();
    test_protocol();
    test_rotation();
    test_exec_read();
    test_variants();
    test_exec_source();
    test_source_stalls();
    test_exec_summary();
    test_exec_ranges();
    test_apportion();
    test_exec_graph();
    test_activities();
    test_output_file();
    test_csv();
    test_kernel_name();
    test_origin_names();
    test_text_graph();
    test_text_layout();
    test_pm_sampler();
    test_stream();
    test_ranks();
    test_sort_moved();
    test_parts();
    test_source_record();
    test_counter_lock();
    test_nvtx_ranges();
    test_nvtx_filter();
    test_exec_stalls();
    printf("1..%d\n", counter);
    return failures ? 1 : 0;
}
