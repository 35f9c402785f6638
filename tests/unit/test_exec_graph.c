/* gpuprof exec's records of CUDA graphs (records/read_graphs.c): shadow launches joined to their
 * nodes' `K` lines, sampled DRAM bytes shared among the nodes, graphs not shadow-launched,
 * ranges around whole graph launches; the records tests/fixtures/records/graph-nodes and
 * graph-range (written by hand, see the README there) and malformed ones. */
#include "tap.h"
#include "exec_records.h"

#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FILL "graphFill(int *, const int *, unsigned int)"
#define SCALE "graphScale(int *, unsigned int)"
#define SUM "graphSum(int *, const int *, unsigned int)"
#define SAMPLED_NOTE "DRAM sampled (1 µs): writes approximate (L2 write-back lands later)"
#define SHORT_NOTE "DRAM approximate: 3.1 µs is under 5 µs"
#define OVERLAP_NOTE "DRAM n/a: overlaps other work on the device"
#define HOST_NODE "not shadow-launched: a host node; "

static bool note_is(const gp_exec_launch *l, const char *want)
{
    const bool ok = want ? l->note && strcmp(l->note, want) == 0 : l->note == NULL;
    if (!ok)
        tap_diag("note '%s', want '%s'", l->note ? l->note : "(null)", want ? want : "(null)");
    return ok;
}

/* The launch (id, node): its kernel, origins, profiled state and note. */
static const gp_exec_launch *node_is(const gp_report *r, size_t i, uint64_t id, uint64_t node,
                                     const char *kernel, unsigned origins, bool profiled,
                                     const char *note)
{
    if (!launch_is(r, i, 760, id, kernel, profiled))
        return NULL;
    const gp_exec_launch *l = &r->exec.launches[i];
    if (l->graph_node != node || l->origins != origins || !note_is(l, note)) {
        tap_diag("launch %zu: node %llu origins %u", i, (unsigned long long)l->graph_node,
                 l->origins);
        return NULL;
    }
    return l;
}

/* The first graph launch (id 5): its three nodes shadow-launched (the third's record after
 * its K line), their counters the shadow launches', their times the program's own run's. */
static void shadowed_launch(const gp_report *r)
{
    const unsigned both = GP_ORIGIN_SHADOW | GP_ORIGIN_SAMPLED;
    const gp_exec_launch *a = node_is(r, 1, 5, 8589934592ull, FILL, both, true, SAMPLED_NOTE);
    const gp_exec_launch *b = node_is(r, 2, 5, 8589934593ull, SCALE, both, true, SHORT_NOTE);
    const gp_exec_launch *c = node_is(r, 3, 5, 8589934594ull, SUM, both, true, OVERLAP_NOTE);
    tap_ok(a && b && c, "graph nodes: the shadow-launched nodes, their notes by their times");
    if (!a || !b || !c)
        return;
    tap_ok(metric_value(a, "dram_read_bytes") == 4196352 &&
               metric_value(b, "dram_read_bytes") == 4196480 &&
               metric_value(c, "dram_read_bytes") == 4196096 &&
               metric_value(a, "dram_write_bytes") == 4194560,
           "graph nodes: a shadow launch's DRAM bytes come before the sampled ones");
    tap_near(metric_value(a, "gld_efficiency"), 100.0, 1e-9,
             "graph nodes: a shadow launch's SASS metrics (4 of 4 bytes per sector used)");
    tap_near(a->duration_ms, 0.008, 1e-12, "graph nodes: the time of the program's own run, "
                                           "not the shadow launch's 8096 ns");
    tap_near(c->duration_ms, 0.006, 1e-12, "graph nodes: so for a shadow record read after "
                                           "its K line");
    tap_ok(a->stream == 13 && a->graph == 2 && c->shared_bytes == 1024,
           "graph nodes: the stream of the program's run, the graph, the shape");
}

