/* The CUDA graphs' records of records/read_graphs.h: each node's `K` line gets its share of
 * the sampled DRAM traffic as its context's DRAM counters, where its shadow launch did not
 * collect them, and its metrics derived again. */
#include "records/read_graphs.h"

#include "gpuprof/order.h"
#include "gpuprof/record_format.h"
#include "gpuprof/status.h"
#include "records/dram_shares.h"
#include "records/launch_table.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRAM_READ "dram__bytes_read.sum"
#define DRAM_WRITE "dram__bytes_write.sum"
#define TWO_TO_53 9007199254740992.0   /* doubles are whole nanoseconds below this */
#define TWO_TO_64 18446744073709551616.0

/* A graph whose kernel nodes were not shadow-launched, and why. */
typedef struct unshadowed_graph {
    int pid;
    uint64_t graph;
    char *reason;
} unshadowed_graph;

/* A kernel node that runs after a host node of its graph: sampled, never shadow-launched. */
typedef struct after_host_node {
    int pid;
    uint64_t graph, node;
} after_host_node;

/* A `sampled` record, and where its samples lie once sorted. */
typedef struct sampled_launch {
    int pid, device;
    uint64_t id;
    gp_dram_sampling sampling;
    size_t order;                /* its place among the sampled records read */
} sampled_launch;

/* A `P` line. */
typedef struct sample_line {
    int pid, device;
    uint64_t id;
    gp_dram_sample sample;
} sample_line;

/* A `K` line's time, kept once a graph launch was sampled. */
typedef struct kernel_time {
    int pid, device;
    uint64_t id, node, start_ns, end_ns;
    bool overlapped;
} kernel_time;

void gp_records_free_graphs(reader *rd)
{
    graph_records *g = &rd->graphs;
    for (size_t i = 0; i < g->n_graphs; i++)
        free(g->graphs[i].reason);
    free(g->graphs);
    free(g->after_host);
    free(g->sampled);
    free(g->samples);
    free(g->ordered);
    free(g->kernels);
    *g = (graph_records){0};
}

/* ---- launch records' graph fields ------------------------------------------------------------ */

static const char *const how_names[] = {[GP_HOW_SHADOW - 1] = "shadow",
                                        [GP_HOW_GRAPH - 1] = "graph"};

int gp_records_how_of(gp_json_reader *j, const cJSON *o, gp_launch_how *how, uint64_t *graph,
                      uint64_t *node)
{
    *how = GP_HOW_DIRECT;
    *graph = *node = 0;
    if (!gp_json_field(o, "how"))
        return GP_OK;
    int named;
    GP_TRY(gp_json_get_enum(j, o, "how", how_names, sizeof how_names / sizeof how_names[0],
                            false, &named));
    *how = (gp_launch_how)(named + 1);
    GP_TRY(gp_json_get_integer(j, o, "graph", 0, UINT64_MAX, graph));
    GP_TRY(gp_json_get_integer(j, o, "node", 0, UINT64_MAX, node));
    /* A shadow launch's node may be 0: the library did not learn its id (a child graph's
     * kernel, or a graph updated by cudaGraphExecUpdate); gp_records_adopt_shadow pairs it. */
    return *how == GP_HOW_SHADOW
               ? GP_OK
               : gp_json_expect(j, "node", *node == 0, "0 for a whole graph launch");
}

/* ---- graph records ------------------------------------------------------------------------- */

/* Where the graph's after-host node ids go as they are read. */
typedef struct {
    graph_records *g;
    int pid;
    uint64_t graph;
} after_host_sink;

static int read_after_host_node(gp_json_reader *j, const cJSON *v, void *ctx)
{
    after_host_sink *sink = ctx;
    uint64_t node;
    GP_TRY(gp_json_whole_number(j, v, 1, UINT64_MAX, &node));
    graph_records *g = sink->g;
    after_host_node *a = gp_append_zeroed(&g->after_host, &g->n_after_host,
                                          &g->after_host_capacity, sizeof *a);
    if (!a)
        return gp_records_out_of_memory();
    *a = (after_host_node){sink->pid, sink->graph, node};
    return GP_OK;
}

