// The reduce family: "Professional CUDA C Programming" ch. 3.4–3.5 (reduceNeighbored …
// reduceCompleteUnroll<iBlockSize>), the __threadfence single-pass reduction of the CUDA C
// Programming Guide, and two references: a modern single-pass kernel and CUB.
//
// What differs from the book, and why:
//  * Any n: grids round up, and every in-block step checks that its partner element exists
//    (`valid`), so the tail is summed instead of dropped and nothing past n is read.
//  * No early `return` before __syncthreads() (undefined behaviour in the book's version).
//  * The last-warp unrolling is warp-synchronous through __syncwarp() between the read and the
//    write of each step: Volta and later do not run a warp in lock-step, and the book's
//    volatile-only version races there.
//  * Integer totals are 64-bit (the book's int total overflows past 2^31); the per-block
//    partials of the book's kernels stay in the input type, as in the book, and are summed
//    on the host in 64 bits.
#include "common.cuh"
#include "gpuprof/reduce.h"

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

namespace {

template <typename T> struct Total;
template <> struct Total<int> { using type = long long; };
template <> struct Total<float> { using type = float; };

// Elements of the chunk starting at `base` that exist (the last block has fewer).
__device__ __forceinline__ unsigned valid_count(size_t base, size_t n, unsigned chunk)
{
    const size_t left = n - base;
    return left < chunk ? (unsigned)left : chunk;
}

// ---- book 3.4.2: neighbored pairs, divergent warps ------------------------------------
template <typename T>
__global__ void reduceNeighbored(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x;
    T *idata = g_idata + base;
    const unsigned valid = valid_count(base, n, blockDim.x);
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0 && tid + stride < valid)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// ---- book 3.4.3: neighbored pairs, contiguous active threads ----------------------------
template <typename T>
__global__ void reduceNeighboredLess(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x;
    T *idata = g_idata + base;
    const unsigned valid = valid_count(base, n, blockDim.x);
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x && index + stride < valid)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// In-place interleaved tree over idata[0 .. valid), down to `last_stride` (exclusive).
template <typename T>
__device__ __forceinline__ void interleaved_steps(T *idata, unsigned tid, unsigned valid,
                                                  unsigned last_stride)
{
    for (unsigned stride = blockDim.x / 2; stride > last_stride; stride >>= 1) {
        if (tid < stride && tid + stride < valid)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
}

// ---- book 3.4.4: interleaved pairs ----------------------------------------------------
template <typename T>
__global__ void reduceInterleaved(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x;
    T *idata = g_idata + base;
    interleaved_steps(idata, tid, valid_count(base, n, blockDim.x), 0);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// Each thread first adds U elements one block apart (book 3.5.1); the tail block adds the
// ones that exist. Afterwards idata[0 .. valid) holds the block's values.
template <typename T, int U>
__device__ __forceinline__ void add_data_blocks(T *g_idata, size_t idx, size_t n)
{
    const size_t step = blockDim.x;
    if (idx + (U - 1) * step < n) {
        T a[U];
#pragma unroll
        for (int k = 0; k < U; k++)
            a[k] = g_idata[idx + k * step];
        T sum = a[0];
#pragma unroll
        for (int k = 1; k < U; k++)
            sum += a[k];
        g_idata[idx] = sum;
    } else if (idx < n) {
        T sum = g_idata[idx];
        for (int k = 1; k < U; k++)
            if (idx + k * step < n)
                sum += g_idata[idx + k * step];
        g_idata[idx] = sum;
    }
}

// ---- book 3.5.1: reduceUnrolling2/4/8 -----------------------------------------------------
template <typename T, int U>
__global__ void reduceUnrolling(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x * U;
    T *idata = g_idata + base;
    add_data_blocks<T, U>(g_idata, base + tid, n);
    __syncthreads();
    interleaved_steps(idata, tid, valid_count(base, n, blockDim.x), 0);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// The last 64 → 1 steps by one warp (tid < 32). Each step reads, __syncwarp(), writes,
// __syncwarp(): the book's volatile-only version relies on lock-step warps, which Volta and
// later no longer guarantee.
template <typename T>
__device__ __forceinline__ void last_warp(T *idata, unsigned tid, unsigned valid)
{
    volatile T *vmem = idata;
    T v = tid < valid ? vmem[tid] : T(0);
#pragma unroll
    for (unsigned s = 32; s > 0; s >>= 1) {
        if (tid + s < valid)
            v += vmem[tid + s];
        __syncwarp();
        if (tid < valid)
            vmem[tid] = v;
        __syncwarp();
    }
}

// ---- book 3.5.2: reduceUnrollWarps8 -----------------------------------------------------
template <typename T>
__global__ void reduceUnrollWarps8(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x * 8;
    T *idata = g_idata + base;
    add_data_blocks<T, 8>(g_idata, base + tid, n);
    __syncthreads();
    const unsigned valid = valid_count(base, n, blockDim.x);
    interleaved_steps(idata, tid, valid, 32);
    if (tid < 32)
        last_warp(idata, tid, valid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// Strides 512 … 64 written out; `block` is blockDim.x at run time or a template constant.
template <typename T>
__device__ __forceinline__ void unrolled_steps(T *idata, unsigned tid, unsigned valid,
                                               unsigned block)
{
    if (block >= 1024 && tid < 512 && tid + 512 < valid)
        idata[tid] += idata[tid + 512];
    __syncthreads();
    if (block >= 512 && tid < 256 && tid + 256 < valid)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (block >= 256 && tid < 128 && tid + 128 < valid)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (block >= 128 && tid < 64 && tid + 64 < valid)
        idata[tid] += idata[tid + 64];
    __syncthreads();
}

// ---- book 3.5.3: reduceCompleteUnrollWarps8 --------------------------------------------
template <typename T>
__global__ void reduceCompleteUnrollWarps8(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * blockDim.x * 8;
    T *idata = g_idata + base;
    add_data_blocks<T, 8>(g_idata, base + tid, n);
    __syncthreads();
    const unsigned valid = valid_count(base, n, blockDim.x);
    unrolled_steps(idata, tid, valid, blockDim.x);
    if (tid < 32)
        last_warp(idata, tid, valid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// ---- book 3.5.4: reduceCompleteUnroll<iBlockSize> --------------------------------------
template <typename T, unsigned iBlockSize>
__global__ void reduceCompleteUnroll(T *g_idata, T *g_odata, size_t n)
{
    const unsigned tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * iBlockSize * 8;
    T *idata = g_idata + base;
    add_data_blocks<T, 8>(g_idata, base + tid, n);
    __syncthreads();
    const unsigned valid = valid_count(base, n, iBlockSize);
    unrolled_steps(idata, tid, valid, iBlockSize);
    if (tid < 32)
        last_warp(idata, tid, valid);
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

// The last block to finish adds the partials up (CUDA C Programming Guide, __threadfence()).
// The counter wraps back to 0 on the last ticket, so the next launch needs no reset.
template <typename A>
__device__ __forceinline__ void finish_last_block(A block_sum, volatile A *partials, A *total,
                                                  unsigned *count)
{
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence();  // the partial is visible device-wide before the ticket is taken
        const unsigned ticket = atomicInc(count, gridDim.x - 1);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last) {
        A s = A(0);
        for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
            s += partials[i];
        s = gp_block_sum(s);
        if (threadIdx.x == 0)
            *total = s;
    }
}

// ---- single pass with __threadfence ------------------------------------------------------
template <typename T>
__global__ void reduceThreadfence(const T *in, typename Total<T>::type *partials,
                                  typename Total<T>::type *total, unsigned *count, size_t n)
{
    using A = typename Total<T>::type;
    A sum = A(0);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        sum += in[i];
    sum = gp_block_sum(sum);
    finish_last_block<A>(sum, partials, total, count);
}

template <typename T> struct Vec4;
template <> struct Vec4<int> { using type = int4; };
template <> struct Vec4<float> { using type = float4; };

// ---- modern: 16-byte loads, 4 in flight per thread, grid-stride, shuffles, one pass --------
template <typename T>
__global__ void reduceShfl(const T *__restrict__ in, typename Total<T>::type *partials,
                           typename Total<T>::type *total, unsigned *count, size_t n)
{
    using A = typename Total<T>::type;
    using V = typename Vec4<T>::type;
    const V *vin = reinterpret_cast<const V *>(in);
    const size_t nvec = n / 4;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    A s0 = A(0), s1 = A(0), s2 = A(0), s3 = A(0);
    size_t i = first;
    for (; i + 3 * stride < nvec; i += 4 * stride) {
        const V a = __ldg(vin + i), b = __ldg(vin + i + stride);
        const V c = __ldg(vin + i + 2 * stride), d = __ldg(vin + i + 3 * stride);
        s0 += (A)a.x + (A)a.y + (A)a.z + (A)a.w;
        s1 += (A)b.x + (A)b.y + (A)b.z + (A)b.w;
        s2 += (A)c.x + (A)c.y + (A)c.z + (A)c.w;
        s3 += (A)d.x + (A)d.y + (A)d.z + (A)d.w;
    }
    for (; i < nvec; i += stride) {
        const V a = __ldg(vin + i);
        s0 += (A)a.x + (A)a.y + (A)a.z + (A)a.w;
    }
    if (first < n - nvec * 4)  // the n % 4 elements after the last full vector
        s0 += (A)in[nvec * 4 + first];
    A sum = gp_block_sum((s0 + s1) + (s2 + s3));
    finish_last_block<A>(sum, partials, total, count);
}

// ---- launchers ----------------------------------------------------------------------------

template <typename T, typename Kernel>
int launch_partials(const gp_reduce_args *a, const gp_hooks *h, const char *name,
                    Kernel kernel, unsigned per_thread)
{
    const dim3 block(a->block);
    const dim3 grid(gp_ceil_div(a->n, (unsigned long long)a->block * per_thread));
    return gp_launch(h, gp_info(name, grid, block), [&] {
        kernel<<<grid, block>>>((T *)a->in, (T *)a->partials, (size_t)a->n);
    });
}

// Calls f(T{}) with T the element type of the request.
template <typename F>
int with_type(gp_dtype dtype, F &&f)
{
    if (dtype == GP_INT32)
        return f(int{});
    return f(float{});
}

// Blocks of `kernel` that fit on the device at once: the grid of the persistent kernels.
int persistent_grid(const void *kernel, unsigned block, unsigned *grid)
{
    int device = 0, sms = 0, per_sm = 0;
    GP_CUDA(cudaGetDevice(&device));
    GP_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    GP_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)block, 0));
    *grid = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
    return GP_OK;
}

template <typename T>
int launch_single_pass(const gp_reduce_args *a, const gp_hooks *h, bool vectorised)
{
    using A = typename Total<T>::type;
    const void *kernel = vectorised ? (const void *)reduceShfl<T> : (const void *)reduceThreadfence<T>;
    unsigned grid_max = 0;
    GP_TRY(persistent_grid(kernel, a->block, &grid_max));
    // No more blocks than there is work for: a block per `block` vectors (or elements).
    const unsigned long long items = vectorised ? (a->n + 3) / 4 : a->n;
    unsigned blocks = gp_ceil_div(items, a->block);
    if (blocks > grid_max)
        blocks = grid_max;
    const dim3 grid(blocks), block(a->block);
    const char *name = vectorised ? "reduceShfl" : "reduceThreadfence";
    return gp_launch(h, gp_info(name, grid, block), [&] {
        if (vectorised)
            reduceShfl<T><<<grid, block>>>((const T *)a->in, (A *)a->partials, (A *)a->total,
                                           a->counter, (size_t)a->n);
        else
            reduceThreadfence<T><<<grid, block>>>((const T *)a->in, (A *)a->partials,
                                                  (A *)a->total, a->counter, (size_t)a->n);
    });
}

template <typename T>
int cub_reduce(void *scratch, size_t *bytes, const void *in, void *total, uint64_t n)
{
    using A = typename Total<T>::type;
    // The operator's type makes CUB accumulate int32 input in 64 bits.
    return (int)cub::DeviceReduce::Reduce(scratch, *bytes, (const T *)in, (A *)total,
                                          (long long)n, cuda::std::plus<A>{}, A(0));
}

}  // namespace

extern "C" {

int gp_reduce_neighbored(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceNeighbored", reduceNeighbored<T>, 1);
    });
}

int gp_reduce_neighboredless(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceNeighboredLess", reduceNeighboredLess<T>, 1);
    });
}

int gp_reduce_interleaved(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceInterleaved", reduceInterleaved<T>, 1);
    });
}

