/* A minimal TAP producer for the unit tests: `ok N - description`, a plan at the end; and
 * what the tests of written output share: that output captured as a string (main.c). */
#ifndef GPUPROF_TAP_H
#define GPUPROF_TAP_H

#include "gpuprof/render.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stdio.h>

/* Record one assertion; returns cond so tests can stop early. */
bool tap_ok(bool cond, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Compare two doubles within an absolute tolerance. */
bool tap_near(double got, double want, double tol, const char *what);
bool tap_str_eq(const char *got, const char *want, const char *what);
void tap_diag(const char *fmt, ...);

/* The fixture folder (tests/fixtures), given on the command line. */
extern const char *tap_fixtures;

/* What write(f, arg) writes into a memory stream, as a heap string (the caller frees it); NULL
 * when no stream opens or write returns non-zero. */
char *tap_capture(int (*write)(FILE *f, const void *arg), const void *arg);
/* The report rendered with options o (its format among them), as tap_capture returns it. */
char *tap_render_report(const gp_report *r, gp_render_options o);

void test_numparse(void);
void test_cli(void);
void test_registry(void);
void test_plan(void);
void test_metrics(void);
void test_render(void);
void test_short_names(void);
void test_group(void);
void test_random(void);
void test_device(void);
void test_suggest(void);
void test_collectives(void);
void test_compare(void);
void test_hashmap(void);
void test_pass_groups(void);
void test_protocol(void);
void test_rotation(void);
void test_exec_read(void);
void test_variants(void);
void test_exec_source(void);
void test_source_stalls(void);
void test_exec_summary(void);
void test_exec_ranges(void);
void test_apportion(void);
void test_exec_graph(void);
void test_activities(void);
void test_output_file(void);
void test_csv(void);
void test_kernel_name(void);
void test_origin_names(void);
void test_text_graph(void);
void test_text_layout(void);
void test_pm_sampler(void);
void test_stream(void);
void test_ranks(void);
void test_sort_moved(void);
void test_parts(void);
void test_source_record(void);
void test_counter_lock(void);
void test_checked_calls(void);
void test_nvtx_ranges(void);
void test_nvtx_filter(void);
void test_exec_stalls(void);

#endif
