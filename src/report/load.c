/* Reading a report saved with --json back into the report structs, strictly: every field the
 * schema (schemas/gpuprof-report-v1.schema.json) requires must be there with its type and
 * range, and the first problem is the one reported, as "<file>: <JSON path>: <what is
 * wrong>" (results[0].timing: expected an object). Nothing is ever filled in by default.
 * Keys this gpuprof does not know are passed over: within schema_version 1 a newer gpuprof
 * only adds keys, so its reports stay readable here; a new major version is refused. This file reads the document and a kernel command's results;
 * report/load_parts.c the devices and metric sets, report/load_exec.c the exec section, and
 * the JSON-input layer report/json_in.c the values and the text (UTF-8, size and depth). */
#include "gpuprof/exec_modes.h"
#include "gpuprof/exec_request.h"
#include "gpuprof/report.h"

#include "gpuprof/status.h"
#include "report/json_in.h"
#include "report/load_exec.h"
#include "report/load_parts.h"
#include "report/load_ranks.h"
#include "report/load_source.h"
#include "report/other_documents.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the run, the profiler ---------------------------------------------------------------- */

static int read_run(gp_json_reader *rd, const cJSON *run, void *report)
{
    gp_report *r = report;
    GP_TRY(gp_json_get_optional_number(rd, run, "max_noise_pct", 0, &r->max_noise_pct));
    uint64_t seed;
    char unit[64];
    GP_TRY(gp_json_get_uint(rd, run, "repeat", 1, &r->repeat));
    GP_TRY(gp_json_get_uint(rd, run, "warmup", 0, &r->warmup));
    GP_TRY(gp_json_get_integer(rd, run, "seed", 0, UINT64_MAX, &seed));
    r->seed = seed;
    GP_TRY(gp_json_get_string(rd, run, "time_unit", unit, sizeof unit));
    GP_TRY(gp_json_expect(rd, "time_unit", strcmp(unit, "ms") == 0, "\"ms\""));
    return gp_json_get_string(rd, run, "bandwidth_unit", unit, sizeof unit);
}

static const char *const profiler_states[] = {"disabled", "ok", "unavailable"};
static const char *const metric_sets[] = {"default", "all", "list"};

/* exec's --replay and the one-pass groups its launches rotated over, in the exec reports
 * that have them. */
static int read_replay(gp_json_reader *rd, const cJSON *o, gp_profiler_info *p)
{
    int replay;
    if (gp_json_field(o, "replay")) {
        GP_TRY(gp_json_get_enum(rd, o, "replay", gp_exec_replay_names, GP_EXEC_REPLAY_MODES,
                                false, &replay));
        p->has_replay = true;
        p->replay = (gp_exec_replay)replay;
    }
    unsigned groups = 0;
    if (gp_json_field(o, "pass_groups"))
        GP_TRY(gp_json_get_uint(rd, o, "pass_groups", 1, &groups));
    GP_TRY(gp_json_expect(rd, "pass_groups", groups <= 32, "at most 32"));
    p->pass_groups = (int)groups;
    return GP_OK;
}

static int read_footprint(gp_json_reader *rd, const cJSON *o, void *profiler)
{
    gp_auto_footprint *f = &((gp_profiler_info *)profiler)->footprint;
    GP_TRY(gp_json_get_bool(rd, o, "replay", &f->replays));
    GP_TRY(gp_json_get_integer(rd, o, "held_bytes", 0, UINT64_MAX, &f->held));
    GP_TRY(gp_json_get_integer(rd, o, "free_bytes", 0, UINT64_MAX, &f->free));
    GP_TRY(gp_json_get_integer(rd, o, "total_bytes", 0, UINT64_MAX, &f->total));
    GP_TRY(gp_json_get_integer(rd, o, "budget_bytes", 0, UINT64_MAX, &f->budget));
    f->known = true;
    return GP_OK;
}

