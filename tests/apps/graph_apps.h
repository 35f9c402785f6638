// graph_apps.h: what the graph programs (graph.cu, graph_*.cu) share beyond check.h: their
// launch count argument, the stream a graph runs on, its node count, its launches and its end,
// with the exit statuses of tests/apps/README.md (2 on a CUDA or usage error, 1 on a wrong
// result).
#ifndef GRAPH_APPS_H
#define GRAPH_APPS_H

#include "check.h"

// The optional count argv[1], from 1 to `most`, `fallback` when absent; anything else (or
// more arguments) a usage error: `usage: PROGRAM [LAUNCHES]   (1 to MOST, default FALLBACK)`.
static inline long launches_argument(int argc, char **argv, const char *program, long fallback,
                                     long most)
{
    char usage[128];
    snprintf(usage, sizeof usage, "%s [LAUNCHES]   (1 to %ld, default %ld)", program, most,
             fallback);
    at_most_arguments(argc, 1, usage);
    return decimal_argument(argc, argv, 1, fallback, 1, most, usage);
}

// A non-blocking stream for the graph, once the setup is done: the setup ran on the legacy
// default stream, which non-blocking streams do not wait for (a memset, a copy from pageable
// memory may still be in flight).
static inline cudaStream_t stream_after_setup(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaDeviceSynchronize());
    return s;
}

// 0 when the captured `graph` has `want` nodes, else 1 after `program: captured N nodes,
// expected WANT`.
static inline int check_captured(const char *program, cudaGraph_t graph, size_t want)
{
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
    if (nodes != want) {
        fprintf(stderr, "%s: captured %zu nodes, expected %zu\n", program, nodes, want);
        return 1;
    }
    return 0;
}

// `launches` launches of `exec` on s, back to back, then a synchronisation.
static inline void launch_graph(cudaGraphExec_t exec, cudaStream_t s, long launches)
{
    for (long l = 0; l < launches; l++)
        CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
}

// main's status at the end of a run of `launches` graph launches: 1 after a wrong result (already
// said on stderr), else `program: ok (LAUNCHES launches)` on stdout and 0.
static inline int launches_status(int bad, const char *program, long launches)
{
    if (bad)
        return 1;
    printf("%s: ok (%ld launches)\n", program, launches);
    return 0;
}

// The end of a graph program's run: its executable graph, its graph and its stream destroyed.
static inline void destroy_graph(cudaGraphExec_t exec, cudaGraph_t graph, cudaStream_t s)
{
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
}

#endif
