// streams: four non-blocking streams, a kernel of its own and a launch shape of its own on
// each, several launches per stream, for the tests of per-stream attribution.
//
//   streams [LAUNCHES]     default 3 launches per stream (1-1000)
//
// Stream s (created in order 0..3 with cudaStreamNonBlocking) runs LAUNCHES launches of
// its kernel on a buffer of its own of N = 2^20 + 3 floats (a partial last block), all
// queued before one cudaDeviceSynchronize, so the streams may overlap:
//   s  kernel        adds   block   grid                        dynamic shared memory
//   0  streamAlpha   1      128     8193 (ceil(N / 128))        0
//   1  streamBeta    2      256     4097                        0
//   2  streamGamma   3      512     2049                        0
//   3  streamDelta   4      1024    1025                        4096 B (block x 4, used)
// What the tests assert: LAUNCHES launches of each kernel, those four launch shapes and
// dynamic shared memory sizes, four distinct stream ids (all launches of one kernel on one
// stream, none of them the default stream's), and `streams: ok` on stdout, exit 0 (1 on a
// wrong result, 2 on a usage or CUDA error).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "app: %s failed: %s\n", #call, cudaGetErrorString(err_));    \
            exit(2);                                                                     \
        }                                                                                \
    } while (0)

#define NSTREAMS 4

__global__ void streamAlpha(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void streamBeta(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 2.0f;
}

__global__ void streamGamma(float *x, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 3.0f;
}

// Goes through dynamic shared memory (blockDim.x floats): each thread stages its element,
// then after a barrier writes back the mirrored one (slot blockDim.x - 1 - t) plus 4.
__global__ void streamDelta(float *x, unsigned n)
{
    extern __shared__ float stage[];
    const unsigned base = blockIdx.x * blockDim.x;
    const unsigned t = threadIdx.x, m = blockDim.x - 1 - t;
    if (base + t < n)
        stage[t] = x[base + t];
    __syncthreads();
    if (base + m < n)
        x[base + m] = stage[m] + 4.0f;
}

static void usage(void)
{
    fprintf(stderr, "usage: streams [LAUNCHES (1-1000)]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int launches = 3;
    if (argc > 2)
        usage();
    if (argc > 1) {
        char *end;
        const long l = strtol(argv[1], &end, 10);
        if (*end || end == argv[1] || l < 1 || l > 1000)
            usage();
        launches = (int)l;
    }
    const unsigned n = (1u << 20) + 3;
    const size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)malloc(bytes);
    if (!h) {
        fprintf(stderr, "streams: out of host memory\n");
        return 2;
    }
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 100);
    cudaStream_t st[NSTREAMS];
    float *d[NSTREAMS];
    for (int s = 0; s < NSTREAMS; s++) {
        CHECK(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking));
        CHECK(cudaMalloc(&d[s], bytes));
        CHECK(cudaMemcpy(d[s], h, bytes, cudaMemcpyHostToDevice));
    }
    // A pageable copy may return before its DMA ends, and non-blocking streams do not wait
    // for the legacy default stream.
    CHECK(cudaDeviceSynchronize());
    for (int l = 0; l < launches; l++) {
        for (int s = 0; s < NSTREAMS; s++) {
            const unsigned block = 128u << s, grid = (n + block - 1) / block;
            switch (s) {
            case 0: streamAlpha<<<grid, block, 0, st[s]>>>(d[s], n); break;
            case 1: streamBeta<<<grid, block, 0, st[s]>>>(d[s], n); break;
            case 2: streamGamma<<<grid, block, 0, st[s]>>>(d[s], n); break;
            default:
                streamDelta<<<grid, block, block * sizeof(float), st[s]>>>(d[s], n);
                break;
            }
            CHECK(cudaGetLastError());
        }
    }
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int s = 0; s < NSTREAMS && !bad; s++) {
        float *r = (float *)malloc(bytes);
        if (!r) {
            fprintf(stderr, "streams: out of host memory\n");
            return 2;
        }
        CHECK(cudaMemcpy(r, d[s], bytes, cudaMemcpyDeviceToHost));
        for (unsigned i = 0; i < n; i++) {
            const float want = (float)(i % 100) + (float)((s + 1) * launches);
            if (r[i] != want) {
                fprintf(stderr, "streams: wrong result on stream %d: x[%u] = %g, expected %g\n",
                        s, i, r[i], want);
                bad = 1;
                break;
            }
        }
        free(r);
    }
    for (int s = 0; s < NSTREAMS; s++) {
        CHECK(cudaFree(d[s]));
        CHECK(cudaStreamDestroy(st[s]));
    }
    free(h);
    if (bad)
        return 1;
    printf("streams: ok\n");
    return 0;
}