static int read_profiler(gp_json_reader *rd, const cJSON *o, void *profiler)
{
    gp_profiler_info *p = profiler;
    int state, set;
    GP_TRY(gp_json_get_enum(rd, o, "state", profiler_states, 3, false, &state));
    p->state = (gp_profiler_state)state; /* the enum's order */
    const cJSON *reason;
    GP_TRY(gp_json_need(rd, o, "reason", &reason));
    if (!cJSON_IsNull(reason))
        GP_TRY(gp_json_get_string(rd, o, "reason", p->reason, sizeof p->reason));
    if (gp_json_field(o, "chip"))
        GP_TRY(gp_json_get_string(rd, o, "chip", p->chip, sizeof p->chip));
    if (gp_json_field(o, "passes"))
        GP_TRY(gp_json_get_int(rd, o, "passes", 1, &p->passes));
    if (gp_json_field(o, "metric_set")) {
        GP_TRY(gp_json_get_enum(rd, o, "metric_set", metric_sets, 3, false, &set));
        snprintf(p->metric_set, sizeof p->metric_set, "%s", metric_sets[set]);
    }
    GP_TRY(read_replay(rd, o, p));
    if (gp_json_field(o, "auto_replay"))
        GP_TRY(gp_json_read_object(rd, o, "auto_replay", false, read_footprint, p));
    char text[GP_TEXT_LEN];
    for (const char *const *k = (const char *const[]){"api", "cache_control", "clock_control",
                                                      NULL};
         *k; k++)
        if (gp_json_field(o, *k))
            GP_TRY(gp_json_get_string(rd, o, *k, text, sizeof text));
    return GP_OK;
}

/* ---- results ------------------------------------------------------------------------------- */

/* [x, y] of whole numbers of at least 1, when the key is there. */
static int get_shape(gp_json_reader *rd, const cJSON *o, const char *key, unsigned *x,
                     unsigned *y)
{
    const cJSON *a = gp_json_field(o, key);
    if (!a)
        return GP_OK;
    uint64_t xy[2];
    GP_TRY(gp_json_get_wholes(rd, a, key, 2, 1, UINT_MAX, "two whole numbers", xy));
    *x = (unsigned)xy[0];
    *y = (unsigned)xy[1];
    return GP_OK;
}

static const char *const check_names[] = {"passed", "FAILED", "skipped"};

static int read_check(gp_json_reader *rd, const cJSON *o, void *check)
{
    gp_check *c = check;
    int status, after;
    uint64_t mismatches;
    GP_TRY(gp_json_get_enum(rd, o, "status", check_names, 3, false, &status));
    c->status = (gp_check_status)status; /* the enum's order */
    GP_TRY(gp_json_get_bool(rd, o, "exact", &c->exact));
    GP_TRY(gp_json_get_number(rd, o, "expected", -INFINITY, true, &c->expected));
    GP_TRY(gp_json_get_number(rd, o, "got", -INFINITY, true, &c->got));
    GP_TRY(gp_json_get_number(rd, o, "tolerance", 0, false, &c->tolerance));
    GP_TRY(gp_json_get_integer(rd, o, "mismatches", 0, UINT64_MAX, &mismatches));
    c->mismatches = mismatches;
    GP_TRY(gp_json_get_string(rd, o, "detail", c->detail, sizeof c->detail));
    GP_TRY(gp_json_get_enum(rd, o, "after_profile", check_names, 3, true, &after));
    c->rechecked = after >= 0;
    c->after_profile = after >= 0 ? (gp_check_status)after : GP_CHECK_PASSED;
    return GP_OK;
}

