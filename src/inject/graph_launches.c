/* The graph launches of graph_launches.h: choosing the kernel nodes to profile, the shadow
 * launches with the context's memory saved and restored around them, and the sampling window
 * of the program's own run. */
#include "inject/graph_launches.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/collectives.h"
#include "gpuprof/protocol.h"
#include "gpuprof/rotation.h"
#include "inject/checkpoint.h"
#include "inject/codes.h"
#include "inject/contexts.h"
#include "inject/filters.h"
#include "inject/graphs.h"
#include "inject/profiled.h"
#include "inject/record.h"
#include "inject/sampling.h"
#include "inject/sessions.h"
#include "inject/source_pass.h"
#include "inject/streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Guard: none, written by gp_graph_launches_start before any callback. */
static struct {
    gp_graph_profiling mode;
    bool profiling;            /* metrics were asked for */
    uint64_t samples;          /* --graph-samples (UINT64_MAX: all) */
} graph;

/* Launches sampled or ranged of the graphs gpuprof did not see instantiated (they share one
 * count). Guard: the launch lock. */
static uint64_t unknown_profiled;

/* This thread's graph launch, between its entry and exit. Guard: none, thread-local (and
 * the launch lock is held meanwhile). */
static _Thread_local bool shadowing;
static _Thread_local bool sampling;
static _Thread_local uint32_t sampling_device;
static _Thread_local gp_sessions *ranging;   /* graph mode: the sessions of the open range */
static _Thread_local int ranging_set;

void gp_graph_launches_start(gp_graph_profiling mode, uint64_t samples, bool profiling)
{
    graph.mode = mode;
    graph.samples = samples;
    graph.profiling = profiling;
}

bool gp_graph_launches_shadowing(void)
{
    return shadowing;
}

/* ---- records ------------------------------------------------------------------------------- */

/* The ids of the kernel nodes after a host node, as a JSON array (those known). */
static void write_after_host(gp_record *r, const gp_graph_view *v)
{
    size_t len = 0, cap = 2 + 21 * v->after_host;
    char *json = malloc(cap + 1);
    if (!json)
        return;
    json[len++] = '[';
    for (size_t i = 0; i < v->n_steps; i++) {
        const gp_graph_step *s = &v->steps[i];
        if (s->kind == GP_STEP_KERNEL && s->after_host && s->exec_node)
            len += (size_t)snprintf(json + len, cap + 1 - len, "%s%llu", len > 1 ? "," : "",
                                    (unsigned long long)s->exec_node);
    }
    json[len++] = ']';
    json[len] = '\0';
    gp_record_raw(r, "after_host_nodes", json);
    free(json);
}

static void write_graph(const gp_graph_view *v, uint32_t context)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_GRAPH);
    gp_record_uint(&r, "context", context);
    gp_record_uint(&r, "graph", v->exec_id);
    gp_record_uint(&r, "kernels", v->kernels);
    gp_record_int(&r, "shadow", v->reason == NULL);
    if (v->reason)
        gp_record_string(&r, "reason", v->reason);
    else if (v->after_host) {
        gp_record_uint(&r, "after_host", v->after_host);
        write_after_host(&r, v);
    }
    gp_record_end(&r);
}

/* Once per graph: how its kernel nodes are profiled. */
static void say_graph(CUgraphExec exec, const gp_graph_view *v, uint32_t context)
{
    if (v->said)
        return;
    gp_graphs_mark_said(exec);
    write_graph(v, context);
    if (v->reason) {
        char text[256];
        snprintf(text, sizeof text, "CUDA graph %u has %s: its kernel nodes are sampled and "
                 "timed, not shadow-launched", v->exec_id, v->reason);
        gp_record_warning(text, "instruction-level counters of its kernels need them launched "
                          "outside a graph, or a graph of kernel, memcpy and memset nodes");
    }
}

/* A warning about every graph launch alike, given at the first: `said` is its own flag. */
static void warn_once(bool *said, const char *text)
{
    if (*said)
        return;
    *said = true;
    gp_record_warning(text, NULL);
}

static void say_unknown_graph(void)
{
    static bool said; /* Guard: the launch lock */
    warn_once(&said, "a CUDA graph instantiated before gpuprof was loaded is sampled and timed, "
                     "not shadow-launched");
}

/* ---- the kernel nodes ---------------------------------------------------------------------- */

typedef struct {
    CUDA_KERNEL_NODE_PARAMS params;
    CUfunction f;
    gp_launch_info info;
} kernel_node;

