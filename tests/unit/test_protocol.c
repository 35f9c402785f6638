/* exec's environment codec (src/exec/protocol.c): options encoded then decoded come back
 * the same; unset or malformed variables decode to their defaults; the first of two
 * entries of a name counts, as getenv. */
#include "tap.h"

#include "exec/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Encode o into a NULL-terminated environment in env (GP_EXEC_OPTION_VARS + 1 entries). */
static bool encode(const gp_exec_options *o, char **env)
{
    size_t n = 0;
    if (gp_exec_options_encode(o, env, &n) != 0)
        return false;
    env[n] = NULL;
    return true;
}

static void free_env(char **env)
{
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
}

static bool same_metrics(const gp_metrics_request *a, const gp_metrics_request *b)
{
    if (a->kind != b->kind || a->groups != b->groups || a->n_names != b->n_names)
        return false;
    for (size_t i = 0; i < a->n_names; i++)
        if (strcmp(a->names[i], b->names[i]) != 0)
            return false;
    return true;
}

static bool same_text(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static void round_trip_list(void)
{
    static gp_exec_options in, out;
    memset(&in, 0, sizeof in);
    in.library = "/opt/gpuprof/lib/gpuprof/libgpuprof-inject.so";
    in.records_dir = "/tmp/gpuprof-exec-abc123";
    in.metrics.kind = GP_METRICS_LIST;
    in.metrics.groups = GP_GROUP_BIT(GP_GROUP_DEFAULT) | GP_GROUP_BIT(GP_GROUP_ASYNC);
    snprintf(in.metrics.names[0], GP_METRIC_NAME_LEN, "gld_efficiency");
    snprintf(in.metrics.names[1], GP_METRIC_NAME_LEN, "dram__bytes_read.sum");
    in.metrics.n_names = 2;
    in.kernel_regex = "copy(Strided|Coalesced)";
    in.launch_skip = 3;
    in.launch_count = 7;
    in.per_kernel = 2;
    in.parent_pid = 4242;
    in.follow_children = true;
    char *env[GP_EXEC_OPTION_VARS + 1];
    if (!tap_ok(encode(&in, env), "protocol: options encoded"))
        return;
    size_t n = 0;
    while (env[n])
        n++;
    tap_ok(n == GP_EXEC_OPTION_VARS, "protocol: every option has its variable (%zu)", n);
    tap_str_eq(env[0], "CUDA_INJECTION64_PATH=/opt/gpuprof/lib/gpuprof/libgpuprof-inject.so",
               "protocol: the library first, for the driver");
    gp_exec_options_decode(env, &out);
    tap_ok(same_text(out.library, in.library) && same_text(out.records_dir, in.records_dir),
           "protocol: round trip: library and records folder");
    tap_ok(same_metrics(&out.metrics, &in.metrics),
           "protocol: round trip: a metric list of groups, a key and a raw name");
    tap_ok(same_text(out.kernel_regex, in.kernel_regex), "protocol: round trip: the filter");
    tap_ok(out.launch_skip == 3 && out.launch_count == 7 && out.per_kernel == 2,
           "protocol: round trip: skip, count, per kernel");
    tap_ok(out.parent_pid == 4242 && out.follow_children,
           "protocol: round trip: parent and children followed");
    free_env(env);
}

/* Groups alone: a list without names. */
static void round_trip_groups(void)
{
    static gp_exec_options in, out;
    memset(&in, 0, sizeof in);
    in.records_dir = "/tmp/r";
    in.metrics.kind = GP_METRICS_LIST;
    in.metrics.groups = GP_GROUP_BIT(GP_GROUP_L2) | GP_GROUP_BIT(GP_GROUP_ATOMICS);
    char *env[GP_EXEC_OPTION_VARS + 1];
    if (!tap_ok(encode(&in, env), "protocol: groups encoded"))
        return;
    bool text = false;
    for (size_t i = 0; env[i]; i++)
        text |= strcmp(env[i], "GPUPROF_EXEC_METRICS=list:l2,atomics") == 0;
    tap_ok(text, "protocol: groups travel by name");
    gp_exec_options_decode(env, &out);
    tap_ok(same_metrics(&out.metrics, &in.metrics), "protocol: round trip: groups alone");
    free_env(env);
}

static void round_trip_sets(void)
{
    static gp_exec_options in, out;
    const gp_metrics_kind kinds[] = {GP_METRICS_DEFAULT, GP_METRICS_ALL, GP_METRICS_NONE};
    bool all = true;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        memset(&in, 0, sizeof in);
        in.records_dir = "/tmp/r";
        in.metrics.kind = kinds[i];
        in.launch_count = UINT64_MAX;
        in.per_kernel = UINT64_MAX;
        char *env[GP_EXEC_OPTION_VARS + 1];
        if (!encode(&in, env)) {
            all = false;
            continue;
        }
        size_t n = 0;
        while (env[n])
            n++;
        gp_exec_options_decode(env, &out);
        all = all && n == GP_EXEC_OPTION_VARS - 2 && same_metrics(&out.metrics, &in.metrics) &&
              out.launch_count == UINT64_MAX && out.per_kernel == UINT64_MAX &&
              out.launch_skip == 0 && out.kernel_regex && !out.kernel_regex[0] &&
              out.parent_pid == 0 && !out.follow_children;
        free_env(env);
    }
    tap_ok(all, "protocol: round trip: default, all and none; no limits written as absent");
}

