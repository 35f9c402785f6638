/* Seeded, reproducible inputs: the same --seed gives the same data on every machine. */
#include "workload.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void gp_fill_int32(int32_t *dst, uint64_t n, uint64_t seed)
{
    uint64_t s = seed;
    uint64_t i = 0;
    /* Eight values per draw: the book's rand() & 0xFF, without rand()'s cost. */
    for (; i + 8 <= n; i += 8) {
        uint64_t r = splitmix64(&s);
        for (int k = 0; k < 8; k++)
            dst[i + k] = (int32_t)((r >> (8 * k)) & 0xff);
    }
    uint64_t r = splitmix64(&s);
    for (int k = 0; i < n; i++, k++)
        dst[i] = (int32_t)((r >> (8 * k)) & 0xff);
}

void gp_fill_float(float *dst, uint64_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (uint64_t i = 0; i < n; i += 2) {
        uint64_t r = splitmix64(&s);
        /* 24 random bits each: exactly representable floats in [0, 1). */
        dst[i] = (float)(r >> 40) * (1.0f / 16777216.0f);
        if (i + 1 < n)
            dst[i + 1] = (float)((r >> 8) & 0xffffff) * (1.0f / 16777216.0f);
    }
}
