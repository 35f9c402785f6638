/* JSON output of reports, comparisons and the catalogue commands' documents. The layout is
 * described by schemas/gpuprof-report-v1.schema.json, gpuprof-compare-v1.schema.json and
 * gpuprof-catalog-v1.schema.json; keys are stable snake_case, and a breaking change bumps
 * schema_version. */
#include "render/json.h"
#include "render/json_source.h"

#include "gpuprof/compare.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/origin_names.h"
#include "render/json_activities.h"
#include "render/json_ranks.h"
#include "gpuprof/registry.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/json_out.h"
#include "render/part.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ----------------------------------------------------------------------- */

/* [x, y, z]; null for a library call's launch (CUB's own shape, which gpuprof does not
 * capture: recorded as 0x0x0). */
static cJSON *dim_array(gp_dim3 d)
{
    if (d.x == 0)
        return cJSON_CreateNull();
    return cJSON_CreateDoubleArray((const double[]){d.x, d.y, d.z}, 3);
}

static cJSON *pair_array(unsigned a, unsigned b)
{
    return cJSON_CreateDoubleArray((const double[]){a, b}, 2);
}

/* o's "device": the GPU, or null where none is known. */
static void add_device(cJSON *o, bool has, const gp_device_info *d)
{
    cJSON_AddItemToObject(o, "device",
                          has ? gp_part_json_row(&gp_device_part, d, NULL) : cJSON_CreateNull());
}

static cJSON *metrics_json(const gp_metric_set *s)
{
    if (s->n_metrics == 0)
        return cJSON_CreateNull();
    const gp_part *t = &gp_metric_value_part;
    const size_t at = GP_METRIC_VALUE_JSON_INPUTS_AT;
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < s->n_metrics; i++) {
        const gp_metric_value *m = &s->metrics[i];
        cJSON *e = cJSON_CreateObject();
        gp_part_json_add(e, t, m, s, 0, at);
        cJSON *inputs = cJSON_AddObjectToObject(e, "inputs");
        for (size_t k = 0; k < m->n_inputs; k++)
            gp_json_add_number(inputs, m->inputs[k], gp_metric_set_counter(s, m->inputs[k]));
        gp_part_json_add(e, t, m, s, at, SIZE_MAX);
        cJSON_AddItemToObject(o, m->key, e);
    }
    return o;
}

static cJSON *launch_json(const gp_launch_record *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", l->kernel);
    cJSON_AddItemToObject(o, "grid", dim_array(l->grid));
    cJSON_AddItemToObject(o, "block", dim_array(l->block));
    cJSON_AddNumberToObject(o, "shared_bytes", (double)l->shared_bytes);
    cJSON_AddBoolToObject(o, "library_call", l->opaque != 0);
    if (l->in_nx) {
        cJSON_AddItemToObject(o, "input_shape", pair_array(l->in_nx, l->in_ny));
        cJSON_AddItemToObject(o, "output_shape", pair_array(l->out_nx, l->out_ny));
    }
    gp_json_add_number(o, "median_ms", l->median_ms >= 0 ? l->median_ms : NAN);
    cJSON_AddItemToObject(o, "metrics", metrics_json(&l->metrics));
    return o;
}

/* Multi-pass workloads (their launches carry the shapes they reduce): the passes, as the
 * seed's host loop prints them. */
static bool is_multi_pass(const gp_result *r)
{
    return r->n_launches > 0 && r->launches[0].in_nx != 0;
}

static cJSON *passes_json(const gp_result *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < r->n_launches; i++) {
        const gp_launch_record *l = &r->launches[i];
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "pass", (double)(i + 1));
        cJSON_AddItemToObject(p, "input_shape", pair_array(l->in_nx, l->in_ny));
        cJSON_AddItemToObject(p, "output_shape", pair_array(l->out_nx, l->out_ny));
        gp_json_add_number(p, "median_ms", l->median_ms >= 0 ? l->median_ms : NAN);
        cJSON_AddItemToArray(a, p);
    }
    return a;
}

/* The results part's columns from place `first` to `end` of its JSON order (an object of a
 * result: gpuprof/report_parts.h) into the object `key` of o (NULL: o itself). */
