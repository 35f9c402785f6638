// The reduce2d family: the OpenCL multi-pass 2-D sum (reductionInner / reductionOuter) ported
// to CUDA. Each pass shrinks an nx × ny matrix by the group g in both directions; the host
// launches passes, alternating two buffers, until one value is left.
//
// What differs from the seed, and why:
//  * Any nx × ny. The seed sizes each pass as w / g, so it only works when every size is a
//    power of g: otherwise the tail rows and columns are dropped (and reductionInner's global
//    size is not a multiple of its group, which OpenCL 1.x rejects).
//    Here each pass's output is ceil(nx / g) × ceil(ny / g) and out-of-range elements count as 0.
//  * The matrix is nx × ny, not square: the seed reused one size for both directions.
//  * 64-bit element offsets: a matrix may hold up to 2^36 elements.
//  * Grid dimension y is limited to 65535 (OpenCL has no such limit): the kernels loop over
//    the output rows with a grid-sized stride ("folded" rows), so any ny runs.
//  * The first pass reads the input without modifying it; the seed's first pass read buffer A,
//    which a later pass overwrote, so the input was lost.
//  * reductionOuter adds each tile row into its own partial before adding the rows up: the
//    same loads, but the rounding error grows with 2g instead of g².
#include "common.cuh"
#include "gpuprof/reduce2d.h"

