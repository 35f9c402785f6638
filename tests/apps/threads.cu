// threads: two host threads, each launching a kernel of its own 5 times on a stream of its
// own, for the tests that launches from several threads are all recorded and told apart.
//
//   threads                (no arguments)
//
// Both threads use device 0 (the primary context) and start together (a pthread barrier);
// N = 2^20 floats each, block 256, grid 4096, no dynamic shared memory:
//   thread 1: 5 x threadWorkerAdd  on its own non-blocking stream:  x[i] += 1
//   thread 2: 5 x threadWorkerMul  on its own non-blocking stream:  x[i] *= 2
// then each synchronises its stream and checks its buffer; main joins both.
// What the tests assert: threadWorkerAdd and threadWorkerMul 5 launches each, grid 4096,
// block 256, on two distinct streams; `threads: ok` on stdout, exit 0 (1 on a wrong result,
// 2 on a CUDA error).
#include "check.h"
#include <pthread.h>

#define N (1u << 20)
#define LAUNCHES 5

__global__ void threadWorkerAdd(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void threadWorkerMul(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static pthread_barrier_t start;

struct job {
    int mul;     // 0: threadWorkerAdd, 1: threadWorkerMul
    int result;  // 0 ok, 1 wrong result
};

static void *worker(void *arg)
{
    struct job *job = (struct job *)arg;
    const size_t bytes = N * sizeof(float);
    float *h = (float *)host_alloc(bytes, "threads"), *d;
    for (unsigned i = 0; i < N; i++)
        h[i] = (float)(i % 16);
    CHECK(cudaSetDevice(0));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
    pthread_barrier_wait(&start);
    const unsigned block = 256, grid = (N + block - 1) / block;
    for (int l = 0; l < LAUNCHES; l++) {
        if (job->mul)
            LAUNCH(threadWorkerMul<<<grid, block, 0, s>>>(d, N));
        else
            LAUNCH(threadWorkerAdd<<<grid, block, 0, s>>>(d, N));
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    job->result = 0;
    for (unsigned i = 0; i < N; i++) {
        const float x0 = (float)(i % 16);
        const float want = job->mul ? x0 * (float)(1 << LAUNCHES) : x0 + (float)LAUNCHES;
        if (h[i] != want) {
            fprintf(stderr, "threads: wrong result (%s): x[%u] = %g, expected %g\n",
                    job->mul ? "threadWorkerMul" : "threadWorkerAdd", i, h[i], want);
            job->result = 1;
            break;
        }
    }
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    free(h);
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    at_most_arguments(argc, 0, "threads");
    struct job jobs[2] = {{0, 1}, {1, 1}};
    pthread_t tid[2];
    if (pthread_barrier_init(&start, NULL, 2)) {
        fprintf(stderr, "threads: pthread_barrier_init failed\n");
        return 2;
    }
    for (int t = 0; t < 2; t++)
        if (pthread_create(&tid[t], NULL, worker, &jobs[t])) {
            fprintf(stderr, "threads: pthread_create failed\n");
            return 2;
        }
    for (int t = 0; t < 2; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);
    return run_status(jobs[0].result || jobs[1].result, "threads");
}