static void result_columns(cJSON *o, const char *key, const gp_result_row *row,
                           const gp_results_context *ctx, size_t first, size_t end)
{
    gp_part_json_add(key ? cJSON_AddObjectToObject(o, key) : o, &gp_results_part, row, ctx,
                     first, end);
}

/* A result: its part's columns in its objects, and the view's own values among them. */
static cJSON *result_json(const gp_report *report, const gp_result *r)
{
    const gp_results_context ctx = {.r = report};
    const gp_result_row row = {.result = r};
    cJSON *o = cJSON_CreateObject();
    if (report->n_sources)   /* a merged report's: the index of its file */
        cJSON_AddNumberToObject(o, "source", (double)r->input);
    result_columns(o, NULL, &row, &ctx, 0, GP_RESULT_JSON_SIZE);
    result_columns(o, "size", &row, &ctx, GP_RESULT_JSON_SIZE, GP_RESULT_JSON_LAUNCH);
    cJSON *params = cJSON_AddObjectToObject(o, "params");
    for (size_t i = 0; i < r->n_params; i++)
        gp_json_add_number(params, r->params[i].name, r->params[i].value);
    cJSON *launch = cJSON_AddObjectToObject(o, "launch");
    cJSON_AddItemToObject(launch, "grid", dim_array(r->grid));
    cJSON_AddItemToObject(launch, "block", dim_array(r->block));
    result_columns(launch, NULL, &row, &ctx, GP_RESULT_JSON_LAUNCH, GP_RESULT_JSON_TIMING);
    result_columns(o, "timing", &row, &ctx, GP_RESULT_JSON_TIMING, GP_RESULT_JSON_MOVED);
    result_columns(o, NULL, &row, &ctx, GP_RESULT_JSON_MOVED, GP_RESULT_JSON_CHECK);
    result_columns(o, "check", &row, &ctx, GP_RESULT_JSON_CHECK, GP_RESULT_JSON_PROFILE);
    if (r->profiled)
        result_columns(o, "profile", &row, &ctx, GP_RESULT_JSON_PROFILE, SIZE_MAX);
    else
        cJSON_AddNullToObject(o, "profile");
    cJSON_AddItemToObject(o, "metrics", metrics_json(&r->metrics));
    cJSON *launches = cJSON_AddArrayToObject(o, "launches");
    for (size_t i = 0; i < r->n_launches; i++)
        cJSON_AddItemToArray(launches, launch_json(&r->launches[i]));
    if (is_multi_pass(r))
        cJSON_AddItemToObject(o, "passes", passes_json(r));
    gp_json_source_lines(o, r);
    return o;
}

static const char *profiler_state_name(gp_profiler_state s)
{
    return s == GP_PROF_OK ? "ok" : s == GP_PROF_UNAVAILABLE ? "unavailable" : "disabled";
}

/* ---- gpuprof exec ---------------------------------------------------------------------- */

static cJSON *footprint_json(const gp_auto_footprint *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "replay", f->replays);
    cJSON_AddNumberToObject(o, "held_bytes", (double)f->held);
    cJSON_AddNumberToObject(o, "free_bytes", (double)f->free);
    cJSON_AddNumberToObject(o, "total_bytes", (double)f->total);
    cJSON_AddNumberToObject(o, "budget_bytes", (double)f->budget);
    return o;
}

static cJSON *count_or_null(uint64_t v)
{
    return v == UINT64_MAX ? cJSON_CreateNull() : cJSON_CreateNumber((double)v);
}

/* How its metrics were obtained ("how": names, [] for none) and why one is approximate or
 * missing ("note", null for none). */
static void add_origins(cJSON *o, const gp_exec_launch *l)
{
    const char *names[GP_ORIGINS];
    const size_t n = gp_origins_to_list(l->origins, names);
    gp_json_add_strings(o, "how", names, n);
    gp_json_add_string_or_null(o, "note", l->note);
}

/* A launch: its part's columns, its grid and block among them; then how, note, passes and
 * metrics. */
