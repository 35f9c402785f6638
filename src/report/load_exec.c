/* Reading back the `exec` section of a report (report/load_exec.h): the program, how it
 * ended, the filters, the devices and every launch (the copies, memsets and unified memory
 * in report/load_activities.c, --source's views in report/load_source.c, --stalls' samples in
 * report/load_stalls.c); the per-kernel
 * summary is derived from the launches, so it is checked, not kept. */
#include "report/load_exec.h"

#include "gpuprof/exec_modes.h"
#include "gpuprof/origin_names.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/nvtx_filter.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "report/load_activities.h"
#include "report/load_parts.h"
#include "report/load_source.h"
#include "report/load_stalls.h"
#include "report/part_load.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the launches, the filters, the program ------------------------------------------------ */

/* One of the one-pass groups a launch carries: its bit in the mask. */
static int read_pass(gp_json_reader *rd, const cJSON *v, void *mask)
{
    uint64_t g;
    GP_TRY(gp_json_whole_number(rd, v, 0, 31, &g));
    *(uint32_t *)mask |= (uint32_t)1 << g;
    return GP_OK;
}

/* One name of "how": its bit in the mask, each name once. */
static int read_origin(gp_json_reader *rd, const cJSON *v, void *origins)
{
    unsigned bit;
    if (!cJSON_IsString(v) || !gp_origin_from_name(v->valuestring, &bit))
        return gp_json_fail(rd, "expected one of 'range', 'shadow', 'sampled', 'graph'");
    if (*(unsigned *)origins & bit)
        return gp_json_fail(rd, "'%s' twice", v->valuestring);
    *(unsigned *)origins |= bit;
    return GP_OK;
}

/* How its metrics were obtained and why one is approximate or missing: absent in reports of
 * a gpuprof before graph profiling (none, no note). */
static int read_origins(gp_json_reader *rd, const cJSON *o, gp_exec_launch *l)
{
    if (gp_json_field(o, "how"))
        GP_TRY(gp_json_read_each(rd, o, "how", read_origin, &l->origins));
    if (!gp_json_field(o, "note"))
        return GP_OK;
    GP_TRY(gp_json_get_string_copy(rd, o, "note", &l->note, true));
    return gp_json_expect(rd, "note", !l->note || l->note[0], "a note or null, not \"\"");
}

/* A launch: its part's columns (gpuprof/report_parts.h), then what the part does not read
 * back: its source, mangled name, NVTX range, code, grid and block, passes, how, note and
 * metrics. */
static int read_exec_launch(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_exec_info *e = &((gp_report *)report)->exec;
    gp_exec_launch *l;
    GP_TRY(gp_exec_add_launch(e, &l));
    gp_exec_launch row = *l;   /* its kernel's name the document's until copied */
    GP_TRY(gp_part_load_row(rd, o, &gp_launch_part, &row));
    *l = row;
    l->kernel = strdup(row.kernel);
    if (!l->kernel)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    GP_TRY(gp_report_read_input(rd, o, report, &l->input));
    GP_TRY(gp_json_get_string_copy(rd, o, "mangled", &l->mangled, true));
    if (gp_json_field(o, "range")) {
        GP_TRY(gp_json_get_string_copy(rd, o, "range", &l->range, false));
        GP_TRY(gp_json_expect(rd, "range", l->range[0], "a range path, not \"\""));
    }
    GP_TRY(gp_json_get_code(rd, o, "code", true, &l->code));
    GP_TRY(gp_json_get_dim(rd, o, "grid", &l->grid));
    GP_TRY(gp_json_get_dim(rd, o, "block", &l->block));
    if (gp_json_field(o, "passes"))
        GP_TRY(gp_json_read_each(rd, o, "passes", read_pass, &l->passes));
    GP_TRY(read_origins(rd, o, l));
    return gp_report_read_metrics(rd, o, "metrics", &l->metrics);
}

