/* The environment codec of gpuprof/protocol.h: gpuprof exec's options written into the
 * program's environment, and read back by the library inside the program. Both halves
 * here, so what one writes the other reads. Linked into gpuprof and into
 * libgpuprof-inject.so: no cJSON, no cudart, no printing. */
#include "gpuprof/exec_modes.h"
#include "gpuprof/protocol.h"

#include "gpuprof/collector.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest --metrics list: every name at its longest, and every group. */
#define METRICS_TEXT_LEN ((GP_MAX_METRIC_NAMES + GP_METRIC_GROUPS) * GP_METRIC_NAME_LEN)

/* ---- encoding --------------------------------------------------------------------------- */

static void metrics_text(const gp_metrics_request *m, char *buf, size_t len)
{
    if (m->kind != GP_METRICS_LIST) {
        snprintf(buf, len, "%s", gp_metrics_kind_name(m->kind));
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "list:");
    const char *sep = "";
    for (unsigned g = 0; g < GP_METRIC_GROUPS && used < len; g++)
        if (m->groups & GP_GROUP_BIT(g)) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
                                     gp_metric_group_name((gp_metric_group)g));
            sep = ",";
        }
    for (size_t i = 0; i < m->n_names && used < len; i++) {
        used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, m->names[i]);
        sep = ",";
    }
}

static int add_var(char **vars, size_t *n, const char *name, const char *value)
{
    char *entry = malloc(strlen(name) + strlen(value) + 2);
    if (!entry)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    sprintf(entry, "%s=%s", name, value);
    vars[(*n)++] = entry;
    return GP_OK;
}

/* A count the library reads as "no limit" when it is absent. */
static int add_count(char **vars, size_t *n, const char *name, uint64_t value)
{
    char text[32];
    if (value == UINT64_MAX)
        return GP_OK;
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    return add_var(vars, n, name, text);
}

/* --nvtx-include's then --nvtx-exclude's expressions, each after its sign. */
static int add_nvtx_filters(const gp_exec_request *q, char **vars, size_t *n)
{
    char text[2 * GP_EXEC_NVTX_FILTERS * (GP_EXEC_NVTX_FILTER_LEN + 1) + 1];
    size_t used = 0;
    text[0] = 0;
    for (unsigned i = 0; i < q->n_nvtx_include + q->n_nvtx_exclude; i++) {
        const bool inc = i < q->n_nvtx_include;
        const char *e = inc ? q->nvtx_include[i] : q->nvtx_exclude[i - q->n_nvtx_include];
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%c%s",
                                 i ? (char[]){GP_NVTX_FILTER_SEP, 0} : "", inc ? '+' : '-', e);
    }
    return add_var(vars, n, GP_ENV_NVTX_FILTERS, text);
}

static int add_all(const gp_exec_options *o, char **vars, size_t *n)
{
    char metrics[METRICS_TEXT_LEN], parent[32], pass[16], samples[32] = "all";
    metrics_text(&o->metrics, metrics, sizeof metrics);
    if (o->request.graph_samples != UINT64_MAX)
        snprintf(samples, sizeof samples, "%llu", (unsigned long long)o->request.graph_samples);
    snprintf(parent, sizeof parent, "%ld", o->parent_pid);
    snprintf(pass, sizeof pass, "%u", o->app_pass);
    GP_TRY(add_var(vars, n, GP_ENV_INJECTION, o->library ? o->library : ""));
    GP_TRY(add_var(vars, n, GP_ENV_DIR, o->records_dir ? o->records_dir : ""));
    GP_TRY(add_var(vars, n, GP_ENV_METRICS, metrics));
    GP_TRY(add_var(vars, n, GP_ENV_PARENT, parent));
    const gp_exec_request *q = &o->request;
    GP_TRY(add_var(vars, n, GP_ENV_FOLLOW, q->follow_children ? "1" : "0"));
    GP_TRY(add_var(vars, n, GP_ENV_KERNEL, q->kernel_regex));
    GP_TRY(add_var(vars, n, GP_ENV_REPLAY, gp_exec_replay_name(q->replay)));
    GP_TRY(add_var(vars, n, GP_ENV_APP_PASS, pass));
    GP_TRY(add_var(vars, n, GP_ENV_GRAPH, gp_graph_profiling_name(q->graph_profiling)));
    GP_TRY(add_count(vars, n, GP_ENV_SKIP, q->launch_skip));
    GP_TRY(add_count(vars, n, GP_ENV_COUNT, q->launch_count));
    GP_TRY(add_var(vars, n, GP_ENV_GRAPH_SAMPLES, samples));
    GP_TRY(add_var(vars, n, GP_ENV_SOURCE, q->source ? "1" : "0"));
    GP_TRY(add_var(vars, n, GP_ENV_NVTX, q->nvtx ? "1" : "0"));
    if (q->nvtx)
        GP_TRY(add_var(vars, n, GP_ENV_NVTX_INJECTION, o->library ? o->library : ""));
    GP_TRY(add_nvtx_filters(q, vars, n));
    const unsigned period = q->stall_period ? q->stall_period : GP_STALL_PERIOD_DEFAULT;
    GP_TRY(add_count(vars, n, GP_ENV_STALLS, q->stalls ? period : 0));
    return add_count(vars, n, GP_ENV_PER_KERNEL, q->per_kernel);
}

int gp_exec_options_encode(const gp_exec_options *o, char *vars[GP_EXEC_OPTION_VARS],
                           size_t *n)
{
    *n = 0;
    const int rc = add_all(o, vars, n);
    if (rc != GP_OK) {
        for (size_t i = 0; i < *n; i++)
            free(vars[i]);
        *n = 0;
    }
    return rc;
}