/* A kernel step's parameters, function and launch description (as a shadow launch of the
 * graph launch `launch_id`). */
static bool read_kernel(const gp_graph_step *step, uint32_t exec_id, uint32_t launch_id,
                        kernel_node *k)
{
    memset(k, 0, sizeof *k);
    if (cuGraphKernelNodeGetParams(step->node, &k->params) != CUDA_SUCCESS)
        return false;
    k->f = k->params.func;
    if (!k->f && (!k->params.kern || cuKernelGetFunction(&k->f, k->params.kern) != CUDA_SUCCESS))
        return false;
    const char *name = NULL;
    if (cuFuncGetName(&name, k->f) != CUDA_SUCCESS || !name)
        return false;
    const CUDA_KERNEL_NODE_PARAMS *p = &k->params;
    k->info = (gp_launch_info){.id = launch_id, .kernel = (char *)name,
                               .code = gp_codes_of(k->f),
                               .grid = {p->gridDimX, p->gridDimY, p->gridDimZ},
                               .block = {p->blockDimX, p->blockDimY, p->blockDimZ},
                               .smem = p->sharedMemBytes, .shadow = true, .graph = exec_id,
                               .node = step->exec_node,
                               .collective = gp_kernel_is_collective(name)};
    gp_codes_note_node(step->exec_node, k->info.code); /* for its activity records */
    return true;
}

/* What the filters chose of a graph launch's kernel nodes (each counts as a launch). */
typedef struct {
    bool any;                  /* some node is profiled: the launch is sampled */
    bool shadow;               /* some node still lacks a group of counters, or its lines:
                                  shadow launches */
} node_choice;

/* A kernel step's part in the shadow launches: profiled in `profile`'s sessions, or run
 * patched for its lines (--source) in `patch`'s; neither: run plainly. */
typedef struct {
    gp_sessions *profile, *patch;
} node_plan;

/* The filters' choice for each kernel step, in dependency order: its sessions when the node
 * is to be shadow-launched with counters, else NULL (always for a node after a host node:
 * only the program's own run may run the host code before it). A chosen node whose
 * signature already has every group the replay mode collects is not shadowed again: its
 * later launches get their DRAM traffic from sampling, and the graph launch costs no
 * checkpoint. Once the graph had its --graph-samples sampled launches (`sampled_enough`),
 * a node is profiled only when it still lacks a group, by a shadow launch, and the launch
 * is not sampled: its nodes are only timed. */
static node_choice choose_nodes(const gp_graph_view *v, CUcontext ctx, uint32_t launch_id,
                                bool sampled_enough, node_plan *plan)
{
    node_choice c = {false, false};
    gp_sessions *lines = gp_contexts_sessions(ctx); /* whose kernels --source patches */
    for (size_t i = 0; i < v->n_steps; i++) {
        kernel_node k;
        plan[i] = (node_plan){NULL, NULL};
        if (v->steps[i].kind != GP_STEP_KERNEL ||
            !read_kernel(&v->steps[i], v->exec_id, launch_id, &k))
            continue;
        const bool unshadowed = v->steps[i].after_host || k.info.collective;
        const gp_take take = !sampled_enough ? GP_TAKE_CHOSEN
                             : unshadowed    ? GP_TAKE_NONE
                                             : GP_TAKE_LACKING;
        gp_sessions *s = gp_contexts_profile(ctx, &k.info, take);
        c.any |= s != NULL && !sampled_enough;
        if (s && !unshadowed && gp_sessions_lacks(s, &k.info)) {
            plan[i].profile = s;
            c.shadow = true;
        } else if (!unshadowed && gp_source_pass_wanted() && gp_filters_matches(k.info.kernel) &&
                   gp_source_pass_wants(lines, &k.info)) {
            plan[i].patch = lines; /* its counters complete, its lines due */
            c.shadow = true;
        }
    }
    return c;
}

/* ---- shadow launches ----------------------------------------------------------------------- */

