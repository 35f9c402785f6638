/* The stable sort of report/sort_moved.h: a merge sort of the elements' indices, then the
 * elements moved once into their order. */
#include "report/sort_moved.h"

#include "gpuprof/status.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef int compare(const void *, const void *);

/* The runs from[lo, mid) and from[mid, hi), each in order, merged into to[lo, hi); on a tie
 * the left run's index first. */
static void merge(const char *base, size_t size, compare *cmp, const size_t *from, size_t *to,
                  size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid;
    for (size_t k = lo; k < hi; k++)
        to[k] = j >= hi || (i < mid && cmp(base + from[j] * size, base + from[i] * size) >= 0)
                    ? from[i++]
                    : from[j++];
}

/* The elements' indices in their sorted order (order and scratch: n entries each). */
static size_t *sorted_order(const char *base, size_t n, size_t size, compare *cmp,
                            size_t *order, size_t *scratch)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            const size_t mid = lo + width < n ? lo + width : n;
            merge(base, size, cmp, order, scratch, lo, mid, mid + width < n ? mid + width : n);
        }
        size_t *t = order;
        order = scratch;
        scratch = t;
    }
    return order;
}

/* The elements put in their order, each one's new index in moved (sorted: room for them). */
static void move_all(char *base, size_t n, size_t size, const size_t *by, char *sorted,
                     size_t *moved)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(sorted + i * size, base + by[i] * size, size);
        moved[by[i]] = i;
    }
    memcpy(base, sorted, n * size);
}

int gp_sort_moved(void *base, size_t n, size_t size, compare *cmp, size_t **moved)
{
    const size_t room = n ? n : 1;
    size_t *order = malloc(room * sizeof *order), *scratch = malloc(room * sizeof *scratch);
    char *sorted = malloc(room * size);
    *moved = malloc(room * sizeof **moved);
    const bool found = order && scratch && sorted && *moved;
    if (found && n > 0)
        move_all(base, n, size, sorted_order(base, n, size, cmp, order, scratch), sorted,
                 *moved);
    free(order);
    free(scratch);
    free(sorted);
    if (found)
        return GP_OK;
    free(*moved);
    *moved = NULL;
    return gp_fail(GP_ERR_RUNTIME, "out of host memory");
}
