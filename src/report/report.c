/* Ownership of report data: results, launches, metric sets, warnings. */
#include "gpuprof/report.h"

#include "gpuprof/exec_source.h"
#include "gpuprof/ranks.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gp_report_init(gp_report *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->tool_version, sizeof r->tool_version, "%s", GPUPROF_VERSION);
    r->device.copy_gbps = -1.0;
    r->max_noise_pct = NAN;
}

void gp_profiler_info_set(gp_profiler_info *info, const char *chip, int passes,
                          gp_metrics_kind set)
{
    info->state = GP_PROF_OK;
    info->passes = passes;
    snprintf(info->chip, sizeof info->chip, "%s", chip);
    snprintf(info->metric_set, sizeof info->metric_set, "%s", gp_metrics_kind_name(set));
}

static void result_free(gp_result *res)
{
    gp_metric_set_free(&res->metrics);
    for (size_t i = 0; i < res->n_launches; i++)
        gp_metric_set_free(&res->launches[i].metrics);
    free(res->launches);
    gp_source_view_free(res->lines, res->n_line_kernels);
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void exec_free(gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        free(e->launches[i].kernel);
        free(e->launches[i].mangled);
        free(e->launches[i].note);
        free(e->launches[i].range);
        gp_metric_set_free(&e->launches[i].metrics);
    }
    free(e->launches);
    for (size_t i = 0; i < e->n_source_views; i++)
        gp_exec_source_view_clear(&e->source_views[i]);
    free(e->source_views);
    gp_exec_stalls_free(&e->stalls);
    free(e->activities);
    free(e->devices);
    free_strings(e->argv, e->argc);
}

void gp_report_free(gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++)
        result_free(&r->results[i]);
    free(r->results);
    free_strings(r->command_line, r->command_line_len);
    free_strings(r->warnings, r->n_warnings);
    exec_free(&r->exec);
    for (size_t i = 0; i < r->n_sources; i++)
        gp_report_source_free(&r->sources[i]);
    free(r->sources);
    gp_rank_view_free(r->ranks);
    memset(r, 0, sizeof *r);
}

/* Grow *items (of size elem) by n zeroed elements; the first new one. */
static void *grow_by(void **items, size_t *count, size_t elem, size_t n)
{
    void *p = realloc(*items, (*count + n) * elem);
    if (!p)
        return NULL;
    *items = p;
    void *slot = (char *)p + *count * elem;
    memset(slot, 0, n * elem);
    *count += n;
    return slot;
}

static void *grow(void **items, size_t *count, size_t elem)
{
    return grow_by(items, count, elem, 1);
}

int gp_report_add_results(gp_report *r, size_t n, gp_result **first)
{
    gp_result *res = grow_by((void **)&r->results, &r->n_results, sizeof *res, n);
    if (!res)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; i < n; i++) {
        res[i].sm_clock_ghz = res[i].dram_clock_ghz = -1.0;
        res[i].timing.noise_pct = NAN;
    }
    *first = res;
    return GP_OK;
}

int gp_report_add_result(gp_report *r, gp_result **out)
{
    return gp_report_add_results(r, 1, out);
}

int gp_result_add_param(gp_result *res, const char *name, double value)
{
    if (res->n_params >= GP_RESULT_MAX_PARAMS)
        return gp_fail(GP_ERR_RUNTIME, "more than %d parameters in one result",
                       GP_RESULT_MAX_PARAMS);
    gp_param *p = &res->params[res->n_params++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->value = value;
    return GP_OK;
}

const gp_param *gp_result_param(const gp_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_params; i++)
        if (strcmp(r->params[i].name, name) == 0)
            return &r->params[i];
    return NULL;
}

void gp_result_describe(const gp_result *r, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s %s %s ", r->family, r->variant, r->type);
    if (used < len && r->nx)
        used += (size_t)snprintf(buf + used, len - used, "%ux%u", r->nx, r->ny);
    else if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "n=%llu", (unsigned long long)r->n);
    for (size_t i = 0; i < r->n_params && used < len; i++)
        if (!isnan(r->params[i].value))
            used += (size_t)snprintf(buf + used, len - used, " %s=%g", r->params[i].name,
                                     r->params[i].value);
    if (used < len)
        snprintf(buf + used, len - used, " block=%ux%u", r->block.x, r->block.y);
}