/* The node's kernel with its launch attributes (clusters, cooperative launch). */
static CUresult launch_kernel(const gp_graph_step *step, const kernel_node *k, CUstream s)
{
    const CUDA_KERNEL_NODE_PARAMS *p = &k->params;
    CUlaunchAttribute attrs[2];
    unsigned n = 0;
    CUlaunchAttributeValue v;
    if (cuGraphKernelNodeGetAttribute(step->node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) ==
            CUDA_SUCCESS && v.clusterDim.x * v.clusterDim.y * v.clusterDim.z > 1)
        attrs[n++] = (CUlaunchAttribute){.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, .value = v};
    if (cuGraphKernelNodeGetAttribute(step->node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) ==
            CUDA_SUCCESS && v.cooperative)
        attrs[n++] = (CUlaunchAttribute){.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE, .value = v};
    const CUlaunchConfig c = {
        .gridDimX = p->gridDimX, .gridDimY = p->gridDimY, .gridDimZ = p->gridDimZ,
        .blockDimX = p->blockDimX, .blockDimY = p->blockDimY, .blockDimZ = p->blockDimZ,
        .sharedMemBytes = p->sharedMemBytes, .hStream = s, .attrs = attrs, .numAttrs = n};
    return cuLaunchKernelEx(&c, k->f, p->kernelParams, p->extra); /* what the kernel did
                                                                      is checked at the
                                                                      steps' synchronisation */
}

static CUresult run_memset(CUgraphNode node, CUstream s)
{
    CUDA_MEMSET_NODE_PARAMS m;
    CUresult r = cuGraphMemsetNodeGetParams(node, &m);
    if (r != CUDA_SUCCESS)
        return r;
    const size_t pitch = m.height > 1 ? m.pitch : m.width * m.elementSize;
    switch (m.elementSize) {
    case 1: return cuMemsetD2D8Async(m.dst, pitch, (unsigned char)m.value, m.width, m.height, s);
    case 2: return cuMemsetD2D16Async(m.dst, pitch, (unsigned short)m.value, m.width, m.height, s);
    default: return cuMemsetD2D32Async(m.dst, pitch, m.value, m.width, m.height, s);
    }
}

/* Whether a copy writes host memory (a unified address is asked where it lies). */
static bool into_host(const CUDA_MEMCPY3D *m)
{
    if (m->dstMemoryType == CU_MEMORYTYPE_HOST)
        return true;
    if (m->dstMemoryType != CU_MEMORYTYPE_UNIFIED)
        return false;
    unsigned type = 0;
    return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, m->dstDevice) ==
               CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST;
}

/* A copy into host memory is left to the program's own run: no kernel of the shadow reads
 * it, and the checkpoint restores device memory only. */
static CUresult run_memcpy(CUgraphNode node, CUstream s)
{
    CUDA_MEMCPY3D m;
    CUresult r = cuGraphMemcpyNodeGetParams(node, &m);
    if (r != CUDA_SUCCESS || into_host(&m))
        return r;
    return cuMemcpy3DAsync(&m, s);
}

/* One kernel step: profiled in its sessions when chosen, patched when its lines are due,
 * else run outside any pass. */
static CUresult shadow_kernel(const gp_graph_view *v, size_t i, node_plan plan, CUcontext ctx,
                              CUstream stream, uint32_t launch_id)
{
    kernel_node k;
    if (!read_kernel(&v->steps[i], v->exec_id, launch_id, &k))
        return CUDA_ERROR_INVALID_VALUE;
    if (k.info.collective)
        return CUDA_SUCCESS; /* alone, it would wait for its peers: the program's run has it */
    if (plan.patch && gp_source_pass_begin(ctx, plan.patch, &k.info)) {
        const CUresult r = launch_kernel(&v->steps[i], &k, stream);
        gp_source_pass_end(ctx, &k.info, r == CUDA_SUCCESS);
        return r;
    }
    gp_sessions *s = plan.profile;
    const bool started = s && gp_sessions_start(s, &k.info);
    if (!started)
        gp_contexts_end_pass(ctx);
    const CUresult r = launch_kernel(&v->steps[i], &k, stream);
    if (started)
        gp_sessions_launched(s, &k.info, r == CUDA_SUCCESS);
    return r;
}

static CUresult shadow_steps(const gp_graph_view *v, const node_plan *plan, CUcontext ctx,
                             CUstream stream, uint32_t launch_id)
{
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < v->n_steps && r == CUDA_SUCCESS; i++) {
        const gp_graph_step *step = &v->steps[i];
        if (step->after_host)
            continue; /* nothing before the host node depends on it */
        r = step->kind == GP_STEP_KERNEL ? shadow_kernel(v, i, plan[i], ctx, stream, launch_id)
            : step->kind == GP_STEP_MEMSET ? run_memset(step->node, stream)
                                           : run_memcpy(step->node, stream);
    }
    gp_contexts_end_pass(ctx);
    const CUresult sync = cuStreamSynchronize(stream);
    return r != CUDA_SUCCESS ? r : sync;
}