/* The second launch (id 7), sampled only. Its samples k = 0 .. 19 cover [T + 1000 k,
 * T + 1000 (k + 1)] and hold 600 000 + 1000 k bytes read, 300 000 + 500 k written.
 * graphFill ran [T + 1500, T + 9500]: half of sample 1, samples 2 to 8, half of sample 9:
 *   read  0.5 * 601 000 + (7 * 600 000 + 1000 * (2 + ... + 8)) + 0.5 * 609 000 = 4 840 000
 *   write 0.5 * 300 500 + (7 * 300 000 + 500 * 35) + 0.5 * 304 500 = 2 420 000
 * graphScale ran [T + 9600, T + 12 700]: 0.4 of sample 9, samples 10 and 11, 0.7 of 12:
 *   read  0.4 * 609 000 + 610 000 + 611 000 + 0.7 * 612 000 = 1 893 000
 *   write 0.4 * 304 500 + 305 000 + 305 500 + 0.7 * 306 000 = 946 500
 * graphSum ran [T + 12 800, T + 18 800] beside a memset [T + 14 000, T + 14 500]: n/a. */
static void sampled_launch(const gp_report *r)
{
    const gp_exec_launch *a =
        node_is(r, 5, 7, 8589934592ull, FILL, GP_ORIGIN_SAMPLED, true, SAMPLED_NOTE);
    const gp_exec_launch *b =
        node_is(r, 6, 7, 8589934593ull, SCALE, GP_ORIGIN_SAMPLED, true, SHORT_NOTE);
    const gp_exec_launch *c =
        node_is(r, 7, 7, 8589934594ull, SUM, GP_ORIGIN_SAMPLED, false, OVERLAP_NOTE);
    tap_ok(a && b && c, "graph nodes: the nodes of a launch sampled only");
    if (!a || !b || !c)
        return;
    tap_near(metric_value(a, "dram_read_bytes"), 4840000, 1e-6,
             "graph nodes: the samples apportioned by the node's time (read)");
    tap_near(metric_value(a, "dram_write_bytes"), 2420000, 1e-6,
             "graph nodes: the same for writes");
    tap_near(metric_value(b, "dram_read_bytes"), 1893000, 1e-6,
             "graph nodes: a short node's share (read)");
    tap_near(metric_value(b, "dram_write_bytes"), 946500, 1e-6,
             "graph nodes: a short node's share (write)");
    tap_near(metric_value(a, "dram_read_throughput"), 605.0, 1e-9,
             "graph nodes: metrics derived from them as for a profiled launch (4.84 MB in "
             "8 µs)");
    const gp_metric_value *eff = metric(a, "gld_efficiency");
    tap_ok(eff && !eff->valid, "graph nodes: no SASS metric without a shadow launch");
    tap_near(a->duration_ms, 0.008, 1e-12, "graph nodes: a sampled node's time");
    tap_ok(c->metrics.n_metrics == 0, "graph nodes: an overlapped node keeps no metrics");
}

/* Graph 3, with a host node: not shadow-launched. Launch 9's samples hold 700 000 bytes
 * read and 350 000 written each; its first node covers samples 1 to 10 whole. Launch 10
 * lost samples. */
static void unshadowed_graph(const gp_report *r)
{
    const gp_exec_launch *x = node_is(r, 8, 9, 12884901888ull, FILL, GP_ORIGIN_SAMPLED, true,
                                      HOST_NODE SAMPLED_NOTE);
    const gp_exec_launch *y =
        node_is(r, 9, 9, 12884901889ull, SCALE, GP_ORIGIN_SAMPLED, false,
                HOST_NODE "DRAM n/a: 1.2 µs is under 2 sampling intervals");
    tap_ok(x && y, "graph nodes: a graph not shadow-launched says why, and each node's DRAM");
    tap_ok(x && metric_value(x, "dram_read_bytes") == 7000000 &&
               metric_value(x, "dram_write_bytes") == 3500000,
           "graph nodes: 10 whole samples of 700 000 bytes read, 350 000 written");
    const char *lost = HOST_NODE "DRAM n/a: samples were lost";
    tap_ok(node_is(r, 10, 10, 12884901888ull, FILL, GP_ORIGIN_SAMPLED, false, lost) &&
               node_is(r, 11, 10, 12884901889ull, SCALE, GP_ORIGIN_SAMPLED, false, lost),
           "graph nodes: a launch that lost samples has no DRAM bytes");
}