static cJSON *exec_launch_json(const gp_exec_launch *l, const gp_launches_context *ctx)
{
    cJSON *o = cJSON_CreateObject();
    gp_part_json_add(o, &gp_launch_part, l, ctx, 0, GP_LAUNCH_JSON_SHAPE_AT);
    cJSON_AddItemToObject(o, "grid", dim_array(l->grid));
    cJSON_AddItemToObject(o, "block", dim_array(l->block));
    gp_part_json_add(o, &gp_launch_part, l, ctx, GP_LAUNCH_JSON_SHAPE_AT, SIZE_MAX);
    add_origins(o, l);
    if (l->passes)  /* the one-pass groups it collected, by index */
        cJSON_AddItemToObject(o, "passes", gp_json_bits(l->passes, 32, false));
    cJSON_AddItemToObject(o, "metrics", metrics_json(&l->metrics));
    return o;
}

/* A kernel of the summary: its part's columns, then its passes and metrics. */
static cJSON *exec_kernel_json(const gp_exec_kernel *k, const gp_kernels_context *ctx)
{
    cJSON *o = gp_part_json_row(&gp_kernels_part, k, ctx);
    if (k->passes)
        cJSON_AddItemToObject(o, "passes", gp_json_bits(k->passes, 32, false));
    gp_part_json(o, &gp_metric_stats_part, k->metrics, k->n_metrics, NULL);
    return o;
}

/* A distributed job's rank: the size null when not known. */
static cJSON *rank_json(const gp_exec_rank *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "rank", k->rank);
    gp_json_add_count_or_null(o, "size", k->size);
    cJSON_AddStringToObject(o, "from", k->from);
    return o;
}

/* --nvtx: the launches by range (gpuprof/exec_ranges.h), derived as the kernels are; none
 * where no launch had a range. */
static void add_ranges(cJSON *o, const gp_exec_info *e)
{
    gp_exec_range_tree t;
    if (!gp_exec_has_ranges(e) || gp_exec_range_tree_init(&t, e) != GP_OK)
        return;
    const gp_ranges_context ctx = {.kernels = t.kernels, .n_kernels = t.n_kernels,
                                   .labels = &t.labels, .indent = ""};
    gp_part_json(o, &gp_ranges_part, t.nodes, t.n, &ctx);
    gp_exec_range_tree_free(&t);
}

/* --stalls: what the run sampled, its reasons, and each sampled instruction, its samples
 * sparse (by reason name, those it has); none where it did not sample. */
static void add_stalls(cJSON *o, const gp_report *r)
{
    const gp_exec_stalls *s = &r->exec.stalls;
    if (!s->sampled)
        return;
    cJSON *stalls = gp_part_json_row(&gp_stall_run_part, s, NULL);
    cJSON_AddItemToObject(o, gp_stall_run_part.key, stalls);
    gp_json_add_strings(stalls, "reasons", (const char *const *)s->reasons, s->n_reasons);
    cJSON *pcs = cJSON_AddArrayToObject(stalls, gp_stall_pc_part.key);
    for (size_t i = 0; i < s->n_pcs; i++) {
        const gp_exec_stall_pc *p = &s->pcs[i];
        cJSON *pc = cJSON_CreateObject();
        gp_part_json_add(pc, &gp_stall_pc_part, p, r, 0, GP_STALL_PC_JSON_SAMPLES_AT);
        cJSON *samples = cJSON_AddObjectToObject(pc, "samples");
        for (size_t k = 0; k < s->n_reasons; k++)
            if (p->samples[k])
                cJSON_AddNumberToObject(samples, s->reasons[k], (double)p->samples[k]);
        gp_part_json_add(pc, &gp_stall_pc_part, p, r, GP_STALL_PC_JSON_SAMPLES_AT, SIZE_MAX);
        cJSON_AddItemToArray(pcs, pc);
    }
}