/* What stopped a graph launch's shadow launches (error: CUDA's or CUPTI's name for it). */
static void warn_not_shadowed(const char *what, const char *error, const char *hint)
{
    char text[256];
    snprintf(text, sizeof text, "%s failed (%s): a graph launch's kernel nodes were not "
             "shadow-launched", what, error ? error : "unknown error");
    gp_record_warning(text, hint);
}

static void warn_cuda(const char *what, CUresult r)
{
    const char *name = NULL;
    cuGetErrorName(r, &name);
    warn_not_shadowed(what, name, NULL);
}

static void warn_cupti(const char *what, CUptiResult r)
{
    const char *name = NULL;
    cuptiGetResultString(r, &name);
    warn_not_shadowed(what, name, "device memory may be too full to save a copy of it");
}

/* The shadow launches of one graph launch, the context's device memory saved before and
 * restored after (the program's own launch then runs on the memory it left). The context
 * is current and every earlier piece of work on it finished. */
static void shadow_launch(const gp_graph_view *v, const node_plan *plan, CUcontext ctx,
                          uint32_t launch_id)
{
    const char *why = NULL;
    CUstream stream = gp_streams_private(ctx, &why);
    if (!stream) {
        warn_not_shadowed("creating a stream for shadow launches", why, NULL);
        return;
    }
    CUpti_Checkpoint cp = {.structSize = CUpti_Checkpoint_STRUCT_SIZE, .ctx = ctx};
    const CUptiResult saved = cuptiCheckpointSave(&cp);
    if (saved != CUPTI_SUCCESS) {
        warn_cupti("saving device memory (cuptiCheckpointSave)", saved);
        return;
    }
    shadowing = true;
    const CUresult r = shadow_steps(v, plan, ctx, stream, launch_id);
    shadowing = false;
    if (r != CUDA_SUCCESS)
        warn_cuda("a shadow launch", r);
    const CUptiResult restored = cuptiCheckpointRestore(&cp);
    if (restored != CUPTI_SUCCESS)
        gp_record_warning("restoring device memory after shadow launches failed: the program's "
                          "results may be wrong", "run with --graph-profiling=time");
    GP_CHECKED(cuptiCheckpointFree(&cp),
               "a checkpoint's copy of device memory was not freed");
}

/* ---- the program's graph launch ------------------------------------------------------------ */

/* Everything earlier on the current context (the graph launch's) finished, without breaking
 * another thread's capture. */
static bool context_idle(void)
{
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode),
               "a capture on this thread may have been spoiled by the synchronisation");
    const bool idle = cuCtxSynchronize() == CUDA_SUCCESS;
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode), "the thread's stream capture mode may have been left changed");
    return idle;
}

/* The kernels CUPTI runs on the device inside this graph launch's call ('WaitNs' on the H100,
 * with PM sampling and checkpoints) share its correlation id and no graph node: activity_records.c
 * leaves such kernels out (profiled.h). */
static void hide_our_work(uint32_t launch_id)
{
    gp_profiled_add_graph_launch(launch_id);
}

static void begin_sampling(uint32_t uid, uint32_t device, uint32_t launch_id)
{
    hide_our_work(launch_id);
    gp_contexts_suspend_range_profilers(device);
    if (context_idle() && gp_sampling_begin(device, uid, launch_id)) {
        sampling = true;
        sampling_device = device;
    }
}

/* Profile the graph's kernel nodes (node mode): shadow launches when it allows them, and the
 * program's run sampled. */
static void profile_nodes(const CUpti_CallbackData *d, CUgraphExec exec)
{
    uint32_t uid = 0, device = 0;
    GP_CHECKED(cuptiGetContextId(d->context, &uid),
               "a graph launch's nodes were recorded as context 0's");
    GP_CHECKED(cuptiGetDeviceId(d->context, &device),
               "a graph launch's nodes were sampled as device 0's");
    gp_graphs_lock();
    gp_graph_view v;
    if (!gp_graphs_find(exec, &v)) {
        gp_graphs_unlock();
        say_unknown_graph();
        if (unknown_profiled < graph.samples) {
            unknown_profiled++;
            begin_sampling(uid, device, d->correlationId);
        }
        return;
    }
    say_graph(exec, &v, uid);
    node_plan *plan = calloc(v.n_steps ? v.n_steps : 1, sizeof *plan);
    const bool sampled_enough = v.profiled >= graph.samples;
    const node_choice c =
        plan ? choose_nodes(&v, d->context, d->correlationId, sampled_enough, plan)
             : (node_choice){false, false};
    if (c.shadow && !v.reason && context_idle()) {
        hide_our_work(d->correlationId);
        shadow_launch(&v, plan, d->context, d->correlationId);
    }
    free(plan);
    if (c.any)
        gp_graphs_count_profiled(exec);
    gp_graphs_unlock();
    if (c.any)
        begin_sampling(uid, device, d->correlationId);
}