namespace {


struct Shape {
    unsigned nx, ny;
};

Shape pass_output(Shape in, unsigned g)
{
    return Shape{gp_ceil_div(in.nx, g), gp_ceil_div(in.ny, g)};
}

// ---- reductionInner: one element per thread, a shared-memory tree per g × g block ----------
// Block g × g (blockDim.x == blockDim.y == g), g * g floats of dynamic shared memory.
// Every thread of the block runs the same number of loop iterations and reaches every
// __syncthreads(): out-of-range threads load 0 instead of returning early.
__global__ void reductionInner(const float *__restrict__ src, unsigned nx, unsigned ny,
                               float *__restrict__ dst, unsigned out_nx, unsigned out_ny)
{
    extern __shared__ float tile[];
    const unsigned g = blockDim.x;
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    float *row = tile + ty * g;
    const unsigned x = blockIdx.x * g + tx;
    // Folded rows: by is uniform across the block, so the barriers below stay block-wide.
    for (unsigned by = blockIdx.y; by < out_ny; by += gridDim.y) {
        const unsigned y = by * g + ty;
        // The seed loads unconditionally (it assumed sizes that are multiples of g).
        row[tx] = (x < nx && y < ny) ? src[(size_t)y * nx + x] : 0.0f;
        __syncthreads();
        // Along x within each row: the row's sum ends in column 0.
        for (unsigned step = g >> 1; step > 0; step >>= 1) {
            if (tx < step)
                row[tx] += row[tx + step];
            __syncthreads();
        }
        // Along y in column 0: the block's sum ends in tile[0].
        for (unsigned step = g >> 1; step > 0; step >>= 1) {
            if (tx == 0 && ty < step)
                tile[ty * g] += tile[(ty + step) * g];
            __syncthreads();
        }
        // Only thread (0, 0) reads tile[0], and only it writes tile[0] in the next iteration:
        // no barrier is needed before the next load.
        if (tx == 0 && ty == 0)
            dst[(size_t)by * out_nx + blockIdx.x] = tile[0];
    }
}

// ---- reductionOuter: one output element per thread, a g × g tile from global memory ---------
// No shared memory and no barriers, so threads outside the output may return at once.
__global__ void reductionOuter(const float *__restrict__ src, unsigned nx, unsigned ny,
                               unsigned g, float *__restrict__ dst, unsigned out_nx,
                               unsigned out_ny)
{
    const unsigned ox = blockIdx.x * blockDim.x + threadIdx.x;
    if (ox >= out_nx)
        return;
    const unsigned x0 = ox * g, x1 = min(x0 + g, nx);  // the seed assumed full tiles
    const unsigned row_stride = gridDim.y * blockDim.y;
    for (unsigned oy = blockIdx.y * blockDim.y + threadIdx.y; oy < out_ny; oy += row_stride) {
        const unsigned y0 = oy * g, y1 = min(y0 + g, ny);
        float sum = 0.0f;
        for (unsigned y = y0; y < y1; y++) {
            const float *line = src + (size_t)y * nx;
            float line_sum = 0.0f;
            for (unsigned x = x0; x < x1; x++)
                line_sum += line[x];
            sum += line_sum;
        }
        dst[(size_t)oy * out_nx + ox] = sum;
    }
}

// ---- host side ------------------------------------------------------------------------------

gp_kernel_info pass_info(const char *name, dim3 grid, dim3 block, size_t smem, Shape in,
                         Shape out)
{
    gp_kernel_info info = gp_info(name, grid, block, smem);
    info.in_nx = in.nx;
    info.in_ny = in.ny;
    info.out_nx = out.nx;
    info.out_ny = out.ny;
    return info;
}

int inner_pass(const gp_reduce2d_args *a, const gp_hooks *h, const float *src, float *dst,
               Shape in, Shape out)
{
    const unsigned g = a->group;
    const dim3 block(g, g);
    const dim3 grid(out.nx, min(out.ny, GP_MAX_GRID_Y));
    const size_t smem = (size_t)g * g * sizeof(float);
    return gp_launch(h, pass_info("reductionInner", grid, block, smem, in, out), [&] {
        reductionInner<<<grid, block, smem>>>(src, in.nx, in.ny, dst, out.nx, out.ny);
    });
}

int outer_pass(const gp_reduce2d_args *a, const gp_hooks *h, const float *src, float *dst,
               Shape in, Shape out)
{
    const dim3 block(a->block.x, a->block.y);
    const unsigned rows = gp_ceil_div(out.ny, block.y);
    const dim3 grid(gp_ceil_div(out.nx, block.x), min(rows, GP_MAX_GRID_Y));
    return gp_launch(h, pass_info("reductionOuter", grid, block, 0, in, out), [&] {
        reductionOuter<<<grid, block>>>(src, in.nx, in.ny, a->group, dst, out.nx, out.ny);
    });
}

bool is_pow2(unsigned v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

// Everything a pass could trip over, decided before the first launch.
int check_args(const gp_reduce2d_args *a, bool uses_block)
{
    if (!is_pow2(a->group) || a->group < 2 || a->group > 32)
        return gp_fail(GP_ERR_USAGE, "reduce2d: group %u is not a power of two from 2 to 32",
                       a->group);
    if (a->nx < 1 || a->ny < 1 || a->nx > GP_MAX_MATRIX_SIDE || a->ny > GP_MAX_MATRIX_SIDE)
        return gp_fail(GP_ERR_USAGE, "reduce2d: matrix %ux%u: each side must be 1 to 2^30",
                       a->nx, a->ny);
    if (!a->in || !a->buf[0] || !a->buf[1] || !a->result)
        return gp_fail(GP_ERR_RUNTIME, "internal error: reduce2d called without its buffers");
    if (uses_block && (a->block.x < 1 || a->block.y < 1 || a->block.z > 1 ||
                       (unsigned long long)a->block.x * a->block.y > GP_MAX_THREADS_PER_BLOCK))
        return gp_fail(GP_ERR_USAGE, "reduce2d: block %ux%ux%u: needs 1 to %u threads in x*y",
                       a->block.x, a->block.y, a->block.z, GP_MAX_THREADS_PER_BLOCK);
    return GP_OK;
}

// The seed's host loop: pass 1 reads the input and writes buf[0], then the buffers alternate
// (buf[0] → buf[1] → buf[0] …) until the output is 1 × 1. A 1 × 1 input still runs one pass,
// so every run has at least one launch and the result always lies in a buffer.
template <typename Pass>
int run_passes(const gp_reduce2d_args *a, const gp_hooks *h, bool uses_block, Pass &&pass)
{
    GP_TRY(check_args(a, uses_block));
    const float *src = a->in;
    Shape in{a->nx, a->ny};
    float *dst = nullptr;
    unsigned which = 0;
    do {
        const Shape out = pass_output(in, a->group);
        dst = a->buf[which];
        GP_TRY(pass(a, h, src, dst, in, out));
        src = dst;
        in = out;
        which ^= 1u;
    } while (in.nx > 1 || in.ny > 1);
    *a->result = dst;
    return GP_OK;
}

}  // namespace

extern "C" {

int gp_reduce2d_inner(const gp_reduce2d_args *a, const gp_hooks *h)
{
    return run_passes(a, h, false, inner_pass);  // the block is always group × group
}

int gp_reduce2d_outer(const gp_reduce2d_args *a, const gp_hooks *h)
{
    return run_passes(a, h, true, outer_pass);
}

}  // extern "C"