/* null or a whole number of at least 1: UINT64_MAX for no limit. */
static int get_limit(gp_json_reader *rd, const cJSON *o, const char *key, uint64_t *out)
{
    const cJSON *v;
    GP_TRY(gp_json_need(rd, o, key, &v));
    if (cJSON_IsNull(v)) {
        *out = UINT64_MAX;
        return GP_OK;
    }
    return gp_json_get_integer(rd, o, key, 1, UINT64_MAX - 1, out);
}

/* One list of --nvtx-include or --nvtx-exclude expressions: each parsed as gpuprof exec
 * parses it, 16 in all. */
typedef struct {
    gp_exec_request *q;
    bool exclude;
} nvtx_list;

static int read_nvtx_filter(gp_json_reader *rd, const cJSON *item, void *ctx)
{
    const nvtx_list *l = ctx;
    gp_exec_request *q = l->q;
    if (!cJSON_IsString(item))
        return gp_json_fail(rd, "expected a string");
    if (q->n_nvtx_include + q->n_nvtx_exclude >= GP_EXEC_NVTX_FILTERS)
        return gp_json_fail(rd, "more than %d NVTX filters", GP_EXEC_NVTX_FILTERS);
    gp_nvtx_filter f;
    const char *opt = l->exclude ? "nvtx-exclude" : "nvtx-include";
    if (gp_nvtx_filter_parse(opt, item->valuestring, &f) != GP_OK) {
        char why[GP_MESSAGE_LEN];
        snprintf(why, sizeof why, "%s", gp_error());
        return gp_json_fail(rd, "%s", why);
    }
    unsigned *n = l->exclude ? &q->n_nvtx_exclude : &q->n_nvtx_include;
    strcpy((l->exclude ? q->nvtx_exclude : q->nvtx_include)[(*n)++], item->valuestring);
    return GP_OK;
}

/* Absent in reports written before the NVTX filters: none. */
static int read_nvtx_filters(gp_json_reader *rd, const cJSON *f, gp_exec_request *q)
{
    q->n_nvtx_include = q->n_nvtx_exclude = 0;
    for (int exclude = 0; exclude < 2; exclude++) {
        const char *key = exclude ? "nvtx_exclude" : "nvtx_include";
        nvtx_list l = {q, exclude};
        if (gp_json_field(f, key))
            GP_TRY(gp_json_read_each(rd, f, key, read_nvtx_filter, &l));
    }
    return GP_OK;
}

static int read_filters(gp_json_reader *rd, const cJSON *f, void *exec)
{
    gp_exec_request *q = &((gp_exec_info *)exec)->request;
    const cJSON *kernel;
    GP_TRY(gp_json_need(rd, f, "kernel", &kernel));
    if (!cJSON_IsNull(kernel))
        GP_TRY(gp_json_get_string(rd, f, "kernel", q->kernel_regex, sizeof q->kernel_regex));
    GP_TRY(read_nvtx_filters(rd, f, q));
    GP_TRY(gp_json_get_integer(rd, f, "launch_skip", 0, UINT64_MAX - 1, &q->launch_skip));
    GP_TRY(get_limit(rd, f, "launch_count", &q->launch_count));
    return get_limit(rd, f, "per_kernel", &q->per_kernel);
}

static int add_program_word(void *exec, const char *word)
{
    return gp_exec_set_program(exec, 1, (char *[]){(char *)word});
}

static int read_program(gp_json_reader *rd, const cJSON *o, gp_exec_info *e)
{
    const cJSON *program;
    GP_TRY(gp_json_get_array(rd, o, "program", &program));
    GP_TRY(gp_json_expect(rd, "program", cJSON_GetArraySize(program) >= 1, "a command line"));
    return gp_json_read_strings(rd, o, "program", add_program_word, e);
}

