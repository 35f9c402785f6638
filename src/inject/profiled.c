/* The set of profiled correlation ids of profiled.h: the shared hash map, behind a lock. */
#include "inject/profiled.h"

#include "gpuprof/hashmap.h"

#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
/* The sets, zeroed: empty (values of size 0). Guard: lock. */
static gp_hashmap ids;
static gp_hashmap streams;
static gp_hashmap graph_launches;

void gp_profiled_add(uint32_t correlation_id)
{
    if (correlation_id == 0)
        return; /* no launch's: CUPTI's ids start at 1 */
    pthread_mutex_lock(&lock);
    gp_hashmap_add(&ids, &correlation_id, sizeof correlation_id, NULL);
    pthread_mutex_unlock(&lock);
}

bool gp_profiled_has(uint32_t correlation_id)
{
    pthread_mutex_lock(&lock);
    const bool found = gp_hashmap_find(&ids, &correlation_id, sizeof correlation_id) != NULL;
    pthread_mutex_unlock(&lock);
    return found;
}

void gp_profiled_add_stream(uint32_t stream_id)
{
    pthread_mutex_lock(&lock);
    gp_hashmap_add(&streams, &stream_id, sizeof stream_id, NULL);
    pthread_mutex_unlock(&lock);
}

bool gp_profiled_stream_has(uint32_t stream_id)
{
    pthread_mutex_lock(&lock);
    const bool found = streams.count && gp_hashmap_find(&streams, &stream_id, sizeof stream_id);
    pthread_mutex_unlock(&lock);
    return found;
}

void gp_profiled_add_graph_launch(uint32_t correlation_id)
{
    pthread_mutex_lock(&lock);
    gp_hashmap_add(&graph_launches, &correlation_id, sizeof correlation_id, NULL);
    pthread_mutex_unlock(&lock);
}

bool gp_profiled_graph_launch_has(uint32_t correlation_id)
{
    pthread_mutex_lock(&lock);
    const bool found = graph_launches.count &&
                       gp_hashmap_find(&graph_launches, &correlation_id, sizeof correlation_id);
    pthread_mutex_unlock(&lock);
    return found;
}
