/* The executable graphs of graphs.h: a clone of each one's source taken at its
 * instantiation, its steps in dependency order, and the program's later changes to it. */
#include "inject/graphs.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/hashmap.h"
#include "inject/locks.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    bool live;
    uint32_t exec_id;
    CUgraph clone;             /* NULL once the graph falls back */
    gp_graph_step *steps;
    size_t n_steps, kernels, after_host;
    char reason[128];          /* "": shadow-launchable */
    bool said;
    uint64_t profiled;         /* launches sampled or ranged */
} graph_entry;

static pthread_mutex_t graphs_lock;  /* Guard: made once, by graphs_once */
static pthread_once_t graphs_once = PTHREAD_ONCE_INIT; /* Guard: none, pthread_once */
static gp_hashmap graphs;      /* graph_entry by CUgraphExec. Guard: graphs_lock */

/* Recursive: the driver calls made here (cloning) call back into the library. */
static void make_lock(void)
{
    gp_recursive_mutex_init(&graphs_lock);
    gp_hashmap_init(&graphs, sizeof(graph_entry));
}

void gp_graphs_lock(void)
{
    pthread_once(&graphs_once, make_lock);
    pthread_mutex_lock(&graphs_lock);
}

void gp_graphs_unlock(void)
{
    pthread_mutex_unlock(&graphs_lock);
}

/* ---- what each instantiation cloned (this thread, between its API entry and exit) -------- */

typedef struct {
    CUgraphNode original;
    uint64_t node_id;
    uint32_t graph_id;
} clone_pair;

/* This thread's instantiation under way. Guard: none, thread-local. */
static _Thread_local bool instantiating;
static _Thread_local clone_pair *pairs;
static _Thread_local size_t n_pairs, cap_pairs;

void gp_graphs_on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    if (cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED || !instantiating)
        return;
    const CUpti_GraphData *g = r->resourceDescriptor;
    clone_pair p = {.original = g->originalNode};
    if (!g->node || !g->graph || cuptiGetGraphNodeId(g->node, &p.node_id) != CUPTI_SUCCESS ||
        cuptiGetGraphId(g->graph, &p.graph_id) != CUPTI_SUCCESS)
        return;
    if (n_pairs == cap_pairs) {
        const size_t cap = cap_pairs ? cap_pairs * 2 : 64;
        clone_pair *more = realloc(pairs, cap * sizeof *more);
        if (!more)
            return; /* that node's id stays unknown: the reader matches it by its kernel */
        pairs = more;
        cap_pairs = cap;
    }
    pairs[n_pairs++] = p;
}

/* The id of the node `original` became in the executable graph `exec_id`; 0 if not seen. */
static uint64_t exec_node_of(CUgraphNode original, uint32_t exec_id)
{
    for (size_t i = 0; i < n_pairs; i++)
        if (pairs[i].original == original && pairs[i].graph_id == exec_id)
            return pairs[i].node_id;
    return 0;
}

/* ---- steps in dependency order ----------------------------------------------------------- */

typedef struct {
    gp_graph_step *steps;
    size_t n, cap, kernels, after_host;
    char *reason;              /* graph_entry.reason: set when a node cannot be shadowed */
    gp_hashmap exec_ids;       /* uint64_t by clone node (top level only) */
} plan;

static const char *const unreplayable[] = {
    [CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL] = "an external semaphore node",
    [CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT] = "an external semaphore node",
    [CU_GRAPH_NODE_TYPE_MEM_ALLOC] = "a memory allocation node",
    [CU_GRAPH_NODE_TYPE_MEM_FREE] = "a memory free node",
    [CU_GRAPH_NODE_TYPE_BATCH_MEM_OP] = "a batch memory operation node",
    [CU_GRAPH_NODE_TYPE_CONDITIONAL] = "a conditional node",
};

static const char *unreplayable_reason(CUgraphNodeType type)
{
    const bool named = (unsigned)type < sizeof unreplayable / sizeof *unreplayable &&
                       unreplayable[type];
    return named ? unreplayable[type] : "a node of a kind gpuprof cannot replay";
}

