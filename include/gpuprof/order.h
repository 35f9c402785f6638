/* Three-way order of whole numbers, for the comparators qsort takes: each key of an order
 * over several keys compared the same way (src/base/order.c). */
#ifndef GPUPROF_ORDER_H
#define GPUPROF_ORDER_H

#include <stdint.h>

/* -1, 0 or 1 as a comes before, with or after b. */
int gp_order_u64(uint64_t a, uint64_t b);

#endif
