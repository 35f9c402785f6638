/* gp_append_zeroed (gpuprof/report.h): the growable arrays of the report, the records' reader
 * and the rank view, apart from report.c so that the rank view (ranks.c), which report.c
 * frees, does not use report.c in turn. */
#include "gpuprof/report.h"

#include <stdlib.h>
#include <string.h>

/* The array doubles: a program may launch or copy a million times. */
void *gp_append_zeroed(void *items, size_t *n, size_t *capacity, size_t elem)
{
    void **array = items;
    if (*n == *capacity) {
        const size_t bigger = *capacity ? 2 * *capacity : 16;
        void *grown = realloc(*array, bigger * elem);
        if (!grown)
            return NULL;
        *array = grown;
        *capacity = bigger;
    }
    void *slot = (char *)*array + (*n)++ * elem;
    memset(slot, 0, elem);
    return slot;
}

void *gp_append_named(void *items, size_t *n, size_t *capacity, size_t elem, const char *name,
                      char **copy)
{
    *copy = strdup(name);
    void *slot = *copy ? gp_append_zeroed(items, n, capacity, elem) : NULL;
    if (!slot) {
        free(*copy);
        *copy = NULL;
    }
    return slot;
}