static int read_launch_record(gp_json_reader *rd, const cJSON *o, void *result)
{
    gp_launch_record *l;
    GP_TRY(gp_result_add_launch(result, &l));
    GP_TRY(gp_json_get_string(rd, o, "kernel", l->kernel, sizeof l->kernel));
    GP_TRY(gp_json_get_dim(rd, o, "grid", &l->grid));
    GP_TRY(gp_json_get_dim(rd, o, "block", &l->block));
    uint64_t shared;
    GP_TRY(gp_json_get_integer(rd, o, "shared_bytes", 0, SIZE_MAX, &shared));
    l->shared_bytes = (size_t)shared;
    bool library;
    GP_TRY(gp_json_get_bool(rd, o, "library_call", &library));
    l->opaque = library;
    GP_TRY(get_shape(rd, o, "input_shape", &l->in_nx, &l->in_ny));
    GP_TRY(get_shape(rd, o, "output_shape", &l->out_nx, &l->out_ny));
    GP_TRY(gp_json_get_number(rd, o, "median_ms", 0, true, &l->median_ms));
    if (isnan(l->median_ms))
        l->median_ms = -1.0;
    return gp_report_read_metrics(rd, o, "metrics", &l->metrics);
}

static int read_launches(gp_json_reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *launches;
    GP_TRY(gp_json_get_array(rd, o, "launches", &launches));
    GP_TRY(gp_json_expect(rd, "launches", cJSON_GetArraySize(launches) >= 1,
                          "at least one launch"));
    return gp_json_read_objects(rd, o, "launches", read_launch_record, res);
}

/* The passes of a multi-pass workload repeat its launches' shapes and times: checked, not
 * kept (the writer derives them from the launches). */
static int check_passes(gp_json_reader *rd, const cJSON *o)
{
    const cJSON *passes = gp_json_field(o, "passes"), *p;
    if (!passes)
        return GP_OK;
    GP_TRY(gp_json_expect(rd, "passes", cJSON_IsArray(passes), "an array"));
    const size_t at = gp_json_enter_key(rd, "passes");
    size_t i = 0;
    int rc = GP_OK;
    cJSON_ArrayForEach(p, passes)
    {
        const size_t at_i = gp_json_enter_index(rd, i++);
        unsigned n, x, y;
        double ms;
        rc = cJSON_IsObject(p) ? GP_OK : gp_json_fail(rd, "expected an object");
        if (rc == GP_OK)
            rc = gp_json_get_uint(rd, p, "pass", 1, &n);
        for (const char *const *k = (const char *const[]){"input_shape", "output_shape", NULL};
             rc == GP_OK && *k; k++) {
            const cJSON *shape;
            rc = gp_json_need(rd, p, *k, &shape);
            if (rc == GP_OK)
                rc = get_shape(rd, p, *k, &x, &y);
        }
        if (rc == GP_OK)
            rc = gp_json_get_number(rd, p, "median_ms", 0, true, &ms);
        gp_json_leave(rd, at_i);
        if (rc != GP_OK)
            break;
    }
    gp_json_leave(rd, at);
    return rc;
}

static int read_params(gp_json_reader *rd, const cJSON *o, gp_result *res)
{
    const cJSON *params, *p;
    GP_TRY(gp_json_get_object(rd, o, "params", &params, false));
    const size_t at = gp_json_enter_key(rd, "params");
    int rc = GP_OK;
    cJSON_ArrayForEach(p, params)
    {
        double v;
        if (res->n_params >= GP_RESULT_MAX_PARAMS)
            rc = gp_json_fail(rd, "more than %d parameters", GP_RESULT_MAX_PARAMS);
        else if (strlen(p->string) >= sizeof res->params[0].name)
            rc = gp_json_fail(rd, "a parameter name longer than %zu characters",
                              sizeof res->params[0].name - 1);
        else
            rc = gp_json_get_number(rd, params, p->string, -INFINITY, true, &v);
        if (rc == GP_OK)
            rc = gp_result_add_param(res, p->string, v);
        if (rc != GP_OK)
            break;
    }
    gp_json_leave(rd, at);
    return rc;
}

static int read_size(gp_json_reader *rd, const cJSON *size, void *result)
{
    gp_result *res = result;
    uint64_t n;
    GP_TRY(gp_json_get_integer(rd, size, "n", 1, UINT64_MAX, &n));
    res->n = n;
    if (!gp_json_field(size, "nx") && !gp_json_field(size, "ny"))
        return GP_OK;
    GP_TRY(gp_json_get_uint(rd, size, "nx", 1, &res->nx));
    return gp_json_get_uint(rd, size, "ny", 1, &res->ny);
}