static void graph_nodes(const gp_report *r)
{
    tap_ok(r->exec.n_launches == 12 && r->n_warnings == 0,
           "graph nodes: 12 launches, no warning (%zu, %zu)", r->exec.n_launches,
           r->n_warnings);
    if (r->exec.n_launches != 12)
        return;
    tap_ok(node_is(r, 0, 1, 0, "eagerLaunch(int *, unsigned int)", GP_ORIGIN_RANGE, true,
                   NULL),
           "graph nodes: a direct profiled launch's metrics come from its range");
    tap_ok(node_is(r, 4, 6, 0, "sideKernel(int *)", 0, false, NULL),
           "graph nodes: a kernel timed only has no origin and no note");
    shadowed_launch(r);
    sampled_launch(r);
    unshadowed_graph(r);
}

/* --graph-profiling=graph: one range around the graph launch, its nodes timed. */
static void graph_range(const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    const gp_exec_launch *g = e->n_launches == 4 ? &e->launches[0] : NULL;
    tap_ok(g && launch_is(r, 0, 771, 5, "CUDA graph 2", true) && g->mangled &&
               strcmp(g->mangled, "CUDA graph 2") == 0 && g->graph == 2 &&
               g->graph_node == 0 && g->origins == GP_ORIGIN_GRAPH && !g->note,
           "graph range: a launch named for its graph, profiled as one range");
    if (!g)
        return;
    tap_near(metric_value(g, "dram_read_bytes"), 12589056, 0,
             "graph range: the whole launch's DRAM bytes");
    tap_near(g->duration_ms, 0.017408, 1e-12, "graph range: its duration from its counters");
    bool nodes = true;
    for (size_t i = 1; i < 4; i++)
        nodes = nodes && !e->launches[i].profiled && e->launches[i].origins == 0 &&
                e->launches[i].graph_node == 8589934591ull + i;
    tap_ok(nodes, "graph range: its nodes timed, not profiled");
}

/* ---- malformed records and lines -------------------------------------------------------- */

#define PROCESS "{\"t\":\"process\",\"pid\":9,\"ppid\":1}\n"
#define END "{\"t\":\"end\",\"pid\":9}\n"
#define SAMPLED(fields) "{\"t\":\"sampled\",\"pid\":9,\"id\":5,\"context\":1,\"device\":0," fields "}\n"
#define GRAPH(fields) "{\"t\":\"graph\",\"pid\":9,\"context\":1,\"graph\":2," fields "}\n"
#define NODE_LAUNCH(fields)                                                                     \
    "{\"t\":\"launch\",\"pid\":9,\"id\":5,\"context\":1,\"device\":0,\"stream\":7,"              \
    "\"kernel\":\"_Z1kv\",\"grid\":[2,1,1],\"block\":[32,1,1],\"smem\":0,\"profiled\":0,"       \
    fields "}\n"

