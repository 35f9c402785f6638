// The transpose family: "Professional CUDA C Programming" ch. 5.4 (copyGmem, naiveGmem,
// transposeSmem / transposeSmemPad, transposeSmemUnrollPad) and a modern tiled transpose.
//
// in is ny rows of nx floats (row-major); out is its transpose, nx rows of ny floats:
// out[c * ny + r] = in[r * nx + c]. The copy variant writes out[r * nx + c] instead: the
// bandwidth ceiling the book compares the transposes against.
//
// What differs from the book, and why:
//  * Any nx, ny: every global access is bounds-checked, including the unrolled kernel, which
//    in the book skips a block's tail (and calls __syncthreads() under that condition).
//  * 64-bit offsets: nx * ny may exceed 2^32 elements.
//  * The book's copyGmem (in the listing the notes copy) is itself a transpose; here it is a
//    plain row-wise copy with naiveGmem's launch shape, which is what the book measures it as.
//  * transposeSmemUnrollPad as the notes print it stores out[INDEX(col, row, nrows)] with the
//    untransposed coordinates and reads tile[irow][icol]; it is written here with the same
//    transposed index math as transposeSmem.
//  * Tiles live in dynamic shared memory sized from the run-time block and padding, so one
//    kernel serves every block shape and --pad (the book recompiles with BDIMX/BDIMY/IPAD).
//  * Grids taller than 65535 blocks are folded: a block walks every gridDim.y-th row of
//    tiles. For every size the book uses this loop runs once, so the kernels (and their
//    counters) are the book's. The modern tile kernel uses a 1-D grid instead.
#include "common.cuh"
#include "gpuprof/transpose.h"

namespace {

constexpr size_t kDefaultSmemLimit = 48 * 1024;  // more needs an explicit opt-in

__device__ __forceinline__ size_t at(size_t row, size_t col, size_t inner)
{
    return row * inner + col;
}

// ---- book 5.4.1: copyGmem, the upper bound: coalesced reads and coalesced writes ---------
// The book's ceiling for the transposes, not the device's: with one 4-byte access per thread
// too few bytes are in flight to reach cudaMemcpy's bandwidth.
__global__ void copyGmem(float *__restrict__ out, const float *__restrict__ in, unsigned nx,
                         unsigned ny)
{
    const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < ny;
         row += gridDim.y * blockDim.y)
        if (col < nx)
            out[at(row, col, nx)] = in[at(row, col, nx)];
}

// ---- book 5.4.1: naiveGmem: reads along a row (coalesced), writes down a column ---------
// Neighbouring threads write ny floats apart: one 32-byte sector per 4-byte store.
__global__ void naiveGmem(float *__restrict__ out, const float *__restrict__ in, unsigned nx,
                          unsigned ny)
{
    const unsigned ix = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned iy = blockIdx.y * blockDim.y + threadIdx.y; iy < ny;
         iy += gridDim.y * blockDim.y)
        if (ix < nx)
            out[at(ix, iy, ny)] = in[at(iy, ix, nx)];
}

// ---- book 5.4.2 / 5.4.3: transposeSmem (pad 0) and transposeSmemPad (pad > 0) -------------
// The block loads a bdy × bdx tile row by row (coalesced), then writes it back column by
// column: thread bidx takes tile column irow = bidx / bdy, row icol = bidx % bdy, so
// consecutive threads write consecutive output addresses (coalesced) but read shared memory
// bdx + pad words apart — the bank conflicts that padding removes.
__global__ void transposeSmem(float *__restrict__ out, const float *__restrict__ in,
                              unsigned nx, unsigned ny, unsigned pad)
{
    extern __shared__ float tile[];  // [bdy][bdx + pad]
    const unsigned bdx = blockDim.x, bdy = blockDim.y, stride = bdx + pad;
    const unsigned bidx = threadIdx.y * bdx + threadIdx.x;
    const unsigned irow = bidx / bdy, icol = bidx % bdy;
    const unsigned col = blockIdx.x * bdx + threadIdx.x;  // input column of the load
    const unsigned out_row = blockIdx.x * bdx + irow;      // = input column of the store
    for (unsigned by = blockIdx.y; by * bdy < ny; by += gridDim.y) {
        const unsigned row = by * bdy + threadIdx.y;
        if (row < ny && col < nx)
            tile[threadIdx.y * stride + threadIdx.x] = in[at(row, col, nx)];
        __syncthreads();
        // Reads only tile cells whose input element exists, i.e. cells loaded above.
        const unsigned out_col = by * bdy + icol;
        if (out_row < nx && out_col < ny)
            out[at(out_row, out_col, ny)] = tile[icol * stride + irow];
        if (by + gridDim.y < (ny + bdy - 1) / bdy)
            __syncthreads();  // the next row of tiles overwrites the tile (folded grids only)
    }
}

