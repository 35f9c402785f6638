/* The three-way order of gpuprof/order.h. Base layer: never prints, never exits, never links
 * cudart. */
#include "gpuprof/order.h"

int gp_order_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}
