/* gpuprof exec --source: the records of the patched launches (tests/fixtures/records/source,
 * written by hand as the library is to write them) read into each kernel's per-line view
 * (records/read_source.c), tied to the launches (report/exec_source.c), merged from a later
 * run of --replay=application (records/merge_runs.c), and written as exec would write them:
 * tests/fixtures/exec-source.json is that report, and is checked to stay so. To write it again
 * after a deliberate change: GPUPROF_EXEC_SOURCE_OUT=tests/fixtures/exec-source.json
 * build/tests/unit_tests >/dev/null. */
#include "tap.h"
#include "exec_records.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/protocol.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "records/records.h"
#include "gpuprof/source_labels.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRIDED "_Z11copyStridedPfPKfm"
#define FILL "_Z9fillValuePfmf"
#define JIT "_Z9jitKernelPf"
#define WARPS 32768u

static const gp_exec_source_view *view_of(const gp_report *r, const char *kernel)
{
    for (size_t i = 0; i < r->exec.n_source_views; i++)
        if (strcmp(r->exec.source_views[i].view.kernel, kernel) == 0)
            return &r->exec.source_views[i];
    return NULL;
}

static const gp_exec_launch *launch_of(const gp_report *r, uint64_t id)
{
    for (size_t i = 0; i < r->exec.n_launches; i++)
        if (r->exec.launches[i].id == id)
            return &r->exec.launches[i];
    return NULL;
}

/* copyStrided: lines 20 to 23 of copy.cu, the instructions summed per line, in pc order. */
static void strided_view(const gp_report *r)
{
    const gp_exec_source_view *v = view_of(r, STRIDED);
    if (!tap_ok(v && v->pid == 690 && v->launch == 2 && !v->note && v->view.has_lines,
                "source: copyStrided's view comes from launch 2 of process 690, with lines"))
        return;
    const gp_source_kernel *k = &v->view;
    tap_ok(k->n_lines == 4 && k->lines[0].line == 20 && k->lines[3].line == 23 &&
               strcmp(k->lines[2].file, "/nonexistent/gpuprof/tests/apps/copy.cu") == 0,
           "source: its four lines in line order, the file as the records name it");
    const uint64_t *c = k->n_lines == 4 ? k->lines[2].counts : NULL;
    tap_ok(c && c[GP_SRC_INST] == 3 * WARPS && c[GP_SRC_GLOBAL_LD] == WARPS &&
               c[GP_SRC_GLOBAL_ST] == WARPS && c[GP_SRC_SECTORS] == 1179648 &&
               c[GP_SRC_SECTORS_IDEAL] == 262144 && gp_source_excess(c) == 917504,
           "source: line 22 sums its three instructions: 917504 sectors over the ideal");
    tap_ok(k->n_lines == 4 && k->lines[0].counts[GP_SRC_INST] == 3 * WARPS &&
               k->lines[3].counts[GP_SRC_INST] == WARPS && gp_source_kernel_excess(k) == 917504,
           "source: the other lines' instructions; the kernel's excess is line 22's");
    bool ordered = k->n_pcs == 10;
    for (size_t i = 0; ordered && i < k->n_pcs; i++)
        ordered = k->pcs[i].pc == 0x10 * i;
    tap_ok(ordered && k->pcs[6].line == 2 && k->pcs[6].counts[GP_SRC_SECTORS] == 1048576 &&
               k->pcs[8].line == 3 && k->pcs[9].counts[GP_SRC_INST] == 0,
           "source: its ten instructions in pc order (read out of order), each under its line");
}

/* fillValue: no line information, each instruction a line of its own; jitKernel: a note. */
static void other_views(const gp_report *r)
{
    const gp_exec_source_view *v = view_of(r, FILL);
    tap_ok(v && v->launch == 4 && !v->view.has_lines && v->view.n_lines == 3 &&
               !v->view.lines[1].file && v->view.lines[1].line == 0 &&
               v->view.lines[1].counts[GP_SRC_SECTORS] == 32768 && v->view.n_pcs == 3 &&
               v->view.pcs[1].pc == 0x10,
           "source: fillValue has no line information: its three instructions, a line each");
    v = view_of(r, JIT);
    tap_ok(v && v->launch == GP_NO_LAUNCH && v->view.n_lines == 0 && v->view.n_pcs == 0 &&
               v->note && strstr(v->note, "JIT-compiled PTX"),
           "source: jitKernel has no view, and the library's note says why");
    tap_ok(r->exec.n_source_views == 3 && r->exec.source_views[2].launch == GP_NO_LAUNCH,
           "source: three views by launch, the note's last; scaleOnce (never patched) none");
}

