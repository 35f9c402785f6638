/* The set of profiled correlation ids of profiled.h. */
#include "exec/inject/profiled.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t profiled_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *profiled_ids;     /* open addressing; 0 is free (ids start at 1) */
static size_t profiled_slots, n_profiled_ids;

static bool insert_id(uint32_t *slots, size_t n, uint32_t id)
{
    for (size_t i = id & (n - 1);; i = (i + 1) & (n - 1)) {
        if (slots[i] == id)
            return false;
        if (slots[i] == 0) {
            slots[i] = id;
            return true;
        }
    }
}

void gp_profiled_add(uint32_t id)
{
    pthread_mutex_lock(&profiled_lock);
    if (2 * (n_profiled_ids + 1) > profiled_slots) {
        size_t slots = profiled_slots ? 2 * profiled_slots : 1024;
        uint32_t *bigger = calloc(slots, sizeof *bigger);
        for (size_t i = 0; bigger && i < profiled_slots; i++)
            if (profiled_ids[i])
                insert_id(bigger, slots, profiled_ids[i]);
        if (bigger) {
            free(profiled_ids);
            profiled_ids = bigger;
            profiled_slots = slots;
        }
    }
    if (profiled_ids && 2 * (n_profiled_ids + 1) <= profiled_slots)
        n_profiled_ids += insert_id(profiled_ids, profiled_slots, id);
    pthread_mutex_unlock(&profiled_lock);
}

bool gp_profiled_has(uint32_t id)
{
    bool found = false;
    pthread_mutex_lock(&profiled_lock);
    for (size_t i = id & (profiled_slots - 1); profiled_slots && profiled_ids[i];
         i = (i + 1) & (profiled_slots - 1))
        if (profiled_ids[i] == id) {
            found = true;
            break;
        }
    pthread_mutex_unlock(&profiled_lock);
    return found;
}