/* --graph-profiling: each mode travels by name and comes back; unset or unknown is node. */
static void round_trip_graph_profiling(void)
{
    static gp_exec_options in, out;
    for (unsigned m = 0; m < GP_GRAPH_MODES; m++) {
        memset(&in, 0, sizeof in);
        in.records_dir = "/tmp/r";
        in.graph_profiling = (gp_graph_profiling)m;
        char *env[GP_EXEC_OPTION_VARS + 1], want[64];
        if (!tap_ok(encode(&in, env), "protocol: graph profiling %s encoded",
                    gp_graph_profiling_names[m]))
            continue;
        snprintf(want, sizeof want, "%s=%s", GP_ENV_GRAPH, gp_graph_profiling_names[m]);
        bool named = false;
        for (size_t i = 0; env[i]; i++)
            named |= strcmp(env[i], want) == 0;
        memset(&out, 0xff, sizeof out);
        gp_exec_options_decode(env, &out);
        tap_ok(named && out.graph_profiling == (gp_graph_profiling)m,
               "protocol: round trip: --graph-profiling=%s (%s)", gp_graph_profiling_names[m],
               want);
        free_env(env);
    }
    char *unset[] = {"GPUPROF_EXEC_DIR=/tmp/r", NULL};
    memset(&out, 0xff, sizeof out);
    gp_exec_options_decode(unset, &out);
    tap_ok(out.graph_profiling == GP_GRAPH_NODE, "protocol: graph profiling unset: node");
    char *unknown[] = {"GPUPROF_EXEC_GRAPH_PROFILING=Graph", NULL};
    memset(&out, 0xff, sizeof out);
    gp_exec_options_decode(unknown, &out);
    tap_ok(out.graph_profiling == GP_GRAPH_NODE,
           "protocol: graph profiling of an unknown name (names match whole): node");
}

static void defaults(void)
{
    static gp_exec_options o;
    char *empty[] = {NULL};
    gp_exec_options_decode(empty, &o);
    tap_ok(!o.library && !o.records_dir && o.metrics.kind == GP_METRICS_NONE &&
           !o.kernel_regex && o.launch_skip == 0 && o.launch_count == UINT64_MAX &&
           o.per_kernel == UINT64_MAX && o.parent_pid == -1 && !o.follow_children,
           "protocol: nothing set: no folder, no metrics, no filter or limits, no parent");
    gp_exec_options_decode(NULL, &o);
    tap_ok(!o.records_dir && o.metrics.kind == GP_METRICS_NONE && o.parent_pid == -1,
           "protocol: no environment at all: the defaults");
    char *malformed[] = {"GPUPROF_EXEC_METRICS=bogus", "GPUPROF_EXEC_LAUNCH_SKIP=4x",
                         "GPUPROF_EXEC_LAUNCH_COUNT=", "GPUPROF_EXEC_PER_KERNEL=-",
                         "GPUPROF_EXEC_FOLLOW=yes", "GPUPROF_EXEC_DIRX=/elsewhere",
                         "GPUPROF_EXEC_DI=/nowhere", NULL};
    gp_exec_options_decode(malformed, &o);
    tap_ok(o.metrics.kind == GP_METRICS_DEFAULT && o.launch_skip == 0 &&
           o.launch_count == UINT64_MAX && o.per_kernel == UINT64_MAX && !o.follow_children &&
           !o.records_dir,
           "protocol: malformed values decode to their defaults; names match whole");
    char *twice[] = {"GPUPROF_EXEC_LAUNCH_COUNT=5", "GPUPROF_EXEC_LAUNCH_COUNT=9",
                     "GPUPROF_EXEC_METRICS=list:a,,b", NULL};
    gp_exec_options_decode(twice, &o);
    tap_ok(o.launch_count == 5, "protocol: the first entry of a name counts, as getenv");
    tap_ok(o.metrics.kind == GP_METRICS_LIST && o.metrics.n_names == 2 &&
               strcmp(o.metrics.names[0], "a") == 0 && strcmp(o.metrics.names[1], "b") == 0,
           "protocol: a list's empty names are skipped");
}

static void long_list(void)
{
    /* More names than a request holds: the first GP_MAX_METRIC_NAMES are kept. */
    static char text[(GP_MAX_METRIC_NAMES + 10) * 8 + 32];
    static gp_exec_options o;
    size_t used = (size_t)snprintf(text, sizeof text, "GPUPROF_EXEC_METRICS=list:");
    for (int i = 0; i < GP_MAX_METRIC_NAMES + 10; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%sm%d", i ? "," : "", i);
    char *env[] = {text, NULL};
    gp_exec_options_decode(env, &o);
    char last[16];
    snprintf(last, sizeof last, "m%d", GP_MAX_METRIC_NAMES - 1);
    tap_ok(o.metrics.n_names == GP_MAX_METRIC_NAMES &&
               strcmp(o.metrics.names[GP_MAX_METRIC_NAMES - 1], last) == 0,
           "protocol: a list longer than a request keeps its first %d names",
           GP_MAX_METRIC_NAMES);
}

void test_protocol(void)
{
    round_trip_list();
    round_trip_sets();
    round_trip_groups();
    round_trip_graph_profiling();
    defaults();
    long_list();
}
