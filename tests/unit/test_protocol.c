/* exec's environment codec (src/exec/protocol.c): options encoded then decoded come back
 * the same; unset or malformed variables decode to their defaults; the first of two
 * entries of a name counts, as getenv. */
#include "tap.h"

#include "gpuprof/exec_modes.h"
#include "gpuprof/protocol.h"

#include <regex.h>
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
    snprintf(in.request.kernel_regex, sizeof in.request.kernel_regex, "copy(Strided|Coalesced)");
    in.request.launch_skip = 3;
    in.request.launch_count = 7;
    in.request.per_kernel = 2;
    in.request.graph_samples = 25;
    in.parent_pid = 4242;
    in.request.follow_children = true;
    in.request.source = true;
    in.request.nvtx = true;
    in.request.stalls = true;
    in.request.stall_period = 12;
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
    const gp_exec_request *q = &out.request;
    tap_ok(same_text(q->kernel_regex, in.request.kernel_regex), "protocol: round trip: the filter");
    tap_ok(q->launch_skip == 3 && q->launch_count == 7 && q->per_kernel == 2 &&
               q->graph_samples == 25,
           "protocol: round trip: skip, count, per kernel, graph samples");
    tap_ok(out.parent_pid == 4242 && out.request.follow_children,
           "protocol: round trip: parent and children followed");
    tap_ok(out.request.source, "protocol: round trip: --source");
    tap_ok(out.request.stalls && out.request.stall_period == 12,
           "protocol: round trip: --stalls and its period");
    bool tool = false;
    for (size_t i = 0; i < n; i++)
        tool = tool || !strcmp(env[i], "NVTX_INJECTION64_PATH=/opt/gpuprof/lib/gpuprof/"
                                       "libgpuprof-inject.so");
    tap_ok(out.request.nvtx && tool,
           "protocol: round trip: --nvtx, and the library named NVTX's tool");
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
        in.request.launch_count = UINT64_MAX;
        in.request.per_kernel = UINT64_MAX;
        char *env[GP_EXEC_OPTION_VARS + 1];
        if (!encode(&in, env)) {
            all = false;
            continue;
        }
        size_t n = 0;
        while (env[n])
            n++;
        gp_exec_options_decode(env, &out);
        all = all && n == GP_EXEC_OPTION_VARS - 3 && same_metrics(&out.metrics, &in.metrics) &&
              out.request.launch_count == UINT64_MAX && out.request.per_kernel == UINT64_MAX &&
              out.request.launch_skip == 0 && !out.request.kernel_regex[0] &&
              out.parent_pid == 0 && !out.request.follow_children && !out.request.source &&
              !out.request.nvtx && !out.request.stalls && out.request.stall_period == 0;
        free_env(env);
    }
    tap_ok(all, "protocol: round trip: default, all and none; no limits written as absent, no NVTX tool");
}

/* --graph-profiling: each mode travels by name and comes back; unset or unknown is node. */
static void round_trip_graph_profiling(void)
{
    static gp_exec_options in, out;
    for (unsigned m = 0; m < GP_GRAPH_MODES; m++) {
        memset(&in, 0, sizeof in);
        in.records_dir = "/tmp/r";
        in.request.graph_profiling = (gp_graph_profiling)m;
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
        tap_ok(named && out.request.graph_profiling == (gp_graph_profiling)m,
               "protocol: round trip: --graph-profiling=%s (%s)", gp_graph_profiling_names[m],
               want);
        free_env(env);
    }
    char *unset[] = {"GPUPROF_EXEC_DIR=/tmp/r", NULL};
    memset(&out, 0xff, sizeof out);
    gp_exec_options_decode(unset, &out);
    tap_ok(out.request.graph_profiling == GP_GRAPH_NODE, "protocol: graph profiling unset: node");
    char *unknown[] = {"GPUPROF_EXEC_GRAPH_PROFILING=Graph", NULL};
    memset(&out, 0xff, sizeof out);
    gp_exec_options_decode(unknown, &out);
    tap_ok(out.request.graph_profiling == GP_GRAPH_NODE,
           "protocol: graph profiling of an unknown name (names match whole): node");
}