static void set_reason(char *reason, const char *what)
{
    if (!reason[0])
        snprintf(reason, 128, "%s", what);
}

static void add_step(plan *pl, gp_step_kind kind, CUgraphNode node, bool after_host)
{
    if (pl->n == pl->cap) {
        const size_t cap = pl->cap ? pl->cap * 2 : 16;
        gp_graph_step *more = realloc(pl->steps, cap * sizeof *more);
        if (!more) {
            set_reason(pl->reason, "out of host memory");
            return;
        }
        pl->steps = more;
        pl->cap = cap;
    }
    const uint64_t *id = gp_hashmap_find(&pl->exec_ids, &node, sizeof node);
    pl->steps[pl->n++] = (gp_graph_step){kind, node, id ? *id : 0, after_host};
}

static bool walk(plan *pl, CUgraph g, int depth, bool after_host);

/* Add the node's steps (after_host: a host node is among its ancestors). True when the nodes
 * that depend on it run after a host node: it is one, or it follows one, or it is a child
 * graph holding one. */
static bool add_node(plan *pl, CUgraphNode node, int depth, bool after_host)
{
    CUgraphNodeType type;
    if (cuGraphNodeGetType(node, &type) != CUDA_SUCCESS) {
        set_reason(pl->reason, "a node of unknown type");
        return after_host;
    }
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        pl->kernels++;
        pl->after_host += after_host;
        add_step(pl, GP_STEP_KERNEL, node, after_host);
        return after_host;
    case CU_GRAPH_NODE_TYPE_MEMCPY: add_step(pl, GP_STEP_MEMCPY, node, after_host); break;
    case CU_GRAPH_NODE_TYPE_MEMSET: add_step(pl, GP_STEP_MEMSET, node, after_host); break;
    case CU_GRAPH_NODE_TYPE_HOST: return true;
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: /* they only order work: shadows run in order */
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: break;
    case CU_GRAPH_NODE_TYPE_GRAPH: {
        CUgraph child;
        if (cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS)
            return walk(pl, child, depth + 1, after_host);
        set_reason(pl->reason, "a child graph gpuprof could not read");
        break;
    }
    default:
        /* Its kernels still count: a fallback graph's nodes are sampled and timed. */
        set_reason(pl->reason, unreplayable_reason(type));
    }
    return after_host;
}

/* The node's dependencies as indices into the graph's nodes (by handle in `index`); a
 * dependency outside the graph is left out. NULL with *n 0 when it has none. */
static size_t *dependencies(CUgraphNode node, const gp_hashmap *index, size_t *n)
{
    size_t count = 0;
    *n = 0;
    if (cuGraphNodeGetDependencies(node, NULL, NULL, &count) != CUDA_SUCCESS || count == 0)
        return NULL;
    CUgraphNode *deps = malloc(count * sizeof *deps);
    size_t *at = malloc(count * sizeof *at);
    if (deps && at && cuGraphNodeGetDependencies(node, deps, NULL, &count) == CUDA_SUCCESS)
        for (size_t d = 0; d < count; d++) {
            const size_t *i = gp_hashmap_find(index, &deps[d], sizeof deps[d]);
            if (i)
                at[(*n)++] = *i;
        }
    free(deps);
    if (*n == 0) {
        free(at);
        return NULL;
    }
    return at;
}

/* One node of a walk: its dependencies, whether it is done, and whether the nodes after it
 * run after a host node. */
typedef struct {
    CUgraphNode node;
    size_t *deps, n_deps;
    bool done, taints;
} walk_node;

/* Whether every dependency is done; `after_host` set when one of them taints. */
static bool ready(const walk_node *nodes, const walk_node *w, bool *after_host)
{
    for (size_t d = 0; d < w->n_deps; d++) {
        if (!nodes[w->deps[d]].done)
            return false;
        *after_host = *after_host || nodes[w->deps[d]].taints;
    }
    return true;
}

