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
#include "check.h"

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

#define USAGE "streams [LAUNCHES (1-1000)]"

int main(int argc, char **argv)
{
    at_most_arguments(argc, 1, USAGE);
    const int launches = (int)decimal_argument(argc, argv, 1, 3, 1, 1000, USAGE);
    const unsigned n = (1u << 20) + 3;
    const size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)host_alloc(bytes, "streams");
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
        float *r = (float *)host_alloc(bytes, "streams");
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
    return run_status(bad, "streams");
}