/* A shadow-launched graph's nodes after a host node (none when it has no such field). */
static int read_after_host(reader *rd, const cJSON *o, int pid, uint64_t graph)
{
    if (!gp_json_field(o, "after_host_nodes"))
        return GP_OK;
    after_host_sink sink = {&rd->graphs, pid, graph};
    for (size_t i = 0; i < sink.g->n_after_host; i++)
        if (sink.g->after_host[i].pid == pid && sink.g->after_host[i].graph == graph)
            return GP_OK; /* the first record of a graph holds */
    return gp_json_read_each(&rd->json, o, "after_host_nodes", read_after_host_node, &sink);
}

int gp_records_read_graph(reader *rd, const cJSON *o)
{
    gp_json_reader *j = &rd->json;
    int pid;
    unsigned context;
    uint64_t graph, kernels, shadow;
    const char *reason = NULL;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_uint(j, o, "context", 0, &context) != GP_OK ||
        gp_json_get_integer(j, o, "graph", 0, UINT64_MAX, &graph) != GP_OK ||
        gp_json_get_integer(j, o, "kernels", 0, UINT64_MAX, &kernels) != GP_OK ||
        gp_json_get_integer(j, o, "shadow", 0, 1, &shadow) != GP_OK ||
        ((!shadow || gp_json_field(o, "reason")) &&
         gp_json_get_text(j, o, "reason", &reason) != GP_OK))
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    if (shadow) /* its nodes' shadow launches say the rest */
        return read_after_host(rd, o, pid, graph) == GP_OK
                   ? GP_OK
                   : gp_records_ignore(rd, GP_RECORD_IGNORED);
    graph_records *g = &rd->graphs;
    for (size_t i = 0; i < g->n_graphs; i++)
        if (g->graphs[i].pid == pid && g->graphs[i].graph == graph)
            return GP_OK; /* the first record of a graph holds */
    unshadowed_graph *u =
        gp_append_zeroed(&g->graphs, &g->n_graphs, &g->graphs_capacity, sizeof *u);
    if (!u)
        return gp_records_out_of_memory();
    *u = (unshadowed_graph){pid, graph, strdup(reason)};
    return u->reason ? GP_OK : gp_records_out_of_memory();
}

/* ---- sampled records and P lines ------------------------------------------------------------- */

/* A time of the sampling window: a JSON number, exact only below 2^53 ns (CUPTI's are about
 * 2^60), so the window is widened by what rounding may have moved it (`slack`). */
static int window_time(gp_json_reader *j, const cJSON *o, const char *key, uint64_t *ns,
                       uint64_t *slack)
{
    double d;
    GP_TRY(gp_json_get_number(j, o, key, 0, false, &d));
    GP_TRY(gp_json_expect(j, key, d < TWO_TO_64, "nanoseconds below 2^64"));
    *ns = (uint64_t)d;
    const uint64_t ulp = d < TWO_TO_53 ? 0 : (uint64_t)(nextafter(d, INFINITY) - d);
    *slack = ulp > *slack ? ulp : *slack;
    return GP_OK;
}