/* The graph's nodes read, with their dependencies; NULL (the reason set) when it cannot be. */
static walk_node *read_nodes(plan *pl, CUgraph g, int depth, size_t *n)
{
    *n = 0;
    if (depth > 16 || cuGraphGetNodes(g, NULL, n) != CUDA_SUCCESS) {
        set_reason(pl->reason, "a graph gpuprof could not read");
        return NULL;
    }
    CUgraphNode *handles = calloc(*n ? *n : 1, sizeof *handles);
    walk_node *nodes = calloc(*n ? *n : 1, sizeof *nodes);
    gp_hashmap index;
    gp_hashmap_init(&index, sizeof(size_t));
    const bool read = handles && nodes && cuGraphGetNodes(g, handles, n) == CUDA_SUCCESS;
    for (size_t i = 0; read && i < *n; i++) {
        size_t *at = gp_hashmap_add(&index, &handles[i], sizeof handles[i], NULL);
        if (at)
            *at = i;
        nodes[i].node = handles[i];
    }
    for (size_t i = 0; read && i < *n; i++)
        nodes[i].deps = dependencies(handles[i], &index, &nodes[i].n_deps);
    gp_hashmap_free(&index);
    free(handles);
    if (!read) {
        set_reason(pl->reason, "a graph gpuprof could not read");
        free(nodes);
        return NULL;
    }
    return nodes;
}

/* The graph's nodes in an order that respects every edge (Kahn's, by repeated sweeps), each
 * marked when a host node precedes it (after_host: one precedes the whole graph). True when
 * the graph holds a host node. */
static bool walk(plan *pl, CUgraph g, int depth, bool after_host)
{
    size_t n = 0;
    walk_node *nodes = read_nodes(pl, g, depth, &n);
    bool any_host = false;
    /* A node that cannot be shadow-launched gives the reason and the walk goes on: the
     * graph's kernel nodes are still counted by the launch filters. */
    for (size_t left = nodes ? n : 0, progress = 1; left && progress;) {
        progress = 0;
        for (size_t i = 0; i < n; i++) {
            bool after = after_host;
            if (nodes[i].done || !ready(nodes, &nodes[i], &after))
                continue;
            nodes[i].done = true;
            left--;
            progress++;
            nodes[i].taints = add_node(pl, nodes[i].node, depth, after);
            any_host = any_host || (nodes[i].taints && !after);
        }
        if (!progress && left)
            set_reason(pl->reason, "a dependency cycle");
    }
    for (size_t i = 0; nodes && i < n; i++)
        free(nodes[i].deps);
    free(nodes);
    return any_host || after_host;
}

/* The ids the executable graph gave the top-level nodes, by their clone's nodes. */
static void map_exec_ids(plan *pl, CUgraph source, CUgraph clone, uint32_t exec_id)
{
    size_t n = 0;
    if (!source || cuGraphGetNodes(source, NULL, &n) != CUDA_SUCCESS || n == 0)
        return;
    CUgraphNode *nodes = calloc(n, sizeof *nodes);
    if (nodes && cuGraphGetNodes(source, nodes, &n) == CUDA_SUCCESS)
        for (size_t i = 0; i < n; i++) {
            CUgraphNode c;
            const uint64_t id = exec_node_of(nodes[i], exec_id);
            uint64_t *slot;
            if (id && cuGraphNodeFindInClone(&c, nodes[i], clone) == CUDA_SUCCESS &&
                (slot = gp_hashmap_add(&pl->exec_ids, &c, sizeof c, NULL)))
                *slot = id;
        }
    free(nodes);
}

/* The entry's steps from its clone (source: the program's graph, when the ids it cloned
 * into the executable graph are known; NULL after an update). */
static void plan_entry(graph_entry *e, CUgraph source)
{
    free(e->steps);
    e->steps = NULL;
    e->n_steps = e->kernels = e->after_host = 0;
    plan pl = {.reason = e->reason};
    gp_hashmap_init(&pl.exec_ids, sizeof(uint64_t));
    map_exec_ids(&pl, source, e->clone, e->exec_id);
    walk(&pl, e->clone, 0, false);
    gp_hashmap_free(&pl.exec_ids);
    e->steps = pl.steps;
    e->n_steps = pl.n;
    e->kernels = pl.kernels;
    e->after_host = pl.after_host;
}

