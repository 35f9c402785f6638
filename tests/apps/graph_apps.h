// graph_apps.h: what the graph programs (graph_*.cu) share: the CUDA-call check, their launch
// count argument and host allocation, with the exit statuses of tests/apps/README.md (2 on a
// CUDA error, a usage error or no host memory).
#ifndef GRAPH_APPS_H
#define GRAPH_APPS_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "app: %s failed: %s\n", #call, cudaGetErrorString(err_));    \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

// The optional count argv[1] (`fallback` when absent) in [1, most]; -1 when there are more
// arguments or it is not a decimal number in range.
static inline long launches_argument(int argc, char **argv, long fallback, long most)
{
    if (argc > 2)
        return -1;
    if (argc < 2)
        return fallback;
    char *end;
    const long v = strtol(argv[1], &end, 10);
    return (*end || v < 1 || v > most) ? -1 : v;
}

// malloc that exits 2 with `program`'s message when the host has no memory left.
static inline void *host_alloc(size_t bytes, const char *program)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "%s: out of host memory\n", program);
        exit(2);
    }
    return p;
}

#endif