static int sampled_of(gp_json_reader *j, const cJSON *o, sampled_launch *s)
{
    unsigned context;
    uint64_t complete, slack = 0;
    gp_dram_sampling *w = &s->sampling;
    GP_TRY(gp_json_get_int(j, o, "pid", 0, &s->pid));
    GP_TRY(gp_json_get_integer(j, o, "id", 0, UINT64_MAX, &s->id));
    GP_TRY(gp_json_get_uint(j, o, "context", 0, &context));
    GP_TRY(gp_json_get_int(j, o, "device", 0, &s->device));
    GP_TRY(gp_json_get_integer(j, o, "interval_ns", 1, UINT64_MAX, &w->interval_ns));
    GP_TRY(window_time(j, o, "start_ns", &w->start_ns, &slack));
    GP_TRY(window_time(j, o, "end_ns", &w->end_ns, &slack));
    GP_TRY(gp_json_expect(j, "end_ns", w->end_ns >= w->start_ns, "the window's end, not "
                          "before its start"));
    GP_TRY(gp_json_get_integer(j, o, "complete", 0, 1, &complete));
    w->complete = complete;
    w->start_ns = w->start_ns > slack ? w->start_ns - slack : 0;
    w->end_ns = w->end_ns < UINT64_MAX - slack ? w->end_ns + slack : UINT64_MAX;
    return GP_OK;
}

