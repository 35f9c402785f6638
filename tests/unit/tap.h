/* A minimal TAP producer for the unit tests: `ok N - description`, a plan at the end. */
#ifndef GPUPROF_TAP_H
#define GPUPROF_TAP_H

#include <stdbool.h>

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

void test_numparse(void);
void test_cli(void);
void test_registry(void);
void test_plan(void);
void test_metrics(void);
void test_render(void);
void test_html_names(void);
void test_group(void);
void test_random(void);
void test_device(void);
void test_suggest(void);
void test_compare(void);
void test_hashmap(void);
void test_pass_groups(void);
void test_protocol(void);
void test_rotation(void);
void test_exec_read(void);
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

#endif