static void defaults(void)
{
    static gp_exec_options o;
    char *empty[] = {NULL};
    gp_exec_options_decode(empty, &o);
    const gp_exec_request *q = &o.request;
    tap_ok(!o.library && !o.records_dir && o.metrics.kind == GP_METRICS_NONE &&
           !q->kernel_regex[0] && q->launch_skip == 0 && q->launch_count == UINT64_MAX &&
           q->per_kernel == UINT64_MAX && o.parent_pid == -1 && !q->follow_children &&
           q->graph_samples == GP_GRAPH_SAMPLES_DEFAULT && !q->source,
           "protocol: nothing set: no folder, no metrics, no filter or limits, no parent, "
           "the default graph samples, no --source");
    gp_exec_options_decode(NULL, &o);
    tap_ok(!o.records_dir && o.metrics.kind == GP_METRICS_NONE && o.parent_pid == -1,
           "protocol: no environment at all: the defaults");
    char *malformed[] = {"GPUPROF_EXEC_METRICS=bogus", "GPUPROF_EXEC_LAUNCH_SKIP=4x",
                         "GPUPROF_EXEC_LAUNCH_COUNT=", "GPUPROF_EXEC_PER_KERNEL=-",
                         "GPUPROF_EXEC_FOLLOW=yes", "GPUPROF_EXEC_DIRX=/elsewhere",
                         "GPUPROF_EXEC_DI=/nowhere", "GPUPROF_EXEC_GRAPH_SAMPLES=All",
                         "GPUPROF_EXEC_SOURCE=yes", NULL};
    gp_exec_options_decode(malformed, &o);
    tap_ok(o.metrics.kind == GP_METRICS_DEFAULT && q->launch_skip == 0 &&
           q->launch_count == UINT64_MAX && q->per_kernel == UINT64_MAX && !q->follow_children &&
           !o.records_dir && q->graph_samples == GP_GRAPH_SAMPLES_DEFAULT && !q->source,
           "protocol: malformed values decode to their defaults; names match whole");
    char *twice[] = {"GPUPROF_EXEC_LAUNCH_COUNT=5", "GPUPROF_EXEC_LAUNCH_COUNT=9",
                     "GPUPROF_EXEC_METRICS=list:a,,b", NULL};
    gp_exec_options_decode(twice, &o);
    tap_ok(o.request.launch_count == 5, "protocol: the first entry of a name counts, as getenv");
    tap_ok(o.metrics.kind == GP_METRICS_LIST && o.metrics.n_names == 2 &&
               strcmp(o.metrics.names[0], "a") == 0 && strcmp(o.metrics.names[1], "b") == 0,
           "protocol: a list's empty names are skipped");
    char *samples[] = {"GPUPROF_EXEC_GRAPH_SAMPLES=all", NULL};
    gp_exec_options_decode(samples, &o);
    tap_ok(o.request.graph_samples == UINT64_MAX, "protocol: graph samples 'all': no limit");
    char *none[] = {"GPUPROF_EXEC_GRAPH_SAMPLES=0", NULL};
    gp_exec_options_decode(none, &o);
    tap_ok(o.request.graph_samples == 0, "protocol: graph samples 0: none sampled");
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

/* A --kernel pattern longer than a request holds (set by hand: gpuprof refuses one) is
 * not cut to a shorter pattern that would match other kernels: it does not compile. */
static void long_kernel_pattern(void)
{
    static char text[GP_KERNEL_REGEX_LEN + 64];
    static gp_exec_options o;
    size_t used = (size_t)snprintf(text, sizeof text, "%s=", GP_ENV_KERNEL);
    memset(text + used, 'k', GP_KERNEL_REGEX_LEN);
    text[used + GP_KERNEL_REGEX_LEN] = '\0';
    char *env[] = {text, NULL};
    gp_exec_options_decode(env, &o);
    regex_t re;
    const bool compiles = regcomp(&re, o.request.kernel_regex, REG_EXTENDED | REG_NOSUB) == 0;
    if (compiles)
        regfree(&re);
    tap_ok(o.request.kernel_regex[0] && !compiles,
           "protocol: a --kernel pattern too long for the request does not compile ('%s')",
           o.request.kernel_regex);
}

/* The request's defaults, and each mode's name back to its mode (one table each). */
static void request_defaults_and_names(void)
{
    const gp_exec_request d = gp_exec_request_default();
    tap_ok(!d.kernel_regex[0] && d.launch_skip == 0 && d.launch_count == UINT64_MAX &&
               d.per_kernel == UINT64_MAX && !d.follow_children &&
               d.replay == GP_EXEC_REPLAY_AUTO && d.graph_profiling == GP_GRAPH_NODE &&
               d.graph_samples == GP_GRAPH_SAMPLES_DEFAULT,
           "exec request: no filter, no limit, auto, node, 10 graph samples by default");
    bool replay = true, graph = true;
    for (unsigned m = 0; m < GP_EXEC_REPLAY_MODES; m++) {
        gp_exec_replay back = GP_EXEC_REPLAY_MODES;
        replay = replay && gp_exec_replay_names[m] &&
                 gp_exec_replay_from_name(gp_exec_replay_name((gp_exec_replay)m), &back) &&
                 back == (gp_exec_replay)m;
    }
    for (unsigned m = 0; m < GP_GRAPH_MODES; m++) {
        gp_graph_profiling back = GP_GRAPH_MODES;
        graph = graph && gp_graph_profiling_names[m] &&
                gp_graph_profiling_from_name(gp_graph_profiling_name((gp_graph_profiling)m),
                                             &back) &&
                back == (gp_graph_profiling)m;
    }
    gp_exec_replay r = GP_EXEC_REPLAY_KERNEL;
    tap_ok(replay && !gp_exec_replay_from_name("Auto", &r) && !gp_exec_replay_from_name(NULL, &r) &&
               r == GP_EXEC_REPLAY_KERNEL,
           "exec request: each replay mode's name reads back; another name changes nothing");
    tap_ok(graph, "exec request: each graph profiling mode's name reads back");
    tap_str_eq(gp_exec_replay_name(GP_EXEC_REPLAY_MODES), "auto",
               "exec request: a replay mode out of range is named auto");
}

/* --nvtx-include and --nvtx-exclude: one variable, each expression after its sign, in the
 * order given; what gpuprof never writes is left out or refused later. */
static void round_trip_nvtx_filters(void)
{
    static gp_exec_options in, out;
    memset(&in, 0, sizeof in);
    in.records_dir = "/tmp/r";
    in.request.nvtx = true;
    const char *inc[] = {"train/*/step/", "regex:d.*@a\\.b,c=d", "[x]/"};
    const char *exc[] = {"dom@warmup"};
    for (unsigned i = 0; i < 3; i++)
        strcpy(in.request.nvtx_include[i], inc[i]);
    strcpy(in.request.nvtx_exclude[0], exc[0]);
    in.request.n_nvtx_include = 3;
    in.request.n_nvtx_exclude = 1;
    char *env[GP_EXEC_OPTION_VARS + 1];
    if (!tap_ok(encode(&in, env), "protocol: NVTX filters encoded"))
        return;
    const char *value = NULL;
    for (size_t i = 0; env[i]; i++)
        if (!strncmp(env[i], GP_ENV_NVTX_FILTERS "=", strlen(GP_ENV_NVTX_FILTERS) + 1))
            value = env[i] + strlen(GP_ENV_NVTX_FILTERS) + 1;
    tap_str_eq(value, "+train/*/step/\x1f+regex:d.*@a\\.b,c=d\x1f+[x]/\x1f-dom@warmup",
               "protocol: NVTX filters in one variable, signed, 0x1F between");
    gp_exec_options_decode(env, &out);
    const gp_exec_request *q = &out.request;
    bool same = q->n_nvtx_include == 3 && q->n_nvtx_exclude == 1 &&
                same_text(q->nvtx_exclude[0], exc[0]);
    for (unsigned i = 0; i < 3 && same; i++)
        same = same_text(q->nvtx_include[i], inc[i]);
    tap_ok(same, "protocol: round trip: NVTX includes and excludes, in order");
    free_env(env);

    static char longest[2 * GP_EXEC_NVTX_FILTER_LEN];
    memset(longest, 'a', sizeof longest - 1);
    longest[0] = '+';
    char entry[sizeof longest + 64];
    snprintf(entry, sizeof entry, "%s=*A/\x1f%s\x1f\x1f-B/", GP_ENV_NVTX_FILTERS, longest);
    char *odd[] = {entry, NULL};
    gp_exec_options_decode(odd, &out);
    tap_ok(out.request.n_nvtx_include == 1 && !out.request.nvtx_include[0][0] &&
               out.request.n_nvtx_exclude == 1 && same_text(out.request.nvtx_exclude[0], "B/"),
           "protocol: NVTX filters: an unsigned one left out, an over-long one empty (refused "
           "by the library), an empty one skipped");
    char *none[] = {NULL};
    gp_exec_options_decode(none, &out);
    tap_ok(out.request.n_nvtx_include == 0 && out.request.n_nvtx_exclude == 0,
           "protocol: no NVTX filters unset");
}

void test_protocol(void)
{
    round_trip_nvtx_filters();
    long_kernel_pattern();
    request_defaults_and_names();
    round_trip_list();
    round_trip_sets();
    round_trip_groups();
    round_trip_graph_profiling();
    defaults();
    long_list();
}