static void source_case(const gp_report *r)
{
    tap_ok(r->n_warnings == 0, "source: every record read (%zu warnings)", r->n_warnings);
    strided_view(r);
    other_views(r);
    const gp_exec_launch *patched = launch_of(r, 2), *plain = launch_of(r, 5);
    tap_ok(patched && patched->note && strstr(patched->note, "patched by --source: not timed") &&
               patched->duration_ms < 0 && plain && !plain->note,
           "source: the patched launch is among the launches, untimed, its note says why; the "
           "others have no note");
    const gp_exec_source_view *v = view_of(r, STRIDED);
    char *name = v ? gp_exec_source_kernel(&r->exec, v) : NULL;
    tap_ok(v && gp_exec_source_ordinal(&r->exec, v) == 2 && gp_exec_source_launch(&r->exec, v) ==
               patched && name && strcmp(name, patched->kernel) == 0,
           "source: the view's launch is the kernel's second (ncu --launch-skip=1), named as "
           "the summary names it");
    free(name);
    v = view_of(r, JIT);
    name = v ? gp_exec_source_kernel(&r->exec, v) : NULL;
    tap_ok(v && gp_exec_source_ordinal(&r->exec, v) == 0 && name &&
               strcmp(name, "jitKernel(float *)") == 0,
           "source: a view without a launch has no place, its name from its process's launches");
    free(name);
}

/* ---- records not as the library writes them ------------------------------------------------ */

#define PROCESS "{\"t\":\"process\",\"pid\":9,\"ppid\":1}\n"
#define END "{\"t\":\"end\",\"pid\":9}\n"
#define SOURCE_HEAD "{\"t\":\"source\",\"pid\":9,\"context\":1,\"device\":0,\"launch\":3," \
                    "\"kernel\":\"_Z1kv\","
#define COUNTS "\"counts\":[1,0,0,0,0,0,0,0,0,0,0,0]"

/* The text's views and warnings: n views, and the first warning containing `warning` (NULL:
 * none). */
static bool reads_as(const char *text, size_t views, const char *warning)
{
    gp_report r;
    const int rc = read_text(text, &r);
    bool ok = rc == GP_OK && r.exec.n_source_views == views &&
              (warning ? r.n_warnings == 1 && strstr(r.warnings[0], warning)
                       : r.n_warnings == 0);
    if (!ok)
        tap_diag("status %d, %zu views, %zu warnings: %s", rc, r.exec.n_source_views,
                 r.n_warnings, r.n_warnings ? r.warnings[0] : "");
    gp_report_free(&r);
    return ok;
}

static void bad_records(void)
{
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":1152921504606846976,\"pc\":0," COUNTS "}\n"
                    SOURCE_HEAD "\"crc\":\"18446744073709551615\",\"pc\":16," COUNTS "}\n" END,
                    1, NULL),
           "source records: a CRC as a number above 2^53, or as the decimal digits of 2^64 - 1");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":\"18446744073709551616\",\"pc\":0," COUNTS
                    "}\n" END, 0, "crc: more than 64 bits: the record is ignored"),
           "source records: a CRC of more than 64 bits is refused");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":\"0x12\",\"pc\":0," COUNTS "}\n" END, 0,
                    "crc: expected a whole number, or its decimal digits as a string"),
           "source records: a CRC in hexadecimal is refused");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":1,\"pc\":0,\"file\":\"a.cu\"," COUNTS "}\n" END,
                    0, "line: expected a line with its file, or neither"),
           "source records: a file without its line is refused");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":1,\"pc\":0,\"counts\":[1,2]}\n" END, 0,
                    "counts: expected 12 counts"),
           "source records: counts of another length are refused");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":1,\"pc\":0,"
                    "\"counts\":[1,0,0,0,0,0,0,0,0,0,0,-1]}\n" END, 0, "counts[11]: must be from 0"),
           "source records: a negative count is refused, with its index");
    tap_ok(reads_as(PROCESS "{\"t\":\"source_note\",\"pid\":9,\"kernel\":\"_Z1kv\",\"note\":\"\"}\n"
                    END, 0, "note: expected why the kernel has no lines"),
           "source records: an empty note is refused");
    tap_ok(reads_as(PROCESS SOURCE_HEAD "\"crc\":1,\"pc\":0," COUNTS "}\n"
                    "{\"t\":\"source_note\",\"pid\":9,\"kernel\":\"_Z1kv\",\"note\":\"a\"}\n"
                    "{\"t\":\"source_note\",\"pid\":9,\"kernel\":\"_Z1kv\",\"note\":\"b\"}\n" END,
                    1, NULL),
           "source records: a note of a kernel with a view is that view's");
}

