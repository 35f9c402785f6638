/* The plain value types that every layer shares, from the kernels' C ABI to the reports: a
 * launch shape and an element type. Nothing else, so that a report or the counters can name
 * a block without knowing how kernels are launched. */
#ifndef GPUPROF_TYPES_H
#define GPUPROF_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GP_INT32 = 0, GP_FLOAT32 = 1 } gp_dtype;

typedef struct {
    unsigned x, y, z;
} gp_dim3;

#ifdef __cplusplus
}
#endif

#endif