static int read_launch_shape(gp_json_reader *rd, const cJSON *launch, void *result)
{
    gp_result *res = result;
    uint64_t shared, kernels;
    GP_TRY(gp_json_get_dim(rd, launch, "grid", &res->grid));
    GP_TRY(gp_json_get_dim(rd, launch, "block", &res->block));
    GP_TRY(gp_json_get_integer(rd, launch, "shared_bytes", 0, SIZE_MAX, &shared));
    res->shared_bytes = (size_t)shared;
    return gp_json_get_integer(rd, launch, "kernels", 1, UINT64_MAX, &kernels);
}

static int read_timing(gp_json_reader *rd, const cJSON *t, void *timing)
{
    gp_timing *tm = timing;
    GP_TRY(gp_json_get_optional_number(rd, t, "noise_pct", 0, &tm->noise_pct));
    GP_TRY(gp_json_get_number(rd, t, "min_ms", 0, false, &tm->min_ms));
    GP_TRY(gp_json_get_number(rd, t, "median_ms", 0, false, &tm->median_ms));
    GP_TRY(gp_json_get_number(rd, t, "max_ms", 0, false, &tm->max_ms));
    GP_TRY(gp_json_get_uint(rd, t, "repeats", 1, &tm->repeats));
    return gp_json_get_uint(rd, t, "warmup", 0, &tm->warmup);
}

/* Read only when the profile is not null. */
static int read_profile(gp_json_reader *rd, const cJSON *profile, void *result)
{
    gp_result *res = result;
    res->profiled = true;
    GP_TRY(gp_json_get_int(rd, profile, "passes", 1, &res->passes));
    GP_TRY(gp_json_get_number(rd, profile, "sm_clock_ghz", 0, true, &res->sm_clock_ghz));
    GP_TRY(gp_json_get_number(rd, profile, "dram_clock_ghz", 0, true, &res->dram_clock_ghz));
    if (isnan(res->sm_clock_ghz))
        res->sm_clock_ghz = -1.0;
    if (isnan(res->dram_clock_ghz))
        res->dram_clock_ghz = -1.0;
    return GP_OK;
}

static const char *const type_names[] = {"int32", "float32"};

/* Merged reports: the index of the result's file in `sources`. */
static int read_source_index(gp_json_reader *rd, const cJSON *o, const gp_report *r,
                             gp_result *res)
{
    uint64_t source = 0;
    if (!gp_json_field(o, "source"))
        return gp_json_expect(rd, "source", r->n_sources == 0, "the index of its file in sources");
    GP_TRY(gp_json_expect(rd, "source", r->n_sources > 0, "no source (there are no sources)"));
    GP_TRY(gp_json_get_integer(rd, o, "source", 0, r->n_sources - 1, &source));
    res->input = (size_t)source;
    return GP_OK;
}

static int add_program_word(void *source, const char *word)
{
    return gp_report_source_set_program(source, 1, (char *[]){(char *)word});
}

/* An exec report's program: absent in merges of an older gpuprof. */
static int read_source_program(gp_json_reader *rd, const cJSON *o, gp_report_source *s)
{
    const cJSON *program;
    if (!gp_json_field(o, "program"))
        return GP_OK;
    GP_TRY(gp_json_get_array(rd, o, "program", &program));
    GP_TRY(gp_json_expect(rd, "program", cJSON_GetArraySize(program) >= 1, "a command line"));
    return gp_json_read_strings(rd, o, "program", add_program_word, s);
}

static int read_source(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    char file[GP_TEXT_LEN];
    GP_TRY(gp_json_get_string(rd, o, "file", file, sizeof file));
    gp_report_source *bigger = realloc(r->sources, (r->n_sources + 1) * sizeof *bigger);
    if (!bigger)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    r->sources = bigger;
    gp_report_source *s = &bigger[r->n_sources];
    memset(s, 0, sizeof *s);
    s->file = strdup(file);
    r->n_sources++;  /* counted now: gp_report_free frees what it holds on any failure */
    if (!s->file)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_json_get_string(rd, o, "tool_version", s->tool_version, sizeof s->tool_version));
    GP_TRY(gp_json_get_string(rd, o, "command", s->command, sizeof s->command));
    GP_TRY(gp_json_read_object(rd, o, "device", true, gp_report_read_device, &s->device));
    s->has_device = !cJSON_IsNull(gp_json_field(o, "device"));
    return read_source_program(rd, o, s);
}

