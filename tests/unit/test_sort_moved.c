/* The stable sort that tells where each element went (src/report/sort_moved.c), which the
 * rank view's ranks and a kernel's source lines are sorted with. */
#include "tap.h"

#include "gpuprof/status.h"
#include "report/sort_moved.h"

#include <stdlib.h>

typedef struct {
    int key;
    int came;                   /* its place before the sort */
} element;

static int by_key(const void *a, const void *b)
{
    const element *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* Every length from 0 to 40 (runs of every length meet at the array's end), with ties: the
 * keys come out in order, ties in the order they came, and moved[i] is where element i
 * went. */
static void sorts_stably(void)
{
    bool sorted = true, ordered = true, stable = true, followed = true;
    for (size_t n = 0; n <= 40; n++) {
        element e[40];
        for (size_t i = 0; i < n; i++)
            e[i] = (element){.key = (int)((i * 7 + 3) % 5), .came = (int)i};
        size_t *moved = NULL;
        sorted = gp_sort_moved(e, n, sizeof *e, by_key, &moved) == GP_OK && moved;
        if (!sorted)
            break;
        for (size_t i = 1; i < n; i++) {
            ordered = ordered && e[i - 1].key <= e[i].key;
            stable = stable && (e[i - 1].key < e[i].key || e[i - 1].came < e[i].came);
        }
        for (size_t i = 0; i < n; i++)
            followed = followed && e[moved[i]].came == (int)i;
        free(moved);
    }
    tap_ok(sorted, "sort_moved: arrays of 0 to 40 elements sorted");
    tap_ok(ordered, "sort_moved: the keys in order");
    tap_ok(stable, "sort_moved: equal keys in the order they came");
    tap_ok(followed, "sort_moved: moved[i] is where element i went");
}

void test_sort_moved(void)
{
    sorts_stably();
}
