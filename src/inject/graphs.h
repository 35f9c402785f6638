/* The program's executable CUDA graphs, as gpuprof exec needs them to profile their kernel
 * nodes (--graph-profiling=node): each one's source, cloned when it is instantiated (the
 * program may change or destroy its own graph afterwards), the ids CUPTI's activity records
 * give its kernel nodes, and whether its nodes can be launched one by one ("shadow
 * launches", shadow.h) or why not. The program's updates to an executable graph are
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
} gp_graph_step;

typedef struct {
    uint32_t exec_id;          /* CUPTI's id of the executable graph (the `K` lines' graph) */
    size_t kernels;            /* kernel nodes, child graphs' included */
    const char *reason;        /* NULL: its nodes can be shadow-launched; else why not */
    const gp_graph_step *steps;
    size_t n_steps;
    bool said;                 /* its `graph` record was written */
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
void gp_graphs_lock(void);
void gp_graphs_unlock(void);

#endif