static int read_result(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    gp_result *res;
    int type;
    uint64_t bytes;
    GP_TRY(gp_report_add_result(r, &res));
    GP_TRY(read_source_index(rd, o, r, res));
    GP_TRY(gp_json_get_string(rd, o, "family", res->family, sizeof res->family));
    GP_TRY(gp_json_get_string(rd, o, "variant", res->variant, sizeof res->variant));
    GP_TRY(gp_json_get_enum(rd, o, "type", type_names, 2, false, &type));
    snprintf(res->type, sizeof res->type, "%s", type_names[type]);
    GP_TRY(gp_json_read_object(rd, o, "size", false, read_size, res));
    GP_TRY(read_params(rd, o, res));
    GP_TRY(gp_json_read_object(rd, o, "launch", false, read_launch_shape, res));
    GP_TRY(gp_json_read_object(rd, o, "timing", false, read_timing, &res->timing));
    GP_TRY(gp_json_get_integer(rd, o, "bytes_moved", 0, UINT64_MAX, &bytes));
    res->bytes_moved = bytes;
    GP_TRY(gp_json_get_number(rd, o, "bandwidth_gbps", 0, true, &res->gbps));
    GP_TRY(gp_json_get_number(rd, o, "percent_of_peak", 0, true, &res->percent_of_peak));
    GP_TRY(gp_json_read_object(rd, o, "check", false, read_check, &res->check));
    GP_TRY(gp_json_read_object(rd, o, "profile", true, read_profile, res));
    GP_TRY(gp_report_read_metrics(rd, o, "metrics", &res->metrics));
    GP_TRY(read_launches(rd, o, res));
    GP_TRY(gp_report_read_source_lines(rd, o, res));
    return check_passes(rd, o);
}

/* ---- the document -------------------------------------------------------------------------- */

static int read_warning(gp_json_reader *rd, const cJSON *o, void *report)
{
    return cJSON_IsString(o) ? gp_report_add_warning(report, o->valuestring)
                             : gp_json_fail(rd, "expected a string");
}

static int read_version(gp_json_reader *rd, const cJSON *root)
{
    const cJSON *version = gp_json_field(root, "schema_version");
    if (!cJSON_IsNumber(version))
        return gp_json_expect(rd, "schema_version", false, "a number");
    if (version->valuedouble > GP_SCHEMA_VERSION)
        return gp_fail(GP_ERR_RUNTIME, "%s: schema_version %g is not supported (this gpuprof "
                                       "reads %d; the report needs a newer gpuprof)", rd->file,
                       version->valuedouble, GP_SCHEMA_VERSION);
    if (version->valuedouble != GP_SCHEMA_VERSION)
        return gp_fail(GP_ERR_RUNTIME, "%s: schema_version %g is not supported (this gpuprof "
                                       "reads %d)", rd->file, version->valuedouble,
                       GP_SCHEMA_VERSION);
    return GP_OK;
}

static int read_tool(gp_json_reader *rd, const cJSON *tool, void *report)
{
    gp_report *r = report;
    char name[32];
    GP_TRY(gp_json_get_string(rd, tool, "name", name, sizeof name));
    GP_TRY(gp_json_expect(rd, "name", strcmp(name, "gpuprof") == 0, "\"gpuprof\""));
    return gp_json_get_string(rd, tool, "version", r->tool_version, sizeof r->tool_version);
}

static int add_command_word(void *report, const char *word)
{
    return gp_report_set_command_line(report, 1, (char *[]){(char *)word});
}