/* ---- --replay=application: a later run's views ------------------------------------------- */

/* The records of the case as text, with every "690" made `pid` and, without_source, the
 * source records left out. */
static char *case_text(const char *pid, bool without_source)
{
    char path[512];
    snprintf(path, sizeof path, "%s/records/source/690.jsonl", tap_fixtures);
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 16), line[4096];
    size_t used = 0;
    while (f && text && fgets(line, sizeof line, f)) {
        if (without_source && strncmp(line, "{\"t\":\"source", 12) == 0)
            continue;
        for (const char *c = line; *c; c++)
            if (strncmp(c, "690", 3) == 0) {
                used += (size_t)snprintf(text + used, (1 << 16) - used, "%s", pid);
                c += 2;
            } else if (used + 1 < (1 << 16)) {
                text[used++] = *c;
            }
    }
    if (f)
        fclose(f);
    return text;
}

static int read_case_text(const char *pid, bool without_source, gp_report *r)
{
    char *text = case_text(pid, without_source);
    const int rc = text ? read_text(text, r) : GP_ERR_RUNTIME;
    free(text);
    return rc;
}

static void application_runs(void)
{
    gp_report first, later;
    int rc = read_case_text("690", true, &first);
    gp_report_init(&later);
    if (rc == GP_OK)
        rc = read_case_text("695", false, &later);
    if (rc == GP_OK)
        rc = gp_records_merge_run(&first, &later, 1, 0);
    const gp_exec_source_view *v = rc == GP_OK ? view_of(&first, STRIDED) : NULL;
    tap_ok(first.exec.n_source_views == 3 && v && v->pid == 690 && v->launch == 2 &&
               v->view.n_lines == 4 && view_of(&first, JIT) && view_of(&first, JIT)->pid == 690,
           "application replay: a later run's views are the first run's, its process and "
           "launch those of the matching launch");
    gp_report_free(&later);
    rc = read_case_text("695", false, &later);
    if (rc == GP_OK)
        rc = gp_records_merge_run(&first, &later, 2, 0);
    tap_ok(rc == GP_OK && first.exec.n_source_views == 3,
           "application replay: a view the first run has already is not added twice");
    gp_report_free(&first);
    gp_report_free(&later);
}

/* ---- the fixture -------------------------------------------------------------------------- */

/* The case read as gpuprof exec reads it (cmd_exec.c). */
static int exec_report(gp_report *r)
{
    static char *const command_line[] = {"gpuprof", "exec", "--source", "--json",
                                         "--output=exec-source.json", "--",
                                         "build/tests/apps/strided", NULL};
    return exec_report_of("source", command_line, 7, 690, r);
}

static void write_fixture(const char *json)
{
    const char *out = getenv("GPUPROF_EXEC_SOURCE_OUT");
    FILE *f = out ? fopen(out, "w") : NULL;
    if (f) {
        fputs(json, f);
        fclose(f);
    }
}

