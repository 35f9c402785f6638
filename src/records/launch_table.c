/* The launch table of records/launch_table.h. */
#include "records/launch_table.h"

#include "gpuprof/demangle.h"
#include "gpuprof/order.h"
#include "gpuprof/record_format.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- order and search ---------------------------------------------------------------------- */

int gp_records_launch_order(int pid_a, uint64_t id_a, int pid_b, uint64_t id_b)
{
    if (pid_a != pid_b)
        return pid_a < pid_b ? -1 : 1;
    return gp_order_u64(id_a, id_b);
}

int gp_records_compare_launches(const void *a, const void *b)
{
    const gp_exec_launch *x = a, *y = b;
    const int by_launch = gp_records_launch_order(x->pid, x->id, y->pid, y->id);
    return by_launch ? by_launch : gp_order_u64(x->graph_node, y->graph_node);
}

/* By bisection over the sorted launches (none: no array to search, which bsearch may not
 * be given). */
gp_exec_launch *gp_records_find_launch(reader *rd, int pid, uint64_t id, uint64_t node)
{
    const gp_exec_launch key = {.pid = pid, .id = id, .graph_node = node};
    if (rd->n_recorded == 0)
        return NULL;
    return bsearch(&key, rd->report->exec.launches, rd->n_recorded, sizeof key,
                   gp_records_compare_launches);
}

/* ---- a graph node's shadow launch ---------------------------------------------------------- */

static bool same_launch(const gp_exec_launch *a, int pid, uint64_t id)
{
    return a->pid == pid && a->id == id && a->graph_node == 0;
}

static bool same_kernel(const gp_exec_launch *l, const uint64_t *k, const numbered_name *name)
{
    const char *mine = l->mangled ? l->mangled : l->kernel;
    return (l->origins & GP_ORIGIN_SHADOW) && mine && name && strcmp(mine, name->name) == 0 &&
           l->code == name->code &&
           l->grid.x == k[GP_K_GX] && l->grid.y == k[GP_K_GY] && l->grid.z == k[GP_K_GZ] &&
           l->block.x == k[GP_K_BX] && l->block.y == k[GP_K_BY] && l->block.z == k[GP_K_BZ] &&
           l->shared_bytes == k[GP_K_SMEM];
}

gp_exec_launch *gp_records_adopt_shadow(reader *rd, const uint64_t *k, const numbered_name *name)
{
    const int pid = (int)k[GP_K_PID];
    gp_exec_launch *l = gp_records_find_launch(rd, pid, k[GP_K_ID], 0);
    if (!l)
        return NULL;
    gp_exec_launch *first = rd->report->exec.launches, *end = first + rd->n_recorded;
    while (l > first && same_launch(l - 1, pid, k[GP_K_ID]))
        l--;
    gp_exec_launch *group = l;
    while (group > first && group[-1].pid == pid && group[-1].id == k[GP_K_ID])
        group--;
    for (; l < end && same_launch(l, pid, k[GP_K_ID]); l++)
        if (same_kernel(l, k, name)) {
            l->graph_node = k[GP_K_NODE];
            size_t n = 0;
            while (group + n < end && group[n].pid == pid && group[n].id == k[GP_K_ID])
                n++;
            /* the group's order again, for find_launch */
            qsort(group, n, sizeof *group, gp_records_compare_launches);
            return gp_records_find_launch(rd, pid, k[GP_K_ID], k[GP_K_NODE]);
        }
    return NULL;
}

/* ---- names --------------------------------------------------------------------------------- */

/* The name as ncu prints it, and the mangled one when it was mangled. */
int gp_records_name_launch(reader *rd, gp_exec_launch *l, const char *name)
{
    bool added;
    char **demangled = gp_hashmap_add_str(&rd->demangled, name, &added);
    if (!demangled)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (added)
        *demangled = gp_demangle(name);
    l->kernel = strdup(*demangled ? *demangled : name);
    l->mangled = *demangled ? strdup(name) : NULL;
    return l->kernel && (!*demangled || l->mangled)
               ? GP_OK
               : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

int gp_records_name_graph(gp_exec_launch *l)
{
    char name[48];
    snprintf(name, sizeof name, "CUDA graph %llu", (unsigned long long)l->graph);
    l->kernel = strdup(name);
    l->mangled = strdup(name);
    return l->kernel && l->mangled ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

/* ---- metrics ------------------------------------------------------------------------------- */

/* A profiled launch's values: its metrics (of the counters its passes collected, when it
 * carries some of the groups, and of those that have a value all the same: a graph node's
 * sampled DRAM bytes), and its duration from the duration counter: a launch of the SASS pass
 * has none, its run was instrumented. */
int gp_records_launch_metrics(const gp_collector *c, const double *v, uint32_t passes,
                              gp_exec_launch *l)
{
    bool collected[GP_MAX_COUNTERS];
    if (passes)
        gp_collector_collected(c, passes, collected);
    for (size_t i = 0; passes && i < c->n_counters; i++)
        collected[i] |= !isnan(v[i]);
    for (size_t i = 0; i < c->n_counters; i++)
        if (strcmp(c->counters[i], GP_DURATION_COUNTER) == 0 && isfinite(v[i]) &&
            (!passes || collected[i]))
            l->duration_ms = v[i] * 1e-6;
    l->profiled = true;
    l->passes = passes;
    return passes ? gp_collector_partial_metric_set(c, v, collected, &l->metrics)
                  : gp_collector_metric_set(c, v, 1, &l->metrics);
}

int gp_records_add_note(gp_exec_launch *l, const char *text)
{
    const size_t had = l->note ? strlen(l->note) : 0;
    char *note = realloc(l->note, had + strlen(text) + 3);
    if (!note)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    snprintf(note + had, strlen(text) + 3, "%s%s", had ? "; " : "", text);
    l->note = note;
    return GP_OK;
}