static void malformed(void)
{
    static const struct {
        const char *text, *warning;
    } cases[] = {
        {"P 4294967296 5 0 1000 2000 10 10\n", "a DRAM sample line's pid is out of its range: "
                                              "the line is ignored"},
        {"P 9 5 2147483648 1000 2000 10 10\n", "a DRAM sample line's device is out of its "
                                              "range: the line is ignored"},
        {"P 9 5 0 2000 1000 10 10\n", "a DRAM sample line's end is out of its range: the line "
                                      "is ignored"},
        {SAMPLED("\"start_ns\":0,\"end_ns\":1000,\"complete\":1"),
         "interval_ns: missing: the record is ignored"},
        {SAMPLED("\"interval_ns\":0,\"start_ns\":0,\"end_ns\":1000,\"complete\":1"),
         "interval_ns: must be from 1 to 9007199254740992: the record is ignored"},
        {SAMPLED("\"interval_ns\":1000,\"start_ns\":2000,\"end_ns\":1000,\"complete\":1"),
         "end_ns: expected the window's end, not before its start: the record is ignored"},
        {SAMPLED("\"interval_ns\":1000,\"start_ns\":-1,\"end_ns\":1000,\"complete\":1"),
         "start_ns: must be at least 0: the record is ignored"},
        {SAMPLED("\"interval_ns\":1000,\"start_ns\":0,\"end_ns\":1e300,\"complete\":1"),
         "end_ns: expected nanoseconds below 2^64: the record is ignored"},
        {SAMPLED("\"interval_ns\":1000,\"start_ns\":0,\"end_ns\":1000,\"complete\":2"),
         "complete: must be from 0 to 1: the record is ignored"},
        {GRAPH("\"kernels\":3,\"shadow\":0"), "reason: missing: the record is ignored"},
        {GRAPH("\"kernels\":3,\"shadow\":0,\"reason\":7"),
         "reason: expected a string: the record is ignored"},
        {GRAPH("\"kernels\":-3,\"shadow\":1"),
         "kernels: must be from 0 to 9007199254740992: the record is ignored"},
        {NODE_LAUNCH("\"graph\":2,\"node\":3,\"how\":\"replayed\""),
         "how: expected one of 'shadow', 'graph': the record is ignored"},
        {NODE_LAUNCH("\"graph\":2,\"node\":3,\"how\":\"graph\""),
         "node: expected 0 for a whole graph launch: the record is ignored"},
        {NODE_LAUNCH("\"node\":3,\"how\":\"shadow\""), "graph: missing: the record is ignored"},
        {GRAPH("\"kernels\":3,\"shadow\":1,\"after_host\":1,\"after_host_nodes\":[0]"),
         "after_host_nodes[0]: must be from 1 to 9007199254740992: the record is ignored"},
        {GRAPH("\"kernels\":3,\"shadow\":1,\"after_host\":1,\"after_host_nodes\":7"),
         "after_host_nodes: expected an array: the record is ignored"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], warning[256];
        snprintf(text, sizeof text, PROCESS "%s" END, cases[i].text);
        snprintf(warning, sizeof warning, "9.jsonl line 2: %s", cases[i].warning);
        gp_report r;
        const int rc = read_text(text, &r);
        const bool ok = rc == GP_OK && r.n_warnings == 1 && r.exec.n_launches == 0 &&
                        strcmp(r.warnings[0], warning) == 0;
        if (!ok)
            tap_diag("status %d, %zu launches, warning '%s'", rc, r.exec.n_launches,
                     r.n_warnings ? r.warnings[0] : "");
        tap_ok(ok, "graph records: refused with the file, line and field: %s",
               cases[i].warning);
        gp_report_free(&r);
    }
}

/* A `P` line of another length is not one the library writes: passed over, as is a torn one. */
static void other_lines(void)
{
    gp_report r;
    int rc = read_text(PROCESS "P 9 5 0 1000 2000 10\nP 9 5 0 1000 2000 10 10 10\n" END
                               "P 9 5 0 1000 2000 1",
                       &r);
    tap_ok(rc == GP_OK && r.n_warnings == 0 && r.exec.n_launches == 0,
           "graph records: P lines of another length, or torn, are passed over (%zu warnings)",
           r.n_warnings);
    gp_report_free(&r);
}

/* A context that counts only durations: a duration counter, no metric. */
#define DURATION_ONLY                                                                           \
    "{\"t\":\"profiler\",\"pid\":9,\"context\":1,\"chip\":\"GH100\",\"passes\":1,"         \
    "\"set\":\"list\",\"counters\":[\"gpu__time_duration.sum\"],\"metrics\":[],\"units\":[],"   \
    "\"missing\":[]}\n"
#define NODE_K_LINE "K 9 5 1 0 7 1 2 1 1 32 1 1 0 10000 18000 2 3\n"

/* A shadow launch whose node's K line never came: a launch of its own, timed by its
 * counters; sampled bytes for a context without DRAM counters: nothing to hold them. */
static void lone_records(void)
{
    gp_report r;
    int rc = read_text(PROCESS DURATION_ONLY
                       NODE_LAUNCH("\"graph\":2,\"node\":3,\"how\":\"shadow\"") END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 1 && r.n_warnings == 0 &&
               !r.exec.launches[0].profiled && r.exec.launches[0].origins == 0 &&
               r.exec.launches[0].graph_node == 3,
           "graph records: a shadow record without values: its node, no origin");
    gp_report_free(&r);
    rc = read_text(PROCESS DURATION_ONLY
                   "{\"t\":\"launch\",\"pid\":9,\"id\":5,\"context\":1,\"device\":0,"
                   "\"stream\":7,\"kernel\":\"_Z1kv\",\"grid\":[2,1,1],\"block\":[32,1,1],"
                   "\"smem\":0,\"profiled\":1,\"values\":[2000],\"graph\":2,\"node\":3,"
                   "\"how\":\"shadow\"}\n" END,
                   &r);
    const gp_exec_launch *l = rc == GP_OK && r.exec.n_launches == 1 ? &r.exec.launches[0] : NULL;
    tap_ok(l && l->profiled && l->origins == GP_ORIGIN_SHADOW && l->graph == 2 &&
               l->graph_node == 3 && l->stream == 7 && !l->note,
           "graph records: a shadow launch without its node's K line is a launch of its own");
    tap_near(l ? l->duration_ms : 0, 0.002, 1e-12,
             "graph records: ... timed by its counters");
    gp_report_free(&r);
    rc = read_text(PROCESS DURATION_ONLY
                   SAMPLED("\"interval_ns\":1000,\"start_ns\":0,\"end_ns\":20000,"
                           "\"complete\":1") "P 9 5 0 10000 11000 50 50\n" NODE_K_LINE END,
                   &r);
    l = rc == GP_OK && r.exec.n_launches == 1 ? &r.exec.launches[0] : NULL;
    tap_ok(l && !l->profiled && l->origins == 0 && !l->note && r.n_warnings == 0,
           "graph records: a context without DRAM counters takes no sampled bytes");
    gp_report_free(&r);
}

