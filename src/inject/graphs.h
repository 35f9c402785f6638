/* The program's executable CUDA graphs, as gpuprof exec needs them to profile their kernel
 * nodes (--graph-profiling=node): each one's source, cloned when it is instantiated (the
 * program may change or destroy its own graph afterwards), the ids CUPTI's activity records
 * give its kernel nodes, and whether its nodes can be launched one by one ("shadow
 * launches", graph_launches.h) or why not: every kernel node with no host node among its
 * ancestors can be (it runs before any of the program's host code in the graph, which
 * gpuprof never runs twice), event record and wait nodes only order work and are skipped,
 * and any other kind of node (memory allocation, external semaphores, conditionals...)
 * keeps the whole graph from it. The program's updates to an executable graph are
 * followed (kernel, memcpy and memset node parameters, cudaGraphExecUpdate); any other
 * in-place change makes that graph fall back to sampled DRAM traffic and times, so that a
 * shadow launch never runs stale parameters. */
#ifndef GPUPROF_INJECT_GRAPHS_H
#define GPUPROF_INJECT_GRAPHS_H

#include "inject/inject.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One thing a shadow run does, in dependency order (child graphs inlined). */
typedef enum { GP_STEP_KERNEL, GP_STEP_MEMCPY, GP_STEP_MEMSET } gp_step_kind;

typedef struct {
    gp_step_kind kind;
    CUgraphNode node;          /* in the clone (or one of its child graphs) */
    uint64_t exec_node;        /* the id the node's `K` lines carry; 0: not known (a node
                                  of a child graph, or after cudaGraphExecUpdate) */
    bool after_host;           /* a host node is among its ancestors: it runs after program
                                  code of the graph, so it is never shadow-launched */
} gp_graph_step;

typedef struct {
    uint32_t exec_id;          /* CUPTI's id of the executable graph (the `K` lines' graph) */
    size_t kernels;            /* kernel nodes, child graphs' included */
    size_t after_host;         /* of those, the ones after a host node (sampled only) */
    const char *reason;        /* NULL: its nodes can be shadow-launched; else why not */
    const gp_graph_step *steps;
    size_t n_steps;
    bool said;                 /* its `graph` record was written */
    uint64_t profiled;         /* its launches sampled or ranged so far (--graph-samples) */
} gp_graph_view;

/* The driver callbacks this file follows (instantiation, destruction, in-place updates). */
extern const CUpti_CallbackId gp_graph_callbacks[];
extern const size_t gp_n_graph_callbacks;

/* A driver API callback of gp_graph_callbacks. */
void gp_graphs_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d);
/* A resource callback: CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED during an instantiation says
 * which executable-graph node each of the program's nodes became. */
void gp_graphs_on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r);

/* The executable graph's view, held under gp_graphs_lock() until gp_graphs_unlock(); false
 * when gpuprof did not see it instantiated (it then falls back, with that reason). */
bool gp_graphs_find(CUgraphExec exec, gp_graph_view *view);
/* Note that the graph's `graph` record was written. */
void gp_graphs_mark_said(CUgraphExec exec);
/* Count a launch of the graph that was sampled or ranged. */
void gp_graphs_count_profiled(CUgraphExec exec);
void gp_graphs_lock(void);
void gp_graphs_unlock(void);

#endif