static cJSON *exec_json(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    const bool merged = r->n_sources > 0;
    cJSON *o = cJSON_CreateObject();
    gp_json_add_strings(o, "program", (const char *const *)e->argv, e->argc);
    cJSON_AddNumberToObject(o, "pid", e->pid);
    cJSON_AddNumberToObject(o, "exit_status", e->exit_status);
    gp_json_add_count_or_null(o, "signal", e->signal);
    cJSON_AddNumberToObject(o, "processes", (double)e->processes);
    if (e->rank.known)
        cJSON_AddItemToObject(o, "rank", rank_json(&e->rank));
    cJSON *filters = cJSON_AddObjectToObject(o, "filters");
    const gp_exec_request *q = &e->request;
    if (q->kernel_regex[0])
        cJSON_AddStringToObject(filters, "kernel", q->kernel_regex);
    else
        cJSON_AddNullToObject(filters, "kernel");
    const char *nvtx[2][GP_EXEC_NVTX_FILTERS];
    for (unsigned i = 0; i < q->n_nvtx_include; i++)
        nvtx[0][i] = q->nvtx_include[i];
    for (unsigned i = 0; i < q->n_nvtx_exclude; i++)
        nvtx[1][i] = q->nvtx_exclude[i];
    gp_json_add_strings(filters, "nvtx_include", nvtx[0], q->n_nvtx_include);
    gp_json_add_strings(filters, "nvtx_exclude", nvtx[1], q->n_nvtx_exclude);
    cJSON_AddNumberToObject(filters, "launch_skip", (double)q->launch_skip);
    cJSON_AddItemToObject(filters, "launch_count", count_or_null(q->launch_count));
    cJSON_AddItemToObject(filters, "per_kernel", count_or_null(q->per_kernel));
    cJSON_AddStringToObject(o, "graph_profiling", gp_graph_profiling_name(q->graph_profiling));
    if (q->graph_samples != UINT64_MAX) /* absent: every graph launch was profiled */
        cJSON_AddNumberToObject(o, "graph_samples", (double)q->graph_samples);
    gp_part_json(o, &gp_device_part, e->devices, e->n_devices, NULL);
    cJSON *launches = cJSON_AddArrayToObject(o, "launches");
    const gp_launches_context launch_ctx = {.r = r};
    for (size_t i = 0; i < e->n_launches; i++)
        cJSON_AddItemToArray(launches, exec_launch_json(&e->launches[i], &launch_ctx));
    cJSON *kernels = cJSON_AddArrayToObject(o, "kernels");
    gp_exec_kernel *k = NULL;
    size_t nk = 0;
    if (gp_exec_summarize(e, &k, &nk) == GP_OK) {
        const gp_kernels_context ctx = {.kernels = k};
        for (size_t i = 0; i < nk; i++)
            cJSON_AddItemToArray(kernels, exec_kernel_json(&k[i], &ctx));
    }
    gp_exec_summary_free(k, nk);
    add_ranges(o, e);
    gp_json_exec_activities(o, e);
    gp_json_exec_source_lines(o, e, merged);
    add_stalls(o, r);
    return o;
}

/* How the counters were collected: the kernel commands replay their own workloads, exec
 * has CUPTI replay the program's kernels. */
static cJSON *profiler_json(const gp_profiler_info *p, bool exec)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "state", profiler_state_name(p->state));
    if (p->state == GP_PROF_UNAVAILABLE)
        cJSON_AddStringToObject(o, "reason", p->reason);
    else
        cJSON_AddNullToObject(o, "reason");
    if (p->state == GP_PROF_OK) {
        cJSON_AddStringToObject(o, "chip", p->chip);
        cJSON_AddNumberToObject(o, "passes", p->passes);
        cJSON_AddStringToObject(o, "metric_set", p->metric_set);
        char how[160], api[200];
        gp_exec_describe_replay(p, how, sizeof how);
        snprintf(api, sizeof api, "CUPTI range profiler, auto range, %s",
                 exec ? how : "user replay");
        cJSON_AddStringToObject(o, "api", api);
        cJSON_AddStringToObject(o, "cache_control",
                                exec ? "none (the program's own cache state)"
                                     : "L2 flushed before every kernel");
        cJSON_AddStringToObject(o, "clock_control", "none (clocks not locked)");
        if (exec && p->has_replay)
            cJSON_AddStringToObject(o, "replay", gp_exec_replay_name(p->replay));
        if (exec && p->pass_groups)
            cJSON_AddNumberToObject(o, "pass_groups", p->pass_groups);
        if (exec && p->footprint.known)
            cJSON_AddItemToObject(o, "auto_replay", footprint_json(&p->footprint));
    }
    return o;
}