/* ---- decoding ---------------------------------------------------------------------------- */

static const char *lookup(char *const *env, const char *name)
{
    const size_t len = strlen(name);
    for (char *const *e = env; e && *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

/* A count; UINT64_MAX when unset, empty or not a whole number. */
static uint64_t read_count(char *const *env, const char *name)
{
    const char *v = lookup(env, name);
    if (!v || !*v)
        return UINT64_MAX;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end ? UINT64_MAX : n;
}

static void read_metric_list(gp_metrics_request *m, const char *list)
{
    char buf[METRICS_TEXT_LEN];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok && m->n_names < GP_MAX_METRIC_NAMES;
         tok = strtok_r(NULL, ",", &save)) {
        gp_metric_group g;
        if (gp_metric_group_from_name(tok, &g))
            m->groups |= GP_GROUP_BIT(g);
        else
            snprintf(m->names[m->n_names++], GP_METRIC_NAME_LEN, "%s", tok);
    }
}

static void read_metrics(gp_metrics_request *m, const char *text)
{
    memset(m, 0, sizeof *m);
    if (!text || strcmp(text, "none") == 0)
        m->kind = GP_METRICS_NONE;
    else if (strcmp(text, "all") == 0)
        m->kind = GP_METRICS_ALL;
    else if (strncmp(text, "list:", 5) == 0) {
        m->kind = GP_METRICS_LIST;
        read_metric_list(m, text + 5);
    } else
        m->kind = GP_METRICS_DEFAULT;
}

/* One expression of GP_ENV_NVTX_FILTERS into its list; one longer than gpuprof writes stays
 * an empty expression, which the library refuses (and then profiles nothing). */
static void read_nvtx_filter(gp_exec_request *q, const char *e, size_t len)
{
    const bool inc = e[0] == '+';
    char(*list)[GP_EXEC_NVTX_FILTER_LEN] = inc ? q->nvtx_include : q->nvtx_exclude;
    unsigned *n = inc ? &q->n_nvtx_include : &q->n_nvtx_exclude;
    if ((!inc && e[0] != '-') || q->n_nvtx_include + q->n_nvtx_exclude >= GP_EXEC_NVTX_FILTERS)
        return;
    len--;
    memcpy(list[*n], e + 1, len < GP_EXEC_NVTX_FILTER_LEN ? len : 0);
    list[(*n)++][len < GP_EXEC_NVTX_FILTER_LEN ? len : 0] = 0;
}

static void read_nvtx_filters(gp_exec_request *q, const char *text)
{
    while (text && *text) {
        const char *sep = strchr(text, GP_NVTX_FILTER_SEP);
        const size_t len = sep ? (size_t)(sep - text) : strlen(text);
        if (len)
            read_nvtx_filter(q, text, len);
        text = sep ? sep + 1 : NULL;
    }
}

/* The request's part of the environment. */
static void read_request(char *const *env, gp_exec_request *q)
{
    *q = gp_exec_request_default();
    const char *regex = lookup(env, GP_ENV_KERNEL);
    if (regex && strlen(regex) < sizeof q->kernel_regex)
        strcpy(q->kernel_regex, regex);
    else if (regex)
        q->kernel_regex[0] = '(';  /* longer than gpuprof writes: a pattern that does not
                                      compile, which the library says */
    const uint64_t skip = read_count(env, GP_ENV_SKIP);
    q->launch_skip = skip == UINT64_MAX ? 0 : skip;
    q->launch_count = read_count(env, GP_ENV_COUNT);
    q->per_kernel = read_count(env, GP_ENV_PER_KERNEL);
    const char *samples = lookup(env, GP_ENV_GRAPH_SAMPLES);
    const uint64_t count = read_count(env, GP_ENV_GRAPH_SAMPLES);
    if (samples && strcmp(samples, "all") == 0)
        q->graph_samples = UINT64_MAX;
    else if (count != UINT64_MAX)
        q->graph_samples = count;
    const char *follow = lookup(env, GP_ENV_FOLLOW);
    q->follow_children = follow && strcmp(follow, "1") == 0;
    const char *source = lookup(env, GP_ENV_SOURCE);
    q->source = source && strcmp(source, "1") == 0;
    const char *nvtx = lookup(env, GP_ENV_NVTX);
    q->nvtx = nvtx && strcmp(nvtx, "1") == 0;
    read_nvtx_filters(q, lookup(env, GP_ENV_NVTX_FILTERS));
    const uint64_t period = read_count(env, GP_ENV_STALLS);
    q->stalls = period >= GP_STALL_PERIOD_MIN && period <= GP_STALL_PERIOD_MAX;
    q->stall_period = q->stalls ? (unsigned)period : 0;
    if (!gp_exec_replay_from_name(lookup(env, GP_ENV_REPLAY), &q->replay))
        q->replay = GP_EXEC_REPLAY_AUTO;
    if (!gp_graph_profiling_from_name(lookup(env, GP_ENV_GRAPH), &q->graph_profiling))
        q->graph_profiling = GP_GRAPH_NODE;
}

void gp_exec_options_decode(char *const *env, gp_exec_options *o)
{
    memset(o, 0, sizeof *o);
    o->library = lookup(env, GP_ENV_INJECTION);
    o->records_dir = lookup(env, GP_ENV_DIR);
    read_metrics(&o->metrics, lookup(env, GP_ENV_METRICS));
    read_request(env, &o->request);
    const char *parent = lookup(env, GP_ENV_PARENT);
    o->parent_pid = parent ? atol(parent) : -1;
    const uint64_t pass = read_count(env, GP_ENV_APP_PASS);
    o->app_pass = pass < GP_MAX_GROUPS ? (unsigned)pass : 0;
}