// ---- book 5.4.4: transposeSmemUnrollPad: two tiles side by side per block ----------------
// Each thread loads columns col and col + bdx and stores two output rows bdx apart: twice the
// independent memory operations in flight per thread.
__global__ void transposeSmemUnrollPad(float *__restrict__ out, const float *__restrict__ in,
                                       unsigned nx, unsigned ny, unsigned pad)
{
    extern __shared__ float tile[];  // [bdy][2 * bdx + pad]
    const unsigned bdx = blockDim.x, bdy = blockDim.y, stride = 2 * bdx + pad;
    const unsigned bidx = threadIdx.y * bdx + threadIdx.x;
    const unsigned irow = bidx / bdy, icol = bidx % bdy;
    const unsigned col = 2 * blockIdx.x * bdx + threadIdx.x, col2 = col + bdx;
    const unsigned out_row = 2 * blockIdx.x * bdx + irow, out_row2 = out_row + bdx;
    for (unsigned by = blockIdx.y; by * bdy < ny; by += gridDim.y) {
        const unsigned row = by * bdy + threadIdx.y;
        if (row < ny && col < nx)
            tile[threadIdx.y * stride + threadIdx.x] = in[at(row, col, nx)];
        if (row < ny && col2 < nx)
            tile[threadIdx.y * stride + bdx + threadIdx.x] = in[at(row, col2, nx)];
        __syncthreads();
        const unsigned out_col = by * bdy + icol;
        if (out_col < ny) {
            if (out_row < nx)
                out[at(out_row, out_col, ny)] = tile[icol * stride + irow];
            if (out_row2 < nx)
                out[at(out_row2, out_col, ny)] = tile[icol * stride + bdx + irow];
        }
        if (by + gridDim.y < (ny + bdy - 1) / bdy)
            __syncthreads();
    }
}

// ---- modern: square tiles, several elements per thread, vector accesses ------------------
// A TW × TW tile (TW = 32 · V, V = 2: 64 × 64) moved by a 32 × BY block: each thread issues
// all its TW / BY loads of V consecutive floats (float2) before touching shared memory, and
// after the barrier stores TW / BY output rows the same way. A warp thus moves 256 contiguous
// bytes per access (8 full sectors per request) and each thread keeps 8 · TW / BY bytes in
// flight — what it takes to keep up with cudaMemcpy, where the book's one float per thread
// (32 × 32 tile, V = 1) falls short. The tile is TW + pad floats wide: with pad 0 a tile
// column sits in one bank (32-way conflicts); pad 1, the default, leaves the 2-way conflict
// inherent in each lane reading two tile rows, which costs nothing measurable. Plain loads
// and stores: the streaming hints (__ldcs/__stcs) were slower (bench/README.md).
template <unsigned V> struct Vec;
template <> struct Vec<1> { using type = float; };
template <> struct Vec<2> { using type = float2; };

template <unsigned V>
__device__ __forceinline__ void vec_to_tile(float *dst, typename Vec<V>::type v)
{
    if constexpr (V == 1) {
        dst[0] = v;
    } else {
        dst[0] = v.x;
        dst[1] = v.y;
    }
}

template <unsigned V>
__device__ __forceinline__ typename Vec<V>::type tile_column_vec(const float *tile, unsigned r,
                                                                 unsigned c, unsigned stride)
{
    if constexpr (V == 1)
        return tile[r * stride + c];
    else
        return make_float2(tile[r * stride + c], tile[(r + 1) * stride + c]);
}

// An interior tile whose rows are vector-aligned (nx % V == 0 and ny % V == 0).
template <unsigned V, unsigned BY>
__device__ __forceinline__ void tile_fast(float *__restrict__ out, const float *__restrict__ in,
                                          float *tile, unsigned stride, unsigned nx, unsigned ny,
                                          unsigned x0, unsigned y0)
{
    using T = typename Vec<V>::type;
    constexpr unsigned TW = 32 * V;
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const T *src = reinterpret_cast<const T *>(in + at(y0 + ty, x0 + V * tx, nx));
    const size_t src_step = (size_t)BY * nx / V;
    T v[TW / BY];
#pragma unroll
    for (unsigned k = 0; k < TW / BY; k++)  // all loads first: TW / BY in flight
        v[k] = src[k * src_step];
#pragma unroll
    for (unsigned k = 0; k < TW / BY; k++)
        vec_to_tile<V>(tile + (ty + k * BY) * stride + V * tx, v[k]);
    __syncthreads();
    T *dst = reinterpret_cast<T *>(out + at(x0 + ty, y0 + V * tx, ny));
    const size_t dst_step = (size_t)BY * ny / V;
#pragma unroll
    for (unsigned k = 0; k < TW / BY; k++)
        dst[k * dst_step] = tile_column_vec<V>(tile, V * tx, ty + k * BY, stride);
}