/* A merged report: the files it was made of, in order; results refer to them by index. */
static cJSON *sources_json(const gp_report *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *s = &r->sources[i];
        cJSON *o = gp_part_json_row(&gp_sources_part, s, r);
        add_device(o, s->has_device, &s->device);
        if (s->program)
            gp_json_add_strings(o, "program", (const char *const *)s->program, s->program_len);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *report_json(const gp_report *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", GP_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "gpuprof");
    cJSON_AddStringToObject(tool, "version", r->tool_version);
    cJSON_AddStringToObject(root, "command", r->command);
    gp_json_add_strings(root, "command_line", (const char *const *)r->command_line,
                        r->command_line_len);
    add_device(root, r->has_device, &r->device);
    if (!r->is_exec) {
        cJSON *run = cJSON_AddObjectToObject(root, "run");
        cJSON_AddNumberToObject(run, "repeat", r->repeat);
        cJSON_AddNumberToObject(run, "warmup", r->warmup);
        cJSON_AddNumberToObject(run, "seed", (double)r->seed);
        cJSON_AddStringToObject(run, "time_unit", "ms");
        cJSON_AddStringToObject(run, "bandwidth_unit", "GB/s, 1 GB = 10^9 bytes");
        if (!isnan(r->max_noise_pct))
            cJSON_AddNumberToObject(run, "max_noise_pct", r->max_noise_pct);
    }
    if (r->n_sources)
        cJSON_AddItemToObject(root, "sources", sources_json(r));
    cJSON_AddItemToObject(root, "profiler", profiler_json(&r->profiler, r->is_exec));
    cJSON *results = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < r->n_results; i++)
        cJSON_AddItemToArray(results, result_json(r, &r->results[i]));
    gp_json_add_strings(root, "warnings", (const char *const *)r->warnings, r->n_warnings);
    if (r->is_exec)
        cJSON_AddItemToObject(root, "exec", exec_json(r));
    return root;
}

int gp_json_report(FILE *out, const gp_report *r, const gp_render_options *o)
{
    (void)o;
    if (r->ranks)
        return gp_json_print_with_ranks(out, report_json(r), r->ranks);
    return gp_json_print(out, report_json(r));
}

/* ---- documents of the catalogue commands ------------------------------------------- */

static cJSON *document(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", GP_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "gpuprof");
    cJSON_AddStringToObject(tool, "version", GPUPROF_VERSION);
    return root;
}

/* A variant: the part's name, summary and origin, its blocks as arrays, the part's rest. */
static cJSON *variant_json(const gp_variant_row *v)
{
    cJSON *o = cJSON_CreateObject();
    gp_part_json_add(o, &gp_variant_part, v, NULL, 0, GP_VARIANT_JSON_BLOCKS_AT);
    cJSON_AddItemToObject(o, "block_x", gp_json_bits(v->block_x_mask, 31, true));
    cJSON_AddItemToObject(o, "block_y", gp_json_bits(v->block_y_mask, 31, true));
    cJSON_AddItemToObject(o, "default_block", dim_array(v->default_shape));
    gp_part_json_add(o, &gp_variant_part, v, NULL, GP_VARIANT_JSON_BLOCKS_AT, SIZE_MAX);
    return o;
}

int gp_json_list(FILE *out, const gp_render_options *o)
{
    (void)o;
    gp_variant_row *rows;
    size_t n;
    GP_TRY(gp_variant_rows(&rows, &n));
    cJSON *root = document();
    cJSON *families = cJSON_AddArrayToObject(root, "families");
    for (size_t f = 0, end; f < n; f = end) {
        end = gp_variant_family_end(rows, n, f);
        cJSON *fam = cJSON_CreateObject();
        cJSON_AddStringToObject(fam, "name", rows[f].family);
        cJSON_AddStringToObject(fam, "summary", rows[f].family_summary);
        cJSON *variants = cJSON_AddArrayToObject(fam, "variants");
        for (size_t i = f; i < end; i++)
            cJSON_AddItemToArray(variants, variant_json(&rows[i]));
        cJSON_AddItemToArray(families, fam);
    }
    free(rows);
    return gp_json_print(out, root);
}

int gp_json_devices(FILE *out, const gp_device_info *devices, size_t n,
                    const gp_render_options *o)
{
    (void)o;
    cJSON *root = document();
    gp_part_json(root, &gp_device_part, devices, n, NULL);
    return gp_json_print(out, root);
}