int gp_result_add_launch(gp_result *res, gp_launch_record **out)
{
    gp_launch_record *l = grow((void **)&res->launches, &res->n_launches, sizeof *l);
    if (!l)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    l->median_ms = -1.0;
    *out = l;
    return GP_OK;
}

static int push_string(char ***v, size_t *n, const char *text)
{
    char *copy = strdup(text);
    char **slot = copy ? grow((void **)v, n, sizeof *slot) : NULL;
    if (!slot) {
        free(copy);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    *slot = copy;
    return GP_OK;
}


int gp_exec_add_launch(gp_exec_info *e, gp_exec_launch **out)
{
    gp_exec_launch *l = gp_append_zeroed(&e->launches, &e->n_launches, &e->launch_capacity,
                                         sizeof *l);
    if (!l)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    l->duration_ms = -1.0;
    *out = l;
    return GP_OK;
}

int gp_exec_add_activity(gp_exec_info *e, gp_exec_activity **out)
{
    *out = gp_append_zeroed(&e->activities, &e->n_activities, &e->activity_capacity,
                            sizeof **out);
    return *out ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

void gp_exec_count_unified(gp_um_stats *s, uint64_t value, uint64_t time_ns)
{
    s->min = s->events == 0 || value < s->min ? value : s->min;
    s->max = value > s->max ? value : s->max;
    s->events++;
    s->total = s->total > UINT64_MAX - value ? UINT64_MAX : s->total + value;
    s->time_ns = s->time_ns > UINT64_MAX - time_ns ? UINT64_MAX : s->time_ns + time_ns;
}

int gp_exec_add_device(gp_exec_info *e, const gp_device_info *d)
{
    gp_device_info *slot = grow((void **)&e->devices, &e->n_devices, sizeof *slot);
    if (!slot)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    *slot = *d;
    return GP_OK;
}

int gp_exec_set_program(gp_exec_info *e, int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        GP_TRY(push_string(&e->argv, &e->argc, argv[i]));
    return GP_OK;
}

int gp_report_source_set_program(gp_report_source *s, size_t argc, char *const *argv)
{
    for (size_t i = 0; i < argc; i++)
        GP_TRY(push_string(&s->program, &s->program_len, argv[i]));
    return GP_OK;
}

void gp_report_source_free(gp_report_source *s)
{
    free(s->file);
    free_strings(s->program, s->program_len);
    s->file = NULL;
    s->program = NULL;
    s->program_len = 0;
}

int gp_report_add_warning(gp_report *r, const char *text)
{
    return push_string(&r->warnings, &r->n_warnings, text);
}

int gp_report_set_command_line(gp_report *r, int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        GP_TRY(push_string(&r->command_line, &r->command_line_len, argv[i]));
    return GP_OK;
}

static const char *const check_names[] = {"passed", "FAILED", "skipped"};

const char *gp_check_status_name(gp_check_status s)
{
    return s <= GP_CHECK_SKIPPED ? check_names[s] : "?";
}

const char *gp_dtype_name(gp_dtype t)
{
    return t == GP_INT32 ? "int32" : "float32";
}

bool gp_dtype_from_name(const char *name, gp_dtype *t)
{
    if (strcmp(name, "int32") == 0)
        *t = GP_INT32;
    else if (strcmp(name, "float32") == 0)
        *t = GP_FLOAT32;
    else
        return false;
    return true;
}

bool gp_report_has_rank(const gp_report *r)
{
    return r->is_exec && (r->exec.rank.known || r->ranks);
}

bool gp_report_has_source(const gp_report *r)
{
    if (r->is_exec)
        return gp_exec_has_source(&r->exec);
    for (size_t i = 0; i < r->n_results; i++)
        if (r->results[i].lines)
            return true;
    return false;
}

const gp_metric_value *gp_metric_set_value(const gp_metric_set *s, const char *key)
{
    for (size_t k = 0; s && k < s->n_metrics; k++)
        if (strcmp(s->metrics[k].key, key) == 0)
            return &s->metrics[k];
    return NULL;
}

void gp_dim_text(char *buf, size_t len, gp_dim3 d, bool two_d)
{
    if (d.x == 0)
        snprintf(buf, len, "-");
    else if (two_d || d.y > 1)
        snprintf(buf, len, "%ux%u", d.x, d.y);
    else
        snprintf(buf, len, "%u", d.x);
}

void gp_dim_csv(char *buf, size_t len, gp_dim3 d)
{
    if (d.x == 0)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%ux%ux%u", d.x, d.y, d.z);
}
