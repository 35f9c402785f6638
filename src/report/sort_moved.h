/* Sorting an array whose elements other arrays name by index (sort_moved.c): the rank view's
 * ranks, which its cells name, and a kernel's source lines, which its instructions name.
 * Private to src/report/. */
#ifndef GPUPROF_REPORT_SORT_MOVED_H
#define GPUPROF_REPORT_SORT_MOVED_H

#include <stddef.h>

/* Sorts the n elements of `size` bytes at base by cmp, equal elements kept in their order;
 * *moved (n entries, to be freed) gives the index element i went to, for the arrays that name
 * them to follow. */
int gp_sort_moved(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
                  size_t **moved);

#endif
