/* The NVTX range records of read_ranges.h. */
#include "records/read_ranges.h"

#include "gpuprof/record_format.h"
#include "gpuprof/status.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gp_records_read_range(reader *rd, const cJSON *o)
{
    int pid;
    uint64_t number;
    const char *path;
    gp_json_reader *j = &rd->json;
    if (gp_json_get_int(j, o, "pid", 0, &pid) != GP_OK ||
        gp_json_get_integer(j, o, "n", 1, UINT32_MAX, &number) != GP_OK ||
        gp_json_get_text(j, o, "path", &path) != GP_OK)
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    const uint64_t key[2] = {(uint64_t)pid, number};
    bool added;
    char **kept = gp_hashmap_add(&rd->ranges, key, sizeof key, &added);
    if (kept && added) /* the first record of a number holds */
        *kept = strdup(path);
    return kept && *kept ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
}

/* The path of range `number` of the launch's process; "" for 0, NULL (the reader told) when
 * no range record names it. */
static const char *path_of(reader *rd, const gp_exec_launch *l, uint64_t number)
{
    if (number == 0)
        return "";
    const uint64_t key[2] = {(uint64_t)l->pid, number};
    char *const *path = gp_hashmap_find(&rd->ranges, key, sizeof key);
    if (!path)
        gp_json_fail(&rd->json, "range %llu has no range record", (unsigned long long)number);
    return path ? *path : NULL;
}

/* The launch's path: the ranges open at its launch, then (a graph kernel node) those open
 * when it was captured, nested inside; unchanged when both are 0. */
static int give_range(reader *rd, gp_exec_launch *l, uint64_t number, uint64_t capture)
{
    if (number == 0 && capture == 0)
        return GP_OK;
    const char *launched = path_of(rd, l, number), *captured = path_of(rd, l, capture);
    if (!launched || !captured)
        return gp_records_ignore(rd, "the launch is reported without its NVTX range");
    const size_t n = strlen(launched) + strlen(captured) + 2;
    char *path = malloc(n);
    if (!path)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    snprintf(path, n, "%s%s%s", launched, launched[0] && captured[0] ? "/" : "", captured);
    free(l->range);
    l->range = path;
    return GP_OK;
}

int gp_records_launch_range(reader *rd, const cJSON *o, gp_exec_launch *l)
{
    uint64_t number = 0, capture = 0;
    if ((gp_json_field(o, "range") &&
         gp_json_get_integer(&rd->json, o, "range", 0, UINT32_MAX, &number) != GP_OK) ||
        (gp_json_field(o, "capture") &&
         gp_json_get_integer(&rd->json, o, "capture", 0, UINT32_MAX, &capture) != GP_OK))
        return gp_records_ignore(rd, "the launch is reported without its NVTX range");
    return give_range(rd, l, number, capture);
}

const char *gp_records_range_out_of_range(const uint64_t *r)
{
    if (r[GP_R_PID] > INT_MAX)
        return "pid";
    if (r[GP_R_CAPTURE] > UINT32_MAX)
        return "capture";
    return r[GP_R_RANGE] > UINT32_MAX ? "range" : NULL;
}

int gp_records_read_range_line(reader *rd, const uint64_t *r)
{
    gp_exec_launch *l = rd->last_kernel;
    if (!l || l->pid != (int)r[GP_R_PID] || l->id != r[GP_R_ID] ||
        l->graph_node != r[GP_R_NODE]) {
        gp_json_fail(&rd->json, "an R line that follows no K line of its kernel");
        return gp_records_ignore(rd, GP_RECORD_IGNORED);
    }
    return give_range(rd, l, r[GP_R_RANGE], r[GP_R_CAPTURE]);
}

void gp_records_free_ranges(reader *rd)
{
    size_t cursor = 0;
    char **path;
    while ((path = gp_hashmap_next(&rd->ranges, &cursor, NULL, NULL)))
        free(*path);
    gp_hashmap_free(&rd->ranges);
}
