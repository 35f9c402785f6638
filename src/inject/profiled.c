/* The set of profiled correlation ids of profiled.h: the shared hash map, behind a lock. */
#include "inject/profiled.h"

#include "gpuprof/hashmap.h"

#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
/* The sets, zeroed: empty (values of size 0). Guard: lock. */
static gp_hashmap ids;
static gp_hashmap streams;
static gp_hashmap graph_launches;

/* Every set is asked and added to alike: an id as its key, no value, under the lock. */
static void add_to(gp_hashmap *set, uint32_t id)
{
    pthread_mutex_lock(&lock);
    gp_hashmap_add(set, &id, sizeof id, NULL);
    pthread_mutex_unlock(&lock);
}

static bool is_in(const gp_hashmap *set, uint32_t id)
{
    pthread_mutex_lock(&lock);
    const bool found = gp_hashmap_find(set, &id, sizeof id) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

void gp_profiled_add(uint32_t correlation_id)
{
    if (correlation_id == 0)
        return; /* no launch's: CUPTI's ids start at 1 */
    add_to(&ids, correlation_id);
}

bool gp_profiled_has(uint32_t correlation_id)
{
    return is_in(&ids, correlation_id);
}

void gp_profiled_add_stream(uint32_t stream_id)
{
    add_to(&streams, stream_id);
}

bool gp_profiled_stream_has(uint32_t stream_id)
{
    return is_in(&streams, stream_id);
}

void gp_profiled_add_graph_launch(uint32_t correlation_id)
{
    add_to(&graph_launches, correlation_id);
}

bool gp_profiled_graph_launch_has(uint32_t correlation_id)
{
    return is_in(&graph_launches, correlation_id);
}