/* --graph-profiling; absent in reports of a gpuprof before it: "node", its default. */
static int read_graph_profiling(gp_json_reader *rd, const cJSON *o, gp_exec_info *e)
{
    int mode = GP_GRAPH_NODE;
    if (gp_json_field(o, "graph_profiling"))
        GP_TRY(gp_json_get_enum(rd, o, "graph_profiling", gp_graph_profiling_names,
                                GP_GRAPH_MODES, false, &mode));
    e->request.graph_profiling = (gp_graph_profiling)mode;
    /* --graph-samples; absent: all (and before it, every graph launch was profiled). */
    e->request.graph_samples = UINT64_MAX;
    if (gp_json_field(o, "graph_samples"))
        GP_TRY(gp_json_get_integer(rd, o, "graph_samples", 0, UINT64_MAX - 1,
                                   &e->request.graph_samples));
    return GP_OK;
}

/* A distributed job's rank, in the reports of a process that had one. */
static int read_rank(gp_json_reader *rd, const cJSON *o, void *exec)
{
    gp_exec_rank *k = &((gp_exec_info *)exec)->rank;
    const cJSON *size;
    GP_TRY(gp_json_get_int(rd, o, "rank", 0, &k->rank));
    GP_TRY(gp_json_need(rd, o, "size", &size));
    if (!cJSON_IsNull(size))
        GP_TRY(gp_json_get_int(rd, o, "size", 1, &k->size));
    GP_TRY(gp_json_expect(rd, "size", !k->size || k->rank < k->size, "more than the rank"));
    GP_TRY(gp_json_get_string(rd, o, "from", k->from, sizeof k->from));
    GP_TRY(gp_json_expect(rd, "from", k->from[0], "the option or variable it came from"));
    k->known = true;
    return GP_OK;
}

/* One element of `devices`. */
static int read_exec_device(gp_json_reader *rd, const cJSON *o, void *exec)
{
    gp_exec_info *e = exec;
    gp_device_info d;
    GP_TRY(gp_report_read_device(rd, o, &d));
    return gp_exec_add_device(e, &d);
}

int gp_report_read_exec(gp_json_reader *rd, const cJSON *o, void *report)
{
    gp_report *r = report;
    gp_exec_info *e = &r->exec;
    uint64_t exit_status, processes;
    const cJSON *signal;
    r->is_exec = true;
    GP_TRY(read_program(rd, o, e));
    GP_TRY(gp_json_get_int(rd, o, "pid", 0, &e->pid));
    GP_TRY(gp_json_get_integer(rd, o, "exit_status", 0, 255, &exit_status));
    e->exit_status = (int)exit_status;
    GP_TRY(gp_json_need(rd, o, "signal", &signal));
    if (!cJSON_IsNull(signal))
        GP_TRY(gp_json_get_int(rd, o, "signal", 1, &e->signal));
    GP_TRY(gp_json_get_integer(rd, o, "processes", 0, UINT64_MAX, &processes));
    e->processes = (size_t)processes;
    if (gp_json_field(o, "rank"))
        GP_TRY(gp_json_read_object(rd, o, "rank", false, read_rank, e));
    GP_TRY(gp_json_read_object(rd, o, "filters", false, read_filters, e));
    GP_TRY(read_graph_profiling(rd, o, e));
    GP_TRY(gp_json_read_objects(rd, o, "devices", read_exec_device, e));
    GP_TRY(gp_json_read_objects(rd, o, "launches", read_exec_launch, r));
    /* The summary is derived from the launches: checked to be objects, not kept. */
    GP_TRY(gp_json_read_objects(rd, o, "kernels", NULL, NULL));
    /* So are the ranges (--nvtx), where there are any. */
    if (gp_json_field(o, "ranges"))
        GP_TRY(gp_json_read_objects(rd, o, "ranges", NULL, NULL));
    GP_TRY(gp_report_read_exec_source_lines(rd, o, r));
    GP_TRY(gp_report_read_exec_stalls(rd, o, r));
    GP_TRY(gp_report_check_source_stalls(rd, o, r));
    GP_TRY(gp_exec_number_variants(e));
    return gp_report_read_activities(rd, o, e);
}
