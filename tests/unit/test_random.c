/* Seeded inputs: the values gpuprof has always generated for a seed, whichever number of
 * threads fills the array (the golden values below came from the one-thread generator). */
#include "tap.h"

#include "../../src/workload.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t index;
    int32_t int_value;  /* seed 1 */
    float float_value;  /* seed 7 */
} golden;

static const golden goldens[] = {
    {0, 193, 0.389829695f},        {1, 92, 0.348419964f},
    {7, 145, 0.403292239f},        {8, 103, 0.452441871f},
    {9, 236, 0.414522231f},        {1048575, 85, 0.985934377f},
    {1048576, 183, 0.903582036f},  {2097155, 37, 0.489551365f},
    {4194311, 201, 0.997582853f},  {4194316, 95, 0.658213973f},
};

/* FNV-style hash of the bit patterns, to compare whole arrays. */
static uint64_t hash(const void *data, uint64_t n)
{
    const uint32_t *w = data;
    uint64_t h = 0;
    for (uint64_t i = 0; i < n; i++)
        h = h * 1099511628211ull + w[i];
    return h;
}

static void large_arrays(void)
{
    const uint64_t n = ((uint64_t)1 << 22) + 13; /* odd: the last draw is half used */
    int32_t *a = malloc(n * sizeof *a);
    float *f = malloc(n * sizeof *f);
    if (!tap_ok(a && f, "host memory for %llu values", (unsigned long long)n)) {
        free(a);
        free(f);
        return;
    }
    gp_fill_int32(a, n, 1);
    gp_fill_float(f, n, 7);
    for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
        const golden *g = &goldens[i];
        tap_ok(a[g->index] == g->int_value && f[g->index] == g->float_value,
               "value %llu of 2^22+13: int32 %d (want %d), float %.9g (want %.9g)",
               (unsigned long long)g->index, a[g->index], g->int_value, f[g->index],
               g->float_value);
    }
    tap_ok(hash(a, n) == 13460921056953529477ull, "every int32 value as before (hash %llu)",
           (unsigned long long)hash(a, n));
    tap_ok(hash(f, n) == 10642319609504894986ull, "every float value as before (hash %llu)",
           (unsigned long long)hash(f, n));
    free(a);
    free(f);
}

/* Short arrays (one thread) are prefixes of the long stream, tails included. */
static void short_arrays(void)
{
    int32_t a[9];
    float f[9];
    for (uint64_t n = 1; n <= 9; n += 4) {
        memset(a, 0, sizeof a);
        memset(f, 0, sizeof f);
        gp_fill_int32(a, n, 1);
        gp_fill_float(f, n, 7);
        tap_ok(a[0] == 193 && f[0] == 0.389829695f && a[n - 1] != 0 && f[n - 1] != 0.0f &&
                   (n == 9 ? a[8] == 103 && f[8] == 0.452441871f : a[n] == 0 && f[n] == 0.0f),
               "%llu values: the stream's first ones, none written past the end",
               (unsigned long long)n);
    }
}

void test_random(void)
{
    large_arrays();
    short_arrays();
}