static void drop_clone(graph_entry *e)
{
    if (e->clone)
        GP_CHECKED(cuGraphDestroy(e->clone), "a graph's copy was not freed (host memory)");
    e->clone = NULL;
}

/* ---- the program's calls ----------------------------------------------------------------- */

/* Every cuGraphInstantiate* starts with these two. */
typedef struct {
    CUgraphExec *phGraphExec;
    CUgraph hGraph;
} instantiate_params;

static void on_instantiated(const instantiate_params *p)
{
    instantiating = false;
    CUgraphExec exec = p->phGraphExec ? *p->phGraphExec : NULL;
    if (!exec)
        return;
    graph_entry *e = gp_hashmap_add(&graphs, &exec, sizeof exec, NULL);
    if (!e)
        return; /* unknown at its launch: it falls back */
    drop_clone(e);
    free(e->steps);
    *e = (graph_entry){.live = true};
    GP_CHECKED(cuptiGetGraphExecId(exec, &e->exec_id),
               "an instantiated graph was recorded as graph 0: its launches may be mixed");
    if (cuGraphClone(&e->clone, p->hGraph) != CUDA_SUCCESS) {
        e->clone = NULL;
        set_reason(e->reason, "its graph could not be copied");
        return;
    }
    plan_entry(e, p->hGraph);
}

static graph_entry *entry_of(CUgraphExec exec)
{
    graph_entry *e = gp_hashmap_find(&graphs, &exec, sizeof exec);
    return e && e->live ? e : NULL;
}

/* The program changed the executable graph in a way the clone cannot follow. */
static void fall_back(graph_entry *e, const char *api)
{
    char text[128];
    snprintf(text, sizeof text, "changed in place by %s", api);
    set_reason(e->reason, text);
    drop_clone(e);
}

/* The clone's node for one of the program's nodes. */
static bool clone_node(graph_entry *e, CUgraphNode original, CUgraphNode *c)
{
    return e->clone && cuGraphNodeFindInClone(c, original, e->clone) == CUDA_SUCCESS;
}

/* The updates of one node that the clone follows by the same update of its twin: the call,
 * its parameter holding the node's new parameters, the setter of a graph's node, and the
 * runtime's name of the call for the reason when the clone cannot follow. The first version
 * of the kernel node's update takes its parameters in an older layout: the setter converts. */
#define NODE_UPDATES(X)                                                                    \
    X(cuGraphExecKernelNodeSetParams, nodeParams, set_kernel_params_v1,                    \
      "cudaGraphExecKernelNodeSetParams")                                                  \
    X(cuGraphExecKernelNodeSetParams_v2, nodeParams, cuGraphKernelNodeSetParams,           \
      "cudaGraphExecKernelNodeSetParams")                                                  \
    X(cuGraphExecMemsetNodeSetParams, memsetParams, cuGraphMemsetNodeSetParams,            \
      "cudaGraphExecMemsetNodeSetParams")                                                  \
    X(cuGraphExecMemcpyNodeSetParams, copyParams, cuGraphMemcpyNodeSetParams,              \
      "cudaGraphExecMemcpyNodeSetParams")

static CUresult set_kernel_params_v1(CUgraphNode c, const CUDA_KERNEL_NODE_PARAMS_v1 *v1)
{
    const CUDA_KERNEL_NODE_PARAMS v2 = {
        .func = v1->func, .gridDimX = v1->gridDimX, .gridDimY = v1->gridDimY,
        .gridDimZ = v1->gridDimZ, .blockDimX = v1->blockDimX, .blockDimY = v1->blockDimY,
        .blockDimZ = v1->blockDimZ, .sharedMemBytes = v1->sharedMemBytes,
        .kernelParams = v1->kernelParams, .extra = v1->extra};
    return cuGraphKernelNodeSetParams(c, &v2);
}