/* A shadow launch of node 0 (a child graph's kernel: the library did not learn its id): the
 * K line of the same graph launch, kernel and shape adopts it; another shape does not. */
#define NAME_K "{\"t\":\"name\",\"pid\":9,\"n\":1,\"name\":\"_Z1kv\"}\n"
#define SHADOW_NODE_0(grid)                                                                     \
    "{\"t\":\"launch\",\"pid\":9,\"id\":5,\"context\":1,\"device\":0,\"stream\":7,"        \
    "\"kernel\":\"_Z1kv\",\"grid\":[" grid ",1,1],\"block\":[32,1,1],\"smem\":0,"          \
    "\"profiled\":1,\"values\":[2000],\"graph\":2,\"node\":0,\"how\":\"shadow\"}\n"

static void unknown_nodes(void)
{
    gp_report r;
    int rc = read_text(PROCESS DURATION_ONLY SHADOW_NODE_0("2") NAME_K NODE_K_LINE END, &r);
    const gp_exec_launch *l = rc == GP_OK && r.exec.n_launches == 1 ? &r.exec.launches[0] : NULL;
    tap_ok(l && l->profiled && l->origins == GP_ORIGIN_SHADOW && l->graph_node == 3 &&
               fabs(l->duration_ms - 0.008) < 1e-9,
           "graph records: a shadow launch of an unknown node is adopted by the K line of "
           "its kernel and shape, which gives it its node and time");
    gp_report_free(&r);
    rc = read_text(PROCESS DURATION_ONLY SHADOW_NODE_0("4") NAME_K NODE_K_LINE END, &r);
    tap_ok(rc == GP_OK && r.exec.n_launches == 2,
           "graph records: ... not by a K line of another shape (%zu launches)",
           r.exec.n_launches);
    gp_report_free(&r);
}

/* A shadow-launched graph whose node 4 runs after a host node: that node's K line says so
 * in its note; node 3, before the host node, has no such note. */
#define AFTER_HOST_K_LINE "K 9 5 1 0 7 1 2 1 1 32 1 1 0 20000 28000 2 4\n"

static void after_host_nodes(void)
{
    gp_report r;
    const int rc = read_text(PROCESS DURATION_ONLY
                             GRAPH("\"kernels\":2,\"shadow\":1,\"after_host\":1,"
                                   "\"after_host_nodes\":[4]")
                             NAME_K NODE_K_LINE AFTER_HOST_K_LINE END, &r);
    const gp_exec_launch *before = rc == GP_OK && r.exec.n_launches == 2 ? &r.exec.launches[0]
                                                                         : NULL;
    const gp_exec_launch *after = before ? &r.exec.launches[1] : NULL;
    tap_ok(before && before->graph_node == 3 && !before->note && r.n_warnings == 0,
           "graph records: a node before the host node has no note");
    tap_ok(after && after->graph_node == 4 && after->note &&
               strcmp(after->note, "not shadow-launched: it runs after a host node of its "
                                   "graph") == 0,
           "graph records: a node after a host node says why it was not shadow-launched (%s)",
           after && after->note ? after->note : "(none)");
    gp_report_free(&r);
}

void test_exec_graph(void)
{
    after_host_nodes();
    unknown_nodes();
    check_case("graph-nodes", graph_nodes);
    check_case("graph-range", graph_range);
    malformed();
    other_lines();
    lone_records();
}
