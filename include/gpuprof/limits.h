/* What every kernel family and the command line bound their problems by: the elements' size,
 * the launch limits every supported GPU shares, the largest sizes. Declarations only: the
 * kernels (gpuprof/kernels.h) launch within them, the parser (src/cli/numparse.c) refuses what
 * exceeds them before anything runs. */
#ifndef GPUPROF_LIMITS_H
#define GPUPROF_LIMITS_H

#include <stdint.h>

/* Bytes of one element of every type in the catalogue (int32, float32). */
#define GP_ELEMENT_BYTES 4u

/* Launch limits every supported GPU (compute capability 7.5 and later) shares. */
#define GP_MAX_THREADS_PER_BLOCK 1024u
#define GP_MAX_GRID_X 2147483647ull /* 2^31 - 1 */
#define GP_MAX_GRID_Y 65535u
/* Matrix sides: unsigned in this ABI, and bounded so that every coordinate (up to a side plus
 * a tile) and every grid dimension stays far from 32-bit overflow. */
#define GP_MAX_MATRIX_SIDE (1u << 30)
/* Problem sizes: 2^36 elements (256 GiB of int32) is beyond any GPU today; the memory check
 * refuses what does not fit, with the byte counts. */
#define GP_MAX_ELEMENTS ((uint64_t)1 << 36)

#endif
