/* Seeded, reproducible inputs: the same --seed gives the same data on every machine.
 *
 * splitmix64's k-th draw depends only on the seed and k, so a large array is filled by
 * several threads, each starting at its own chunk, and holds the same values one thread
 * would write. (Filling 2^24 values took 41 ms of gpuprof's start-up on one thread.) */
#include "workload.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ull
#define PARALLEL_MIN ((uint64_t)1 << 20) /* elements; below this a thread costs more */
#define MAX_THREADS 8

/* Draw k (from 0) of the splitmix64 stream that starts at `seed`. */
static uint64_t draw(uint64_t seed, uint64_t k)
{
    uint64_t z = seed + (k + 1) * GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Eight values per draw: the book's rand() & 0xFF, without rand()'s cost. */
#define INT32_PER_DRAW 8
static void fill_int32_range(void *dst, uint64_t begin, uint64_t end, uint64_t seed)
{
    int32_t *x = dst;
    for (uint64_t i = begin; i < end; i += INT32_PER_DRAW) {
        const uint64_t r = draw(seed, i / INT32_PER_DRAW);
        for (uint64_t k = 0; k < INT32_PER_DRAW && i + k < end; k++)
            x[i + k] = (int32_t)((r >> (8 * k)) & 0xff);
    }
}

/* Two values per draw, 24 random bits each: exactly representable floats in [0, 1). */
#define FLOAT_PER_DRAW 2
static void fill_float_range(void *dst, uint64_t begin, uint64_t end, uint64_t seed)
{
    float *x = dst;
    for (uint64_t i = begin; i < end; i += FLOAT_PER_DRAW) {
        const uint64_t r = draw(seed, i / FLOAT_PER_DRAW);
        x[i] = (float)(r >> 40) * (1.0f / 16777216.0f);
        if (i + 1 < end)
            x[i + 1] = (float)((r >> 8) & 0xffffff) * (1.0f / 16777216.0f);
    }
}

typedef void (*fill_fn)(void *dst, uint64_t begin, uint64_t end, uint64_t seed);

typedef struct {
    fill_fn fill;
    void *dst;
    uint64_t begin, end, seed;
} chunk;

static void *fill_chunk(void *arg)
{
    const chunk *c = arg;
    c->fill(c->dst, c->begin, c->end, c->seed);
    return NULL;
}

static unsigned thread_count(uint64_t n)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < PARALLEL_MIN || cpus < 2)
        return 1;
    return cpus < MAX_THREADS ? (unsigned)cpus : MAX_THREADS;
}

/* Chunks start at multiples of `per_draw`, where a draw begins. A thread that cannot be
 * started leaves its chunk to this one. */
static void fill(fill_fn fn, void *dst, uint64_t n, uint64_t seed, uint64_t per_draw)
{
    const unsigned threads = thread_count(n);
    const uint64_t share = (n + threads - 1) / threads;
    const uint64_t per = (share + per_draw - 1) / per_draw * per_draw;
    chunk chunks[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (unsigned k = 0; k < threads; k++) {
        const uint64_t begin = k * per < n ? k * per : n;
        chunks[k] = (chunk){fn, dst, begin, begin + per < n ? begin + per : n, seed};
        if (k > 0)
            started[k] = pthread_create(&tid[k], NULL, fill_chunk, &chunks[k]) == 0;
    }
    fill_chunk(&chunks[0]);
    for (unsigned k = 1; k < threads; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            fill_chunk(&chunks[k]);
    }
}

void gp_fill_int32(int32_t *dst, uint64_t n, uint64_t seed)
{
    fill(fill_int32_range, dst, n, seed, INT32_PER_DRAW);
}

void gp_fill_float(float *dst, uint64_t n, uint64_t seed)
{
    fill(fill_float_range, dst, n, seed, FLOAT_PER_DRAW);
}
