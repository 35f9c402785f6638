/* Seeded, reproducible inputs on the host: the same --seed gives the same data on every
 * machine, and the same numbers the device generates (include/gpuprof/seeded.h).
 *
 * The device holds the inputs; the host fills an array only where a check compares element
 * by element, and otherwise regenerates the stream to sum it, storing nothing. A draw depends
 * only on the seed and its index, so a long stream is split into chunks that threads process
 * side by side: a long stream takes a noticeable share of start-up on one thread. */
#include "catalogue/workload.h"

#include "gpuprof/seeded.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#define PARALLEL_MIN ((uint64_t)1 << 20) /* values; below this a thread costs more */
#define MAX_THREADS 8

/* Values [begin, end) of the stream, and what was made of them. */
typedef struct chunk {
    void (*work)(struct chunk *c);
    float *dst;               /* filling: the whole array */
    uint64_t begin, end, seed;
    int64_t int_sum;          /* summing: this chunk's sums */
    double sum, abs_sum;
} chunk;

static void fill_float_chunk(chunk *c)
{
    for (uint64_t i = c->begin; i < c->end; i += GP_FLOAT_PER_DRAW) {
        const uint64_t draw = gp_seeded_draw(c->seed, i / GP_FLOAT_PER_DRAW);
        for (unsigned j = 0; j < GP_FLOAT_PER_DRAW && i + j < c->end; j++)
            c->dst[i + j] = gp_seeded_float_of(draw, j);
    }
}

static void sum_int32_chunk(chunk *c)
{
    int64_t s = 0;
    for (uint64_t i = c->begin; i < c->end; i += GP_INT32_PER_DRAW) {
        const uint64_t draw = gp_seeded_draw(c->seed, i / GP_INT32_PER_DRAW);
        for (unsigned j = 0; j < GP_INT32_PER_DRAW && i + j < c->end; j++)
            s += gp_seeded_int32_of(draw, j);
    }
    c->int_sum = s;
}

static void sum_float_chunk(chunk *c)
{
    double s = 0.0, a = 0.0;
    for (uint64_t i = c->begin; i < c->end; i += GP_FLOAT_PER_DRAW) {
        const uint64_t draw = gp_seeded_draw(c->seed, i / GP_FLOAT_PER_DRAW);
        for (unsigned j = 0; j < GP_FLOAT_PER_DRAW && i + j < c->end; j++) {
            const double x = gp_seeded_float_of(draw, j);
            s += x;
            a += fabs(x);
        }
    }
    c->sum = s;
    c->abs_sum = a;
}

static void *run_chunk(void *arg)
{
    chunk *c = arg;
    c->work(c);
    return NULL;
}

/* Split n values into `count` chunks that start where a draw begins, and process them, one
 * thread each; a thread that cannot be started leaves its chunk to this one. */
static void process(chunk *chunks, unsigned count, const chunk *proto, uint64_t n,
                    uint64_t per_draw)
{
    const uint64_t share = (n + count - 1) / count;
    const uint64_t per = (share + per_draw - 1) / per_draw * per_draw;
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (unsigned k = 0; k < count; k++) {
        chunks[k] = *proto;
        chunks[k].begin = k * per < n ? k * per : n;
        chunks[k].end = chunks[k].begin + per < n ? chunks[k].begin + per : n;
        if (k > 0)
            started[k] = pthread_create(&tid[k], NULL, run_chunk, &chunks[k]) == 0;
    }
    run_chunk(&chunks[0]);
    for (unsigned k = 1; k < count; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            run_chunk(&chunks[k]);
    }
}

/* Filling: as many chunks as there are processors (up to MAX_THREADS); the values do not
 * depend on how the stream is split. */
static unsigned fill_chunks(uint64_t n)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < PARALLEL_MIN || cpus < 2)
        return 1;
    return cpus < MAX_THREADS ? (unsigned)cpus : MAX_THREADS;
}

/* Summing: a split that depends on n alone, so a double sum rounds the same everywhere. */
static unsigned sum_chunks(uint64_t n)
{
    return n < PARALLEL_MIN ? 1 : MAX_THREADS;
}

void gp_fill_float(float *dst, uint64_t n, uint64_t seed)
{
    chunk chunks[MAX_THREADS], proto = {.work = fill_float_chunk, .dst = dst, .seed = seed};
    process(chunks, fill_chunks(n), &proto, n, GP_FLOAT_PER_DRAW);
}

int64_t gp_seeded_int32_sum(uint64_t n, uint64_t seed)
{
    chunk chunks[MAX_THREADS], proto = {.work = sum_int32_chunk, .seed = seed};
    const unsigned count = sum_chunks(n);
    process(chunks, count, &proto, n, GP_INT32_PER_DRAW);
    int64_t s = 0;
    for (unsigned k = 0; k < count; k++)
        s += chunks[k].int_sum;
    return s;
}

void gp_seeded_float_sum(uint64_t n, uint64_t seed, double *sum, double *abs_sum)
{
    chunk chunks[MAX_THREADS], proto = {.work = sum_float_chunk, .seed = seed};
    const unsigned count = sum_chunks(n);
    process(chunks, count, &proto, n, GP_FLOAT_PER_DRAW);
    *sum = 0.0;
    *abs_sum = 0.0;
    for (unsigned k = 0; k < count; k++) {
        *sum += chunks[k].sum;
        *abs_sum += chunks[k].abs_sum;
    }
}