/* The report's `exec` and `profiler` as JSON, and whether they are the fixture's. */
static void fixture_is_the_records(void)
{
    gp_report made, fixture;
    char path[512];
    snprintf(path, sizeof path, "%s/exec-source.json", tap_fixtures);
    int rc = exec_report(&made);
    char *json = rc == GP_OK ? tap_render_report(&made, (gp_render_options){.format = GP_OUT_JSON})
                             : NULL;
    if (json)
        write_fixture(json);
    gp_report_init(&fixture);
    rc = gp_report_read_json(path, &fixture);
    char *again = rc == GP_OK ? tap_render_report(&fixture,
                                                  (gp_render_options){.format = GP_OUT_JSON})
                              : NULL;
    cJSON *a = json ? cJSON_Parse(json) : NULL, *b = again ? cJSON_Parse(again) : NULL;
    const bool same = a && b &&
                      cJSON_Compare(cJSON_GetObjectItem(a, "exec"),
                                    cJSON_GetObjectItem(b, "exec"), true) &&
                      cJSON_Compare(cJSON_GetObjectItem(a, "profiler"),
                                    cJSON_GetObjectItem(b, "profiler"), true) &&
                      cJSON_Compare(cJSON_GetObjectItem(a, "warnings"),
                                    cJSON_GetObjectItem(b, "warnings"), true);
    if (!same)
        tap_diag("%s: %s", path, rc == GP_OK ? "differs from the records" : gp_error());
    tap_ok(same, "exec-source.json is the records of the case as exec writes them");
    tap_ok(fixture.exec.request.source && fixture.exec.n_source_views == 3,
           "exec-source.json reads back with --source asked and its three views");
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(json);
    free(again);
    gp_report_free(&made);
    gp_report_free(&fixture);
}

/* gp_source_without_lines' reasons, each kernel's in turn. */
typedef struct {
    const char *why[4];
    size_t n;
} reasons;

static int keep_reason(void *ctx, size_t number, const char *kernel,
                       const gp_exec_source_view *v, const char *why)
{
    (void)number;
    (void)kernel;
    (void)v;
    reasons *r = ctx;
    if (r->n < 4)
        r->why[r->n++] = why;
    return GP_OK;
}

static void why_no_view(void)
{
    const gp_exec_kernel k[] = {{.kernel = "once", .calls = 1, .profiled = 1},
                                {.kernel = "unprofiled", .calls = 4, .profiled = 0},
                                {.kernel = "later", .calls = 5, .profiled = 2}};
    reasons r = {{NULL}, 0};
    const int rc = gp_source_without_lines(NULL, 0, k, 3, keep_reason, &r);
    tap_ok(rc == GP_OK && r.n == 2 && strcmp(r.why[0], GP_NO_PATCHED_LAUNCH) == 0 &&
               strcmp(r.why[1], GP_NO_LAUNCH_AFTER_COUNTERS) == 0,
           "source: a profiled kernel without a view is said to have been launched too few "
           "times when every launch was profiled, else that no launch came after its "
           "counters; an unprofiled one is not listed");
}

/* The per-line parts name each counter of gpuprof/sass_source.h by its key, in the
 * counters' order, as JSON and CSV always have. */
static void part_keys(void)
{
    static const char *const keys[GP_SRC_COUNTERS] = {
        [GP_SRC_INST] = "instructions", [GP_SRC_GLOBAL_LD] = "global_loads",
        [GP_SRC_GLOBAL_ST] = "global_stores", [GP_SRC_SECTORS] = "sectors",
        [GP_SRC_SECTORS_IDEAL] = "ideal_sectors", [GP_SRC_SHARED_LD] = "shared_loads",
        [GP_SRC_SHARED_ST] = "shared_stores", [GP_SRC_WAVEFRONTS] = "shared_wavefronts",
        [GP_SRC_WAVEFRONTS_IDEAL] = "shared_ideal_wavefronts",
        [GP_SRC_LOCAL_LD] = "local_loads", [GP_SRC_LOCAL_ST] = "local_stores",
        [GP_SRC_LOCAL_SECTORS] = "local_sectors"};
    const gp_part *parts[] = {&gp_source_line_part, &gp_source_exec_line_part,
                              &gp_source_pc_part};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        int k = 0;
        for (size_t c = 0; c < parts[p]->n_columns && k < GP_SRC_COUNTERS; c++)
            k += strcmp(parts[p]->columns[c].key, keys[k]) == 0;
        tap_ok(k == GP_SRC_COUNTERS, "source: the %s part names every counter by its key, "
               "in order", parts[p]->key);
    }
}

void test_exec_source(void)
{
    why_no_view();
    part_keys();
    check_case("source", source_case);
    bad_records();
    application_runs();
    fixture_is_the_records();
}
