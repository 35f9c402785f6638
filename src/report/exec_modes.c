/* The exec request's defaults and its modes' names (gpuprof/exec_modes.h): one table each,
 * for the command line, the injected library, the records and the reports. Linked into
 * libgpuprof-inject.so too: no cJSON, no cudart, no printing. */
#include "gpuprof/exec_modes.h"

#include <string.h>

gp_exec_request gp_exec_request_default(void)
{
    return (gp_exec_request){.launch_count = UINT64_MAX, .per_kernel = UINT64_MAX,
                              .graph_samples = GP_GRAPH_SAMPLES_DEFAULT,
                             .replay = GP_EXEC_REPLAY_AUTO, .graph_profiling = GP_GRAPH_NODE,
                             .rank = -1};
}

/* The index of `name` among `names`; -1: none. */
static int index_of(const char *name, const char *const *names, int n)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *const gp_exec_replay_names[GP_EXEC_REPLAY_MODES] = {
    [GP_EXEC_REPLAY_AUTO] = "auto", [GP_EXEC_REPLAY_ROTATE] = "rotate",
    [GP_EXEC_REPLAY_KERNEL] = "kernel", [GP_EXEC_REPLAY_APPLICATION] = "application"};

const char *const gp_graph_profiling_names[GP_GRAPH_MODES] = {
    [GP_GRAPH_NODE] = "node", [GP_GRAPH_WHOLE] = "graph", [GP_GRAPH_TIME] = "time"};

/* A mode out of range is named as the default mode (index 0). */
const char *gp_exec_replay_name(gp_exec_replay m)
{
    return gp_exec_replay_names[(unsigned)m < GP_EXEC_REPLAY_MODES ? m : 0];
}

const char *gp_graph_profiling_name(gp_graph_profiling m)
{
    return gp_graph_profiling_names[(unsigned)m < GP_GRAPH_MODES ? m : 0];
}

bool gp_exec_replay_from_name(const char *name, gp_exec_replay *m)
{
    const int i = index_of(name, gp_exec_replay_names, GP_EXEC_REPLAY_MODES);
    *m = i >= 0 ? (gp_exec_replay)i : *m;
    return i >= 0;
}

bool gp_graph_profiling_from_name(const char *name, gp_graph_profiling *m)
{
    const int i = index_of(name, gp_graph_profiling_names, GP_GRAPH_MODES);
    *m = i >= 0 ? (gp_graph_profiling)i : *m;
    return i >= 0;
}