/* A metric: the part's key, unit, description and formula, its inputs, the part's rest. */
static cJSON *metric_def_json(const gp_metric_def *m, const gp_metric_catalogue_context *c)
{
    cJSON *o = cJSON_CreateObject();
    gp_part_json_add(o, &gp_metric_def_part, m, c, 0, GP_METRIC_JSON_INPUTS_AT);
    gp_json_add_strings(o, "inputs", m->inputs, m->n_inputs);
    gp_part_json_add(o, &gp_metric_def_part, m, c, GP_METRIC_JSON_INPUTS_AT, SIZE_MAX);
    return o;
}

int gp_json_chip_metrics(FILE *out, const gp_chip_metrics *c, const gp_render_options *o)
{
    (void)o;
    cJSON *root = document();
    if (c->chip) {
        cJSON_AddStringToObject(root, "chip", c->chip);
        cJSON *passes = cJSON_AddObjectToObject(root, "passes");
        for (unsigned g = 0; g < GP_GROUP_ALL_ONLY; g++)
            cJSON_AddNumberToObject(passes, gp_metric_group_name((gp_metric_group)g),
                                    c->group_passes[g]);
        cJSON_AddNumberToObject(passes, "all", c->passes_all);
    } else {
        cJSON_AddNullToObject(root, "chip");
        cJSON_AddNullToObject(root, "passes");
    }
    size_t n;
    const gp_metric_catalogue_context ctx = {gp_metric_catalogue(&n),
                                             c->chip ? c->availability : NULL};
    cJSON *arr = cJSON_AddArrayToObject(root, "metrics");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, metric_def_json(&ctx.catalogue[i], &ctx));
    return gp_json_print(out, root);
}

/* ---- compare (schemas/gpuprof-compare-v1.schema.json) ------------------------------------ */

static cJSON *side_json(const gp_compare_side *s)
{
    if (!s->present)
        return cJSON_CreateNull();
    cJSON *o = gp_part_json_row(&gp_compare_side_part, s, NULL);
    cJSON *m = cJSON_AddObjectToObject(o, "metrics");
    for (size_t i = 0; i < s->n_metrics; i++)
        gp_json_add_number(m, s->metrics[i].key, s->metrics[i].valid ? s->metrics[i].value : NAN);
    return o;
}

static cJSON *row_json(const gp_compare_row *row)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *key = cJSON_AddObjectToObject(o, "key");
    for (size_t i = 0; i < row->n_keys; i++)
        cJSON_AddStringToObject(key, row->keys[i].name, row->keys[i].value);
    gp_part_json_add(o, &gp_compare_part, row, NULL, 0, SIZE_MAX);
    cJSON_AddItemToObject(o, "base", side_json(&row->base));
    cJSON_AddItemToObject(o, "new", side_json(&row->next));
    return o;
}

static cJSON *report_side_json(const char *file, const gp_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "tool_version", r->tool_version);
    cJSON_AddStringToObject(o, "command", r->command);
    if (r->has_device)
        cJSON_AddStringToObject(o, "device", r->device.name);
    else
        cJSON_AddNullToObject(o, "device");
    return o;
}

static cJSON *summary_json(const gp_comparison *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "same", (double)c->n_same);
    cJSON_AddNumberToObject(o, "faster", (double)c->n_faster);
    cJSON_AddNumberToObject(o, "slower", (double)c->n_slower);
    cJSON_AddNumberToObject(o, "only_base", (double)c->n_only_base);
    cJSON_AddNumberToObject(o, "only_new", (double)c->n_only_new);
    return o;
}

int gp_json_compare(FILE *out, const gp_comparison *c, const gp_render_options *o)
{
    (void)o;
    cJSON *root = document();
    cJSON_AddStringToObject(root, "command", "compare");
    cJSON_AddNumberToObject(root, "threshold_pct", c->threshold_pct);
    cJSON_AddItemToObject(root, "base", report_side_json(c->base_file, c->base));
    cJSON_AddItemToObject(root, "new", report_side_json(c->next_file, c->next));
    cJSON_AddBoolToObject(root, "same_device", c->same_device);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < c->n_rows; i++)
        cJSON_AddItemToArray(rows, row_json(&c->rows[i]));
    cJSON_AddItemToObject(root, "summary", summary_json(c));
    return gp_json_print(out, root);
}
