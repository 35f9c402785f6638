/* Seeded inputs: the values gpuprof has always generated for a seed, whichever number of
 * threads fills the array (the golden values below came from the one-thread generator), and
 * the sums the checks take of streams they do not store. */
#include "tap.h"

#include "catalogue/workload.h"
#include "gpuprof/seeded.h"

#include <stdbool.h>
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

/* The int32 stream, one value at a time (the device fills its arrays from the same
 * functions). */
static void fill_int32_serially(int32_t *a, uint64_t n, uint64_t seed)
{
    for (uint64_t i = 0; i < n; i++)
        a[i] = gp_seeded_int32_of(gp_seeded_draw(seed, i / GP_INT32_PER_DRAW),
                                  (unsigned)(i % GP_INT32_PER_DRAW));
}

/* FNV-style hash of the bit patterns, to compare whole arrays. */
static uint64_t hash(const void *data, uint64_t n)
{
    const uint32_t *w = data;
    uint64_t h = 0;
    for (uint64_t i = 0; i < n; i++)
        h = h * 1099511628211ull + w[i];
    return h;
}

/* An int32 and a float array of n values each; false (and nothing held) without memory. */
static bool arrays(uint64_t n, int32_t **a, float **f)
{
    *a = malloc(n * sizeof **a);
    *f = malloc(n * sizeof **f);
    if (tap_ok(*a && *f, "host memory for %llu values", (unsigned long long)n))
        return true;
    free(*a);
    free(*f);
    return false;
}

static void large_arrays(void)
{
    const uint64_t n = ((uint64_t)1 << 22) + 13; /* odd: the last draw is half used */
    int32_t *a;
    float *f;
    if (!arrays(n, &a, &f))
        return;
    fill_int32_serially(a, n, 1);
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
        fill_int32_serially(a, n, 1);
        gp_fill_float(f, n, 7);
        tap_ok(a[0] == 193 && f[0] == 0.389829695f && a[n - 1] != 0 && f[n - 1] != 0.0f &&
                   (n == 9 ? a[8] == 103 && f[8] == 0.452441871f : a[n] == 0 && f[n] == 0.0f),
               "%llu values: the stream's first ones, none written past the end",
               (unsigned long long)n);
    }
}

/* The sums of streams nobody stores equal the sums of the stored arrays, one value at a
 * time, for lengths that end inside a draw and for the split into threads. */
static void sums(void)
{
    const uint64_t lengths[] = {0, 1, 9, 1000003, ((uint64_t)1 << 22) + 13};
    int32_t *a;
    float *f;
    if (!arrays(lengths[sizeof lengths / sizeof lengths[0] - 1], &a, &f))
        return;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        const uint64_t n = lengths[l];
        fill_int32_serially(a, n, 3);
        gp_fill_float(f, n, 5);
        int64_t want_int = 0;
        double want = 0.0;
        for (uint64_t i = 0; i < n; i++) {
            want_int += a[i];
            want += f[i];
        }
        double sum = -1.0, abs_sum = -1.0;
        gp_seeded_float_sum(n, 5, &sum, &abs_sum);
        const int64_t got_int = gp_seeded_int32_sum(n, 3);
        /* Below 2^29 a double sum of multiples of 2^-24 is exact, in any order. */
        tap_ok(got_int == want_int && sum == want && abs_sum == want,
               "sums of %llu values: int32 %lld (want %lld), float %.17g and |.| %.17g "
               "(want %.17g)", (unsigned long long)n, (long long)got_int,
               (long long)want_int, sum, abs_sum, want);
    }
    tap_ok(gp_seeded_int32_sum(1000003, 3) != gp_seeded_int32_sum(1000003, 4),
           "another seed, another int32 sum");
    free(a);
    free(f);
}

void test_random(void)
{
    large_arrays();
    short_arrays();
    sums();
}