static void say_graphs_are_timed(void)
{
    static bool said; /* Guard: the launch lock */
    warn_once(&said, "kernels launched from CUDA graphs are timed, not profiled "
                     "(--graph-profiling=time)");
}

/* Graph mode: a range around the whole launch, when the filters take one of its kernel nodes
 * (each counts as a launch), or when gpuprof did not see the graph instantiated; only the
 * graph's first --graph-samples launches. */
static void range_whole_graph(const CUpti_CallbackData *d, CUgraphExec exec)
{
    gp_graphs_lock();
    gp_graph_view v;
    const bool unknown = !gp_graphs_find(exec, &v);
    const gp_take take =
        (unknown ? unknown_profiled : v.profiled) < graph.samples ? GP_TAKE_CHOSEN : GP_TAKE_NONE;
    gp_sessions *s = NULL;
    for (size_t i = 0; !unknown && i < v.n_steps; i++) {
        kernel_node k;
        gp_sessions *chosen = NULL;
        if (v.steps[i].kind == GP_STEP_KERNEL &&
            read_kernel(&v.steps[i], v.exec_id, d->correlationId, &k))
            chosen = gp_contexts_profile(d->context, &k.info, take); /* each node counts */
        s = s ? s : chosen;
    }
    if (unknown) { /* instantiated before gpuprof was loaded: one launch for the filters */
        kernel_node none = {.info = {.kernel = ""}};
        s = gp_contexts_profile(d->context, &none.info, take);
        unknown_profiled += s != NULL;
    } else if (s) {
        gp_graphs_count_profiled(exec);
    }
    gp_graphs_unlock();
    if (!s)
        return;
    hide_our_work(d->correlationId);
    const int set = gp_sessions_graph_begin(s);
    if (set != GP_SET_NONE) {
        ranging = s;
        ranging_set = set;
    }
}

static void end_whole_graph(const CUpti_CallbackData *d, bool finished)
{
    const cuGraphLaunch_params *p = d->functionParams;
    uint32_t exec_id = 0, stream = 0;
    GP_CHECKED(cuptiGetGraphExecId(p->hGraph, &exec_id),
               "a graph launch was recorded as graph 0's");
    GP_CHECKED(cuptiGetStreamIdEx(d->context, p->hStream, 0, &stream),
               "a graph launch was recorded on stream 0");
    const gp_launch_info l = {.id = d->correlationId, .stream = stream, .kernel = "",
                              .whole_graph = true, .graph = exec_id};
    gp_sessions_graph_end(ranging, &l, ranging_set, finished);
    ranging = NULL;
}

void gp_graph_launch_enter(const CUpti_CallbackData *d)
{
    const cuGraphLaunch_params *p = d->functionParams;
    sampling = false;
    ranging = NULL;
    gp_contexts_end_pass(d->context);
    if (!graph.profiling)
        return;
    if (graph.mode == GP_GRAPH_TIME) {
        say_graphs_are_timed();
        return;
    }
    if (graph.mode == GP_GRAPH_NODE)
        profile_nodes(d, p->hGraph);
    else
        range_whole_graph(d, p->hGraph);
}

void gp_graph_launch_exit(const CUpti_CallbackData *d)
{
    if (!sampling && !ranging)
        return;
    const cuGraphLaunch_params *p = d->functionParams;
    const CUresult *ret = d->functionReturnValue;
    const bool ran = ret && *ret == CUDA_SUCCESS;
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode),
               "a capture on this thread may have been spoiled by the synchronisation");
    const bool finished = ran && cuStreamSynchronize(p->hStream) == CUDA_SUCCESS;
    GP_CHECKED(cuThreadExchangeStreamCaptureMode(&mode), "the thread's stream capture mode may have been left changed");
    if (sampling)
        gp_sampling_end(sampling_device, finished);
    if (ranging)
        end_whole_graph(d, finished);
    sampling = false;
}
