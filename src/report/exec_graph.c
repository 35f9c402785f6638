/* CUDA-graph kernel nodes of an exec report (gpuprof/exec_graph.h): how each launch's
 * metrics were obtained, the graphs counted, and each kernel's graph-node launches by way. */
#include "gpuprof/exec_graph.h"

#include "gpuprof/exec_modes.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/origin_names.h"
#include "gpuprof/status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gp_launch_how's words beside the origin masks (0 to 15): what a launch without origins was
 * (an older gpuprof's report, or a launch not profiled). */
enum { HOW_YES = 16, HOW_TIMED = 17 };

/* What --graph-profiling did with a graph's kernel nodes, by mode. */
static const char *const mode_words[GP_GRAPH_MODES] = {
    [GP_GRAPH_NODE] = "each kernel node launched alone before its graph launch (a shadow "
                      "launch) for its counters, its DRAM traffic sampled while the program's "
                      "own graph launch ran",
    [GP_GRAPH_WHOLE] = ("one range around each whole graph launch (hardware counters, no "
                        "SASS counters)"),
    [GP_GRAPH_TIME] = "timed, not profiled",
};

bool gp_exec_has_graph_nodes(const gp_exec_info *e)
{
    for (size_t i = 0; i < e->n_launches; i++)
        if (e->launches[i].graph_node)
            return true;
    return false;
}

/* The kind of gp_launch_how's word: an origin mask, HOW_YES or HOW_TIMED; -1 for "no". */
static int how_kind(const gp_exec_launch *l)
{
    const unsigned origins = l->origins & ((1u << GP_ORIGINS) - 1);
    if (origins == 0 || origins == GP_ORIGIN_RANGE)
        return l->profiled || origins ? HOW_YES : l->graph_node ? HOW_TIMED : -1;
    return (int)origins;
}

static void how_word(char *buf, size_t len, int kind)
{
    if (kind == HOW_YES || kind == HOW_TIMED || kind < 0)
        snprintf(buf, len, "%s", kind == HOW_YES ? "yes" : kind == HOW_TIMED ? "timed" : "no");
    else
        gp_origins_join((unsigned)kind, "+", buf, len);
}

void gp_launch_how(char *buf, size_t len, const gp_exec_launch *l)
{
    how_word(buf, len, how_kind(l));
}

/* Distinct graphs among the launches: a graph id is the process's (and a merged report's
 * processes are told apart by their file). */
static size_t count_graphs(const gp_exec_info *e)
{
    gp_hashmap seen;
    gp_hashmap_init(&seen, 0);
    for (size_t i = 0; i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        if (!l->graph_node)
            continue;
        struct {
            uint64_t graph, input;
            int64_t pid;
        } key;
        memset(&key, 0, sizeof key);
        key.graph = l->graph;
        key.input = l->input;
        key.pid = l->pid;
        bool added;
        if (!gp_hashmap_add(&seen, &key, sizeof key, &added))
            break;
    }
    const size_t n = seen.count;
    gp_hashmap_free(&seen);
    return n;
}

bool gp_exec_graph_summary(char *buf, size_t len, const gp_exec_info *e)
{
    size_t nodes = 0;
    for (size_t i = 0; i < e->n_launches; i++)
        nodes += e->launches[i].graph_node != 0;
    if (!nodes)
        return false;
    const size_t graphs = count_graphs(e);
    const gp_graph_profiling asked = e->request.graph_profiling;
    const unsigned mode = (unsigned)asked < GP_GRAPH_MODES ? asked : GP_GRAPH_NODE;
    const int used = snprintf(buf, len, "%zu of %zu launches were kernel nodes of %zu graph%s; "
                              "--graph-profiling=%s: %s", nodes, e->n_launches, graphs,
                              graphs == 1 ? "" : "s",
                              gp_graph_profiling_name((gp_graph_profiling)mode), mode_words[mode]);
    const uint64_t samples = e->request.graph_samples;
    if (mode != GP_GRAPH_TIME && samples != UINT64_MAX && used > 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, "; each graph's first %llu launch%s "
                 "profiled, the later ones timed (--graph-samples)",
                 (unsigned long long)samples, samples == 1 ? "" : "es");
    return true;
}

/* ---- per kernel ------------------------------------------------------------------------ */

int gp_exec_graph_uses(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                       gp_graph_use **uses)
{
    *uses = calloc(nk ? nk : 1, sizeof **uses);
    gp_hashmap index;  /* kernel name -> size_t: its place in k */
    gp_hashmap_init(&index, sizeof(size_t));
    int rc = *uses ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < nk; i++) {
        bool added;
        size_t *at = gp_hashmap_add_str(&index, k[i].kernel, &added);
        if (at)
            *at = i;
        else
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++) {
        const gp_exec_launch *l = &e->launches[i];
        const size_t *at = l->graph_node ? gp_hashmap_find_str(&index, l->kernel) : NULL;
        const int kind = how_kind(l);
        if (!at || kind < 0)
            continue;
        (*uses)[*at].nodes++;
        (*uses)[*at].by_how[kind]++;
    }
    gp_hashmap_free(&index);
    return rc;
}

void gp_graph_use_cell(char *buf, size_t len, const gp_graph_use *u)
{
    size_t used = 0;
    snprintf(buf, len, "-");
    for (int kind = 0; kind < GP_HOW_KINDS && used < len; kind++) {
        if (!u->by_how[kind])
            continue;
        char word[64];
        how_word(word, sizeof word, kind);
        used += (size_t)snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "",
                                 u->by_how[kind], word);
    }
}

/* A cell's room: a few ways' counts ("2 shadow+sampled, 1 timed"). */
#define NODES_LEN 256

int gp_exec_graph_cells(const gp_exec_info *e, const gp_exec_kernel *k, size_t nk,
                        char ***cells)
{
    *cells = NULL;
    if (!gp_exec_has_graph_nodes(e))
        return GP_OK;
    gp_graph_use *graph = NULL;
    GP_TRY(gp_exec_graph_uses(e, k, nk, &graph));
    const size_t n = nk ? nk : 1;
    char **out = malloc(n * (sizeof *out + NODES_LEN));
    if (!out) {
        free(graph);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    char *text = (char *)(out + n);
    for (size_t i = 0; i < nk; i++) {
        out[i] = text + NODES_LEN * i;
        gp_graph_use_cell(out[i], NODES_LEN, &graph[i]);
    }
    free(graph);
    *cells = out;
    return GP_OK;
}