// Any other tile: scalar accesses, each checked against the matrix.
template <unsigned V, unsigned BY>
__device__ __forceinline__ void tile_edge(float *__restrict__ out, const float *__restrict__ in,
                                          float *tile, unsigned stride, unsigned nx, unsigned ny,
                                          unsigned x0, unsigned y0)
{
    constexpr unsigned TW = 32 * V;
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
    for (unsigned r = ty; r < TW; r += BY)
#pragma unroll
        for (unsigned c = tx; c < TW; c += 32)
            if (y0 + r < ny && x0 + c < nx)
                tile[r * stride + c] = in[at(y0 + r, x0 + c, nx)];
    __syncthreads();
#pragma unroll
    for (unsigned r = ty; r < TW; r += BY)      // output row x0 + r, input column
#pragma unroll
        for (unsigned c = tx; c < TW; c += 32)  // output column y0 + c, input row
            if (x0 + r < nx && y0 + c < ny)
                out[at(x0 + r, y0 + c, ny)] = tile[c * stride + r];
}

template <unsigned V, unsigned BY>
__global__ void __launch_bounds__(32 * BY) transposeTile(float *__restrict__ out,
                                                         const float *__restrict__ in,
                                                         unsigned nx, unsigned ny, unsigned pad)
{
    extern __shared__ float tile[];  // [TW][TW + pad]
    constexpr unsigned TW = 32 * V;
    // A 1-D grid, row of tiles after row of tiles: never near the 65535 limit of grid y (and
    // squarish patches of tiles were no faster: bench/README.md).
    const unsigned tiles_x = (nx + TW - 1) / TW;
    const unsigned x0 = blockIdx.x % tiles_x * TW, y0 = blockIdx.x / tiles_x * TW;
    const unsigned stride = TW + pad;
    // The same for the whole block: no thread skips the barrier inside either path. Vector
    // accesses need every row start aligned (cudaMalloc'd buffers and even nx, ny).
    const bool aligned = nx % V == 0 && ny % V == 0 &&
                         (reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out)) %
                                 (V * sizeof(float)) == 0;
    if (aligned && x0 + TW <= nx && y0 + TW <= ny)
        tile_fast<V, BY>(out, in, tile, stride, nx, ny, x0, y0);
    else
        tile_edge<V, BY>(out, in, tile, stride, nx, ny, x0, y0);
}

// ---- launch helpers ------------------------------------------------------------------------

// Rows of blocks needed; folded to the 65535 the hardware allows (kernels loop over the rest).
dim3 grid_for(unsigned nx, unsigned ny, unsigned cols_per_block, unsigned rows_per_block)
{
    const unsigned gy = gp_ceil_div(ny, rows_per_block);
    return dim3(gp_ceil_div(nx, cols_per_block), gy < GP_MAX_GRID_Y ? gy : GP_MAX_GRID_Y);
}

int check_args(const gp_transpose_args *a)
{
    const unsigned long long threads = (unsigned long long)a->block.x * a->block.y;
    if (a->nx == 0 || a->ny == 0)
        return gp_fail(GP_ERR_USAGE, "transpose: the matrix must have at least one element");
    if (a->block.x == 0 || a->block.y == 0 || threads > GP_MAX_THREADS_PER_BLOCK)
        return gp_fail(GP_ERR_USAGE, "transpose: block %ux%u is not a valid block shape",
                       a->block.x, a->block.y);
    if (a->pad < 0 || a->pad > 32)
        return gp_fail(GP_ERR_USAGE, "transpose: pad %d is outside 0..32", a->pad);
    return GP_OK;
}

