/* The launches' range numbers of launch_ranges.h: a table indexed by the correlation id's
 * low bits, each slot the id and its range number in one 64-bit word, so that the launching
 * threads write and the activity thread reads without a lock. The activity thread reads a
 * launch's slot when its buffer completes, usually milliseconds after the launch; a slot is
 * taken again only 2^20 launches later (8 MB of table). */
#include "inject/launch_ranges.h"

#include "inject/nvtx_ranges.h"
#include "inject/record.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/record_format.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SLOTS (1u << 20)

/* Guard: none, set by gp_launch_ranges_start before any callback, read-only after. */
static _Atomic uint64_t *slots;

static void write_range(uint32_t number, const char *path)
{
    gp_record r;
    gp_record_begin(&r, GP_RECORD_RANGE);
    gp_record_uint(&r, "n", number);
    gp_record_string(&r, "path", path);
    gp_record_end(&r);
}

bool gp_launch_ranges_start(bool nvtx)
{
    if (!nvtx)
        return false;
    slots = calloc(SLOTS, sizeof *slots);
    if (!slots)
        gp_record_warning("--nvtx: out of host memory for the launches' ranges: none recorded",
                          NULL);
    return slots != NULL;
}

bool gp_launch_ranges_on(void)
{
    return slots != NULL;
}

void gp_launch_ranges_note(uint32_t correlation_id)
{
    const uint32_t range = gp_ranges_current(write_range);
    atomic_store_explicit(&slots[correlation_id & (SLOTS - 1)],
                          (uint64_t)correlation_id << 32 | range, memory_order_release);
}

uint32_t gp_launch_ranges_of(uint32_t correlation_id)
{
    const uint64_t v =
        atomic_load_explicit(&slots[correlation_id & (SLOTS - 1)], memory_order_acquire);
    return (uint32_t)(v >> 32) == correlation_id ? (uint32_t)v : 0;
}

/* ---- graph nodes' paths at their making ---------------------------------------------------- */

static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static gp_hashmap node_ranges;    /* Guard: nodes_lock; node id -> uint32_t range number */
static bool nodes_ready;          /* Guard: nodes_lock */

static void keep_node(uint64_t node_id, uint32_t range)
{
    pthread_mutex_lock(&nodes_lock);
    if (!nodes_ready) {
        gp_hashmap_init(&node_ranges, sizeof(uint32_t));
        nodes_ready = true;
    }
    uint32_t *kept = gp_hashmap_add(&node_ranges, &node_id, sizeof node_id, NULL);
    if (kept) /* out of memory: the node is reported with its launch's path only */
        *kept = range;
    pthread_mutex_unlock(&nodes_lock);
}

uint32_t gp_launch_ranges_of_node(uint64_t node_id)
{
    if (!node_id)
        return 0;
    pthread_mutex_lock(&nodes_lock);
    const uint32_t *kept =
        nodes_ready ? gp_hashmap_find(&node_ranges, &node_id, sizeof node_id) : NULL;
    const uint32_t range = kept ? *kept : 0;
    pthread_mutex_unlock(&nodes_lock);
    return range;
}

void gp_launch_ranges_on_node(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    if (!slots || (cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED &&
                   cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED))
        return;
    const CUpti_GraphData *g = r->resourceDescriptor;
    uint64_t node = 0, original = 0;
    if (!g || !g->node || g->nodeType != CU_GRAPH_NODE_TYPE_KERNEL ||
        cuptiGetGraphNodeId(g->node, &node) != CUPTI_SUCCESS)
        return;
    uint32_t range = 0;
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)
        range = gp_ranges_current(write_range);
    else if (g->originalNode &&
             cuptiGetGraphNodeId(g->originalNode, &original) == CUPTI_SUCCESS)
        range = gp_launch_ranges_of_node(original);
    if (range)
        keep_node(node, range);
}