int gp_reduce_unrolling2(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceUnrolling2", reduceUnrolling<T, 2>, 2);
    });
}

int gp_reduce_unrolling4(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceUnrolling4", reduceUnrolling<T, 4>, 4);
    });
}

int gp_reduce_unrolling8(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceUnrolling8", reduceUnrolling<T, 8>, 8);
    });
}

int gp_reduce_unrollwarps8(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceUnrollWarps8", reduceUnrollWarps8<T>, 8);
    });
}

int gp_reduce_completeunrollwarps8(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return launch_partials<T>(a, h, "reduceCompleteUnrollWarps8",
                                  reduceCompleteUnrollWarps8<T>, 8);
    });
}

int gp_reduce_completeunroll(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) {
        using T = decltype(t);
        return gp_with_block_size(a->block, [&](auto b) {
            return launch_partials<T>(a, h, "reduceCompleteUnroll",
                                      reduceCompleteUnroll<T, decltype(b)::value>, 8);
        });
    });
}

int gp_reduce_threadfence(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) { return launch_single_pass<decltype(t)>(a, h, false); });
}

int gp_reduce_shfl(const gp_reduce_args *a, const gp_hooks *h)
{
    return with_type(a->dtype, [&](auto t) { return launch_single_pass<decltype(t)>(a, h, true); });
}

int gp_reduce_cub(const gp_reduce_args *a, const gp_hooks *h)
{
    gp_kernel_info info = gp_info("cub::DeviceReduce::Reduce", dim3(0, 0, 0), dim3(0, 0, 0));
    info.opaque = 1;
    return gp_launch(h, info, [&] {
        size_t bytes = a->scratch_bytes;
        return with_type(a->dtype, [&](auto t) {
            return cub_reduce<decltype(t)>(a->scratch, &bytes, a->in, a->total, a->n);
        });
    });
}

int gp_reduce_cub_scratch(gp_dtype dtype, uint64_t n, size_t *bytes)
{
    *bytes = 0;
    GP_CUDA(with_type(dtype, [&](auto t) {
        return cub_reduce<decltype(t)>(nullptr, bytes, nullptr, nullptr, n);
    }));
    return GP_OK;
}

}  // extern "C"
