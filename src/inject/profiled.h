/* What the activity records leave out. The correlation ids of the launches profiled with
 * counters: launches.c adds each at the launch's exit, and CUPTI's activity thread
 * (activity_records.c) asks about every kernel that ran, leaving out those whose time the
 * counters give. Locked inside: the two are different threads. */
#ifndef GPUPROF_INJECT_PROFILED_H
#define GPUPROF_INJECT_PROFILED_H

#include "inject/inject.h"

#include <stdbool.h>
#include <stdint.h>

/* Remember a profiled launch (out of memory: forgotten, its kernel then also timed). */
void gp_profiled_add(uint32_t correlation_id);
bool gp_profiled_has(uint32_t correlation_id);

/* The graph launches profiled (shadow-launched, sampled or ranged): a kernel that shares
 * one's correlation id but belongs to no graph node is CUPTI's own work inside that call
 * ('WaitNs' on the H100), not the program's. The graph's copy and memset nodes share the id
 * too, and stay. */
void gp_profiled_add_graph_launch(uint32_t correlation_id);
bool gp_profiled_graph_launch_has(uint32_t correlation_id);

/* The private streams of shadow launches (graph_launches.h): nothing that runs there is the
 * program's, so its activity records are left out. */
void gp_profiled_add_stream(uint32_t stream_id);
bool gp_profiled_stream_has(uint32_t stream_id);

#endif
