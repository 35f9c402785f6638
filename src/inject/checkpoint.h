/* CUPTI's Checkpoint API (libcheckpoint, CUDA 13.0) for C: its header, cupti_checkpoint.h,
 * wraps these declarations in a C++ namespace, but the functions have C linkage. The struct
 * and the three calls below are the header's, unchanged. Used by graph_launches.c to save
 * and restore a context's device memory around shadow launches. */
#ifndef GPUPROF_INJECT_CHECKPOINT_H
#define GPUPROF_INJECT_CHECKPOINT_H

#include "inject/inject.h"

#include <cuda.h>
#include <cupti_result.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t structSize;      /* CUpti_Checkpoint_STRUCT_SIZE */
    CUcontext ctx;          /* the context to save (NULL: the current one) */
    size_t reserveDeviceMB; /* device memory the checkpoint leaves free */
    size_t reserveHostMB;   /* host memory the checkpoint leaves free */
    uint8_t allowOverwrite;
    uint8_t optimizations;  /* CUpti_CheckpointOptimizations */
    void *pPriv;            /* NULL */
} CUpti_Checkpoint;

#define CUpti_Checkpoint_STRUCT_SIZE \
    (offsetof(CUpti_Checkpoint, pPriv) + sizeof(((CUpti_Checkpoint *)0)->pPriv))

CUptiResult cuptiCheckpointSave(CUpti_Checkpoint *const handle);
CUptiResult cuptiCheckpointRestore(CUpti_Checkpoint *const handle);
CUptiResult cuptiCheckpointFree(CUpti_Checkpoint *const handle);

#endif