int gp_records_read_sampled(reader *rd, const cJSON *o)
{
    sampled_launch s = {0};
    if (sampled_of(&rd->json, o, &s) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    graph_records *g = &rd->graphs;
    sampled_launch *kept =
        gp_append_zeroed(&g->sampled, &g->n_sampled, &g->sampled_capacity, sizeof *kept);
    if (!kept)
        return gp_records_out_of_memory();
    s.order = g->n_sampled - 1;
    *kept = s;
    return GP_OK;
}

const char *gp_records_sample_out_of_range(const uint64_t *p)
{
    if (p[GP_P_PID] > INT_MAX)
        return "pid";
    if (p[GP_P_DEVICE] > INT_MAX)
        return "device";
    return p[GP_P_END] < p[GP_P_START] ? "end" : NULL;
}

int gp_records_read_sample(reader *rd, const uint64_t *p)
{
    graph_records *g = &rd->graphs;
    sample_line *s = gp_append_zeroed(&g->samples, &g->n_samples, &g->samples_capacity, sizeof *s);
    if (!s)
        return gp_records_out_of_memory();
    *s = (sample_line){(int)p[GP_P_PID], (int)p[GP_P_DEVICE], p[GP_P_ID],
                       {p[GP_P_START], p[GP_P_END], (double)p[GP_P_READ],
                        (double)p[GP_P_WRITE]}};
    return GP_OK;
}

int gp_records_kernel_time(reader *rd, const uint64_t *k)
{
    graph_records *g = &rd->graphs;
    if (g->n_sampled == 0)
        return GP_OK; /* no graph launch was sampled: no overlap to look for */
    kernel_time *t =
        gp_append_zeroed(&g->kernels, &g->n_kernels, &g->kernels_capacity, sizeof *t);
    if (!t)
        return gp_records_out_of_memory();
    *t = (kernel_time){(int)k[GP_K_PID], (int)k[GP_K_DEVICE], k[GP_K_ID], k[GP_K_NODE],
                       k[GP_K_START], k[GP_K_END], false};
    return GP_OK;
}

/* ---- notes ---------------------------------------------------------------------------------- */

/* The launch's note, with `text` after what it said ("; " between). */
static bool after_host(const graph_records *g, const gp_exec_launch *l)
{
    for (size_t k = 0; k < g->n_after_host; k++)
        if (g->after_host[k].pid == l->pid && g->after_host[k].graph == l->graph &&
            g->after_host[k].node == l->graph_node)
            return true;
    return false;
}

/* Each node of a graph not shadow-launched: "not shadow-launched: <reason>", and each node
 * after a host node of a graph that is. */
static int note_unshadowed(const graph_records *g, gp_exec_info *e)
{
    for (size_t i = 0; (g->n_graphs || g->n_after_host) && i < e->n_launches; i++) {
        gp_exec_launch *l = &e->launches[i];
        if (l->graph_node && after_host(g, l))
            GP_TRY(gp_records_add_note(l, "not shadow-launched: it runs after a host node of its graph"));
        for (size_t k = 0; l->graph_node && k < g->n_graphs; k++) {
            if (g->graphs[k].pid != l->pid || g->graphs[k].graph != l->graph)
                continue;
            char note[GP_TEXT_LEN];
            snprintf(note, sizeof note, "not shadow-launched: %s", g->graphs[k].reason);
            GP_TRY(gp_records_add_note(l, note));
            break;
        }
    }
    return GP_OK;
}

/* ---- the samples shared among the nodes -------------------------------------------------- */

static int by_launch_and_time(const void *a, const void *b)
{
    const sample_line *x = a, *y = b;
    const int by_launch = gp_records_launch_order(x->pid, x->id, y->pid, y->id);
    if (by_launch)
        return by_launch;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    return gp_order_u64(x->sample.start_ns, y->sample.start_ns);
}

/* The samples in time order, each sampled launch pointing at its own (those of its pid, id
 * and device). */
static int order_samples(graph_records *g)
{
    if (g->n_samples > 1)
        qsort(g->samples, g->n_samples, sizeof *g->samples, by_launch_and_time);
    g->ordered = malloc((g->n_samples ? g->n_samples : 1) * sizeof *g->ordered);
    if (!g->ordered)
        return gp_records_out_of_memory();
    for (size_t i = 0; i < g->n_samples; i++)
        g->ordered[i] = g->samples[i].sample;
    for (size_t i = 0; i < g->n_sampled; i++) {
        sampled_launch *s = &g->sampled[i];
        const sample_line key = {s->pid, s->device, s->id, {0, 0, 0, 0}};
        size_t lo = 0, hi = g->n_samples;
        while (lo < hi) { /* the first sample not before the launch's */
            const size_t mid = lo + (hi - lo) / 2;
            if (by_launch_and_time(&g->samples[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t n = 0;
        while (lo + n < g->n_samples && g->samples[lo + n].pid == s->pid &&
               g->samples[lo + n].id == s->id && g->samples[lo + n].device == s->device)
            n++;
        s->sampling.samples = g->ordered + lo;
        s->sampling.n_samples = n;
    }
    return GP_OK;
}

/* Which kernels shared their device's time with another kernel, copy or memset. */
static int mark_kernel_overlaps(graph_records *g, const gp_exec_info *e)
{
    const size_t n = g->n_kernels + e->n_activities;
    gp_busy_interval *busy = malloc((n ? n : 1) * sizeof *busy);
    if (!busy)
        return gp_records_out_of_memory();
    for (size_t i = 0; i < g->n_kernels; i++)
        busy[i] = (gp_busy_interval){g->kernels[i].device, g->kernels[i].start_ns,
                                     g->kernels[i].end_ns, i, false};
    for (size_t i = 0; i < e->n_activities; i++)
        busy[g->n_kernels + i] =
            (gp_busy_interval){e->activities[i].device, e->activities[i].start_ns,
                               e->activities[i].end_ns, SIZE_MAX, false};
    gp_mark_overlaps(busy, n);
    for (size_t i = 0; i < n; i++)
        if (busy[i].tag != SIZE_MAX)
            g->kernels[busy[i].tag].overlapped = busy[i].overlapped;
    free(busy);
    return GP_OK;
}

static int by_launch(const void *a, const void *b)
{
    const sampled_launch *x = a, *y = b;
    return gp_records_launch_order(x->pid, x->id, y->pid, y->id);
}

static int by_launch_then_order(const void *a, const void *b)
{
    const int c = by_launch(a, b);
    const sampled_launch *x = a, *y = b;
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The sampled launches sorted, the first record of each kept. */
static void order_sampled(graph_records *g)
{
    if (g->n_sampled > 1)
        qsort(g->sampled, g->n_sampled, sizeof *g->sampled, by_launch_then_order);
    size_t kept = 0;
    for (size_t i = 0; i < g->n_sampled; i++)
        if (kept == 0 || by_launch(&g->sampled[kept - 1], &g->sampled[i]) != 0)
            g->sampled[kept++] = g->sampled[i];
    g->n_sampled = kept;
}

static const sampled_launch *sampled_launch_of(const graph_records *g, int pid, uint64_t id)
{
    const sampled_launch key = {.pid = pid, .id = id};
    return bsearch(&key, g->sampled, g->n_sampled, sizeof key, by_launch);
}

static size_t counter_index(const gp_collector *c, const char *name)
{
    size_t i = 0;
    while (i < c->n_counters && strcmp(c->counters[i], name) != 0)
        i++;
    return i;
}

/* v[i] (a counter of c): the value the launch has for it, else `value`. */
static void fill(const gp_collector *c, double *v, const char *name, double value)
{
    const size_t i = counter_index(c, name);
    if (i < c->n_counters && isnan(v[i]))
        v[i] = value;
}

/* The node's values: those of its shadow launch, then the sampled DRAM bytes and its time
 * where it has none, NAN for everything else; its metrics derived again from them. A node
 * whose DRAM traffic is not known and that has no shadow values keeps no metrics. */
static int give_share(const gp_collector *c, gp_exec_launch *l, const kernel_time *t,
                      const gp_dram_share *share)
{
    double v[GP_MAX_COUNTERS];
    for (size_t i = 0; i < c->n_counters; i++)
        v[i] = l->profiled ? gp_metric_set_counter(&l->metrics, c->counters[i]) : NAN;
    l->origins |= GP_ORIGIN_SAMPLED;
    if (!l->profiled && !gp_dram_is_known(share->quality))
        return GP_OK;
    fill(c, v, DRAM_READ, share->read_bytes);
    fill(c, v, DRAM_WRITE, share->write_bytes);
    if (t->end_ns >= t->start_ns)
        fill(c, v, GP_DURATION_COUNTER, (double)(t->end_ns - t->start_ns));
    const double ms = l->duration_ms; /* the program's own run's, not a shadow launch's */
    gp_metric_set_free(&l->metrics);
    GP_TRY(gp_records_launch_metrics(c, v, l->passes, l));
    l->duration_ms = ms;
    return GP_OK;
}

/* A kernel node of a sampled graph launch: its share of the samples, as counter values
 * where its context counts DRAM bytes, and the note that says how good it is. */
static int apportion_node(reader *rd, const sampled_launch *s, const kernel_time *t)
{
    gp_exec_launch *l = gp_records_find_launch(rd, t->pid, t->id, t->node);
    const context_counters *cc = l ? gp_records_counters_of(rd, l->pid, l->context) : NULL;
    if (!cc || (counter_index(&cc->collector, DRAM_READ) == cc->collector.n_counters &&
                counter_index(&cc->collector, DRAM_WRITE) == cc->collector.n_counters))
        return GP_OK; /* no counter to hold the bytes */
    const gp_dram_share share =
        gp_dram_apportion(&s->sampling, t->start_ns, t->end_ns, t->overlapped);
    char note[GP_TEXT_LEN];
    gp_dram_note(share.quality, t->end_ns >= t->start_ns ? t->end_ns - t->start_ns : 0,
                 s->sampling.interval_ns, note, sizeof note);
    GP_TRY(gp_records_add_note(l, note));
    return give_share(&cc->collector, l, t, &share);
}

int gp_records_finish_graphs(reader *rd)
{
    graph_records *g = &rd->graphs;
    gp_exec_info *e = &rd->report->exec;
    GP_TRY(note_unshadowed(g, e));
    if (g->n_sampled == 0)
        return GP_OK;
    order_sampled(g);
    GP_TRY(order_samples(g));
    GP_TRY(mark_kernel_overlaps(g, e));
    for (size_t i = 0; i < g->n_kernels; i++) {
        const kernel_time *t = &g->kernels[i];
        const sampled_launch *s = t->node ? sampled_launch_of(g, t->pid, t->id) : NULL;
        if (s && s->device == t->device)
            GP_TRY(apportion_node(rd, s, t));
    }
    return GP_OK;
}
