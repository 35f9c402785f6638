/* The seeded inputs' generator, one definition for the host (src/catalogue/random.c) and the device
 * (kernels/random.cu), so the inputs a kernel reads on the GPU and the values the CPU checks
 * it against are the same numbers.
 *
 * splitmix64: draw k depends only on the seed and k, so any thread, host or device, can
 * produce any part of the stream. int32: eight values per draw, byte j of the draw (the
 * book's rand() & 0xFF); float32: two values per draw, 24 random bits each, exactly
 * representable in [0, 1). */
#ifndef GPUPROF_SEEDED_H
#define GPUPROF_SEEDED_H

#include <stdint.h>

#ifdef __CUDACC__
#define GP_HOST_DEVICE __host__ __device__
#else
#define GP_HOST_DEVICE
#endif

#define GP_INT32_PER_DRAW 8
#define GP_FLOAT_PER_DRAW 2

/* Draw k (from 0) of the splitmix64 stream that starts at `seed`. */
static inline GP_HOST_DEVICE uint64_t gp_seeded_draw(uint64_t seed, uint64_t k)
{
    uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Value j (0 to 7) of a draw: int32 in [0, 255]. */
static inline GP_HOST_DEVICE int32_t gp_seeded_int32_of(uint64_t draw, unsigned j)
{
    return (int32_t)((draw >> (8 * j)) & 0xff);
}

/* Value j (0 or 1) of a draw: float32 in [0, 1), a multiple of 2^-24. */
static inline GP_HOST_DEVICE float gp_seeded_float_of(uint64_t draw, unsigned j)
{
    const uint64_t bits = j == 0 ? draw >> 40 : (draw >> 8) & 0xffffff;
    return (float)bits * (1.0f / 16777216.0f);
}

#endif