static void follow_update(graph_entry *e, CUgraph source)
{
    drop_clone(e);
    if (cuGraphClone(&e->clone, source) != CUDA_SUCCESS) {
        e->clone = NULL;
        set_reason(e->reason, "its updated graph could not be copied");
        return;
    }
    plan_entry(e, NULL); /* which node became which is not said: the reader matches them */
}

/* An update of an executable graph that succeeded, by its callback id. */
static void on_updated(CUpti_CallbackId cbid, const void *params)
{
    CUgraphExec exec = *(CUgraphExec const *)params; /* every update's first parameter */
    graph_entry *e = entry_of(exec);
    if (!e || !e->clone)
        return;
#define FOLLOW_NODE(call, field, set, api)                                                 \
    case CUPTI_DRIVER_TRACE_CBID_##call: {                                                 \
        const call##_params *p = params;                                                   \
        CUgraphNode c;                                                                     \
        if (!clone_node(e, p->hNode, &c) || set(c, p->field) != CUDA_SUCCESS)              \
            fall_back(e, api);                                                             \
        break;                                                                             \
    }
    switch (cbid) {
        NODE_UPDATES(FOLLOW_NODE)
#undef FOLLOW_NODE
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
        follow_update(e, ((const cuGraphExecUpdate_params *)params)->hGraph);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2:
        follow_update(e, ((const cuGraphExecUpdate_v2_params *)params)->hGraph);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled:
        fall_back(e, "cudaGraphNodeSetEnabled");
        break;
    default: fall_back(e, "an in-place update of the executable graph"); break;
    }
}

static void on_destroy(const cuGraphExecDestroy_params *p)
{
    graph_entry *e = entry_of(p->hGraphExec);
    if (!e)
        return;
    drop_clone(e);
    free(e->steps);
    e->steps = NULL;
    e->live = false;
}

const CUpti_CallbackId gp_graph_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate,
    CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags,
    CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
#define CALLBACK_OF(call, field, set, api) CUPTI_DRIVER_TRACE_CBID_##call,
    NODE_UPDATES(CALLBACK_OF)
#undef CALLBACK_OF
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
    CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresSignalNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecExternalSemaphoresWaitNodeSetParams,
    CUPTI_DRIVER_TRACE_CBID_cuGraphExecBatchMemOpNodeSetParams,
};
const size_t gp_n_graph_callbacks = sizeof gp_graph_callbacks / sizeof gp_graph_callbacks[0];

static bool is_instantiate(CUpti_CallbackId cbid)
{
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2 ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz;
}

void gp_graphs_on_callback(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    const CUresult *ret = d->functionReturnValue;
    const bool enter = d->callbackSite == CUPTI_API_ENTER;
    if (is_instantiate(cbid) && enter) {
        instantiating = true;
        n_pairs = 0;
        return;
    }
    gp_graphs_lock();
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy) {
        if (enter)
            on_destroy(d->functionParams);
    } else if (is_instantiate(cbid)) {
        if (ret && *ret == CUDA_SUCCESS)
            on_instantiated(d->functionParams);
        instantiating = false;
    } else if (!enter && ret && *ret == CUDA_SUCCESS) {
        on_updated(cbid, d->functionParams);
    }
    gp_graphs_unlock();
}

/* ---- the launch's view ------------------------------------------------------------------- */

bool gp_graphs_find(CUgraphExec exec, gp_graph_view *view)
{
    graph_entry *e = entry_of(exec);
    if (!e)
        return false;
    *view = (gp_graph_view){.exec_id = e->exec_id, .kernels = e->kernels,
                            .after_host = e->after_host,
                            .reason = e->reason[0] || !e->clone ? e->reason : NULL,
                            .steps = e->steps, .n_steps = e->n_steps, .said = e->said,
                            .profiled = e->profiled};
    if (!e->clone && !e->reason[0])
        view->reason = "its graph could not be copied";
    return true;
}

void gp_graphs_mark_said(CUgraphExec exec)
{
    graph_entry *e = entry_of(exec);
    if (e)
        e->said = true;
}

void gp_graphs_count_profiled(CUgraphExec exec)
{
    graph_entry *e = entry_of(exec);
    if (e)
        e->profiled++;
}