// Dynamic shared memory beyond the default 48 KB must be enabled per kernel, and cannot exceed
// what the device allows a block (tall blocks with a large pad can ask for more).
int allow_shared(const void *kernel, size_t bytes, const char *name)
{
    if (bytes <= kDefaultSmemLimit)
        return GP_OK;
    int device = 0, limit = 0;
    GP_CUDA(cudaGetDevice(&device));
    GP_CUDA(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (bytes > (size_t)limit)
        return gp_fail(GP_ERR_USAGE,
                       "%s: the tile needs %zu bytes of shared memory, the device allows %d per "
                       "block; use a smaller block or pad",
                       name, bytes, limit);
    GP_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)bytes));
    return GP_OK;
}

using plain_kernel = void (*)(float *, const float *, unsigned, unsigned);
using tiled_kernel = void (*)(float *, const float *, unsigned, unsigned, unsigned);

int launch_plain(const gp_transpose_args *a, const gp_hooks *h, const char *name,
                 plain_kernel kernel)
{
    GP_TRY(check_args(a));
    const dim3 block(a->block.x, a->block.y);
    const dim3 grid = grid_for(a->nx, a->ny, block.x, block.y);
    return gp_launch(h, gp_info(name, grid, block), [&] {
        kernel<<<grid, block>>>(a->out, a->in, a->nx, a->ny);
    });
}

// The book's shared-memory kernels: a tile of (cols_per_thread · bdx + pad) × bdy floats.
int launch_book_tiled(const gp_transpose_args *a, const gp_hooks *h, const char *name,
                      tiled_kernel kernel, unsigned cols_per_thread)
{
    GP_TRY(check_args(a));
    const dim3 block(a->block.x, a->block.y);
    const dim3 grid = grid_for(a->nx, a->ny, cols_per_thread * block.x, block.y);
    const unsigned pad = (unsigned)a->pad;
    const size_t smem = sizeof(float) * block.y * (cols_per_thread * block.x + pad);
    GP_TRY(allow_shared((const void *)kernel, smem, name));
    return gp_launch(h, gp_info(name, grid, block, smem), [&] {
        kernel<<<grid, block, smem>>>(a->out, a->in, a->nx, a->ny, pad);
    });
}

// The modern tile: 64 × 64 floats (V = 2) per block of 32 × BY threads, BY in {8, 16, 32}.
constexpr unsigned kTileV = 2;

int launch_tile(const gp_transpose_args *a, const gp_hooks *h)
{
    constexpr unsigned TW = 32 * kTileV;
    const char *name = "transposeTile";
    GP_TRY(check_args(a));
    const unsigned by = a->block.y;
    if (a->block.x != 32 || (by != 8 && by != 16 && by != 32))
        return gp_fail(GP_ERR_USAGE, "%s: block must be 32x8, 32x16 or 32x32 (got %ux%u)", name,
                       a->block.x, by);
    tiled_kernel kernel = by == 8    ? transposeTile<kTileV, 8>
                          : by == 16 ? transposeTile<kTileV, 16>
                                     : transposeTile<kTileV, 32>;
    // With nx * ny <= 2^36 there are fewer than 2^26 tiles; the check guards larger requests.
    const unsigned long long tiles =
        (unsigned long long)gp_ceil_div(a->nx, TW) * gp_ceil_div(a->ny, TW);
    if (tiles > 0x7fffffffull)
        return gp_fail(GP_ERR_USAGE, "%s: %ux%u needs %llu tiles, more than one grid holds",
                       name, a->nx, a->ny, tiles);
    const dim3 block(32, by), grid((unsigned)tiles);
    const unsigned pad = (unsigned)a->pad;
    const size_t smem = sizeof(float) * TW * (TW + pad);
    GP_TRY(allow_shared((const void *)kernel, smem, name));
    return gp_launch(h, gp_info(name, grid, block, smem), [&] {
        kernel<<<grid, block, smem>>>(a->out, a->in, a->nx, a->ny, pad);
    });
}

}  // namespace

extern "C" {

int gp_transpose_copy(const gp_transpose_args *a, const gp_hooks *h)
{
    return launch_plain(a, h, "copyGmem", copyGmem);
}

int gp_transpose_naive(const gp_transpose_args *a, const gp_hooks *h)
{
    return launch_plain(a, h, "naiveGmem", naiveGmem);
}

int gp_transpose_smem(const gp_transpose_args *a, const gp_hooks *h)
{
    return launch_book_tiled(a, h, "transposeSmem", transposeSmem, 1);
}

int gp_transpose_smemunroll(const gp_transpose_args *a, const gp_hooks *h)
{
    return launch_book_tiled(a, h, "transposeSmemUnrollPad", transposeSmemUnrollPad, 2);
}

int gp_transpose_tile(const gp_transpose_args *a, const gp_hooks *h)
{
    return launch_tile(a, h);
}

}  // extern "C"