static int read_header(gp_json_reader *rd, const cJSON *root, gp_report *r)
{
    GP_TRY(gp_json_read_object(rd, root, "tool", false, read_tool, r));
    GP_TRY(gp_json_get_string(rd, root, "command", r->command, sizeof r->command));
    GP_TRY(gp_json_read_strings(rd, root, "command_line", add_command_word, r));
    return gp_json_expect(rd, "command_line", r->command_line_len >= 1, "a command line");
}

static int read_body(gp_json_reader *rd, const cJSON *root, gp_report *r)
{
    const bool exec = strcmp(r->command, "exec") == 0;
    GP_TRY(gp_json_read_object(rd, root, "device", true, gp_report_read_device, &r->device));
    r->has_device = !cJSON_IsNull(gp_json_field(root, "device"));
    if (!exec)
        GP_TRY(gp_json_read_object(rd, root, "run", false, read_run, r));
    GP_TRY(gp_json_read_object(rd, root, "profiler", false, read_profiler, &r->profiler));
    if (gp_json_field(root, "sources")) {
        GP_TRY(gp_json_read_objects(rd, root, "sources", read_source, r));
        GP_TRY(gp_json_expect(rd, "sources", r->n_sources >= 1, "at least one source"));
    }
    GP_TRY(gp_json_read_objects(rd, root, "results", read_result, r));
    GP_TRY(gp_json_read_each(rd, root, "warnings", read_warning, r));
    if (!exec) {
        GP_TRY(gp_json_expect(rd, "ranks", !gp_json_field(root, "ranks"),
                              "no ranks section (command is not exec)"));
        return gp_json_expect(rd, "exec", !gp_json_field(root, "exec"),
                              "no exec section (command is not exec)");
    }
    GP_TRY(gp_json_read_object(rd, root, "exec", false, gp_report_read_exec, r));
    if (!gp_json_field(root, "ranks"))
        return GP_OK;
    /* A rank view's kernels are its ranks' cells: it keeps no launch. */
    if (r->exec.n_launches)
        return gp_json_fail(rd, "exec.launches: expected none in a rank view (its kernels are "
                                "in ranks)");
    return gp_json_read_object(rd, root, "ranks", false, gp_report_read_ranks, r);
}

static int read_report(gp_json_reader *rd, const cJSON *root, gp_report *r)
{
    /* The version is checked first, so that a report of a newer major version says so rather
     * than naming the first value this gpuprof reads otherwise. */
    if (!cJSON_IsObject(root) || !gp_json_field(root, "schema_version"))
        return gp_fail(GP_ERR_RUNTIME, "%s: not a gpuprof report (no schema_version at the top "
                                       "level)", rd->file);
    GP_TRY(read_version(rd, root));
    GP_TRY(gp_report_refuse_other_document(root, rd->file));
    GP_TRY(read_header(rd, root, r));
    return read_body(rd, root, r);
}

/* ---- the text ---------------------------------------------------------------------------- */

/* Nothing but white space: an empty file, told apart from broken JSON. */
static bool blank(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!strchr(" \t\r\n", text[i]) || text[i] == '\0')
            return false;
    return true;
}

int gp_report_parse_json(const char *text, size_t len, const char *name, gp_report *r)
{
    gp_report_init(r);
    if (blank(text, len))
        return gp_fail(GP_ERR_RUNTIME, "%s: empty file, not a gpuprof report", name);
    cJSON *root;
    const int parsed = gp_json_parse(text, len, name, &root);
    if (parsed != GP_OK)
        return gp_report_explain_parse_failure(parsed, text, len);
    gp_json_reader rd = {.file = name};
    int rc = read_report(&rd, root, r);
    cJSON_Delete(root);
    return rc;
}

int gp_report_read_json(const char *path, gp_report *r)
{
    char *text = NULL;
    size_t len = 0;
    gp_report_init(r);
    GP_TRY(gp_json_read_file(path, &text, &len));
    int rc = gp_report_parse_json(text, len, strcmp(path, "-") == 0 ? "standard input" : path,
                                  r);
    free(text);
    return rc;
}
