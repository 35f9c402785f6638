/* Counters per SASS instruction, for the per-line view (--source): CUPTI's SASS Metrics API
 * patches a kernel's code and counts, for each instruction, what it executed and what it moved
 * (global sectors against the ideal for the bytes asked, shared wavefronts against theirs,
 * local sectors); CUPTI's SASS-to-source correlation names each instruction's file and line
 * from the cubin it came from, which the module-load callbacks hand over (gp_cubins_*).
 *
 * What was measured (bench/sass_source_probe.cu; H100 and H200, CUDA 13.0; bench/README.md,
 * Per-line view): lazy patching counts direct launches and the kernel nodes of a CUDA graph
 * instantiated after enabling, whenever their module was loaded; without it a module loaded
 * after the enable counted nothing. The configuration is set once per device and each
 * enable-disable range counts, but only while a CUPTI subscriber has the whole resource
 * domain enabled: with only the module-load callback, the process's first flush counted and
 * nothing after. The counts equal ncu's source page instruction for instruction. A patched
 * launch runs a few times slower (0.23 ms for a 0.07 ms transpose).
 * Counters layer: never prints, never exits, never links cudart. */
#ifndef GPUPROF_SASS_SOURCE_H
#define GPUPROF_SASS_SOURCE_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What each instruction counts (CUPTI's SASS metrics, smsp__sass_...). */
typedef enum {
    GP_SRC_INST,              /* warp instructions executed */
    GP_SRC_GLOBAL_LD,         /* of them, global loads (requests) */
    GP_SRC_GLOBAL_ST,         /* global stores */
    GP_SRC_SECTORS,           /* global sectors accessed */
    GP_SRC_SECTORS_IDEAL,     /* the sectors the bytes asked for would take */
    GP_SRC_SHARED_LD,         /* shared loads */
    GP_SRC_SHARED_ST,         /* shared stores */
    GP_SRC_WAVEFRONTS,        /* shared wavefronts */
    GP_SRC_WAVEFRONTS_IDEAL,  /* without bank conflicts */
    GP_SRC_LOCAL_LD,          /* local (spill) loads */
    GP_SRC_LOCAL_ST,          /* local stores */
    GP_SRC_LOCAL_SECTORS,     /* local sectors */
    GP_SRC_COUNTERS
} gp_source_counter;

/* CUPTI's name of each counter (the key reports use is its column's, report/source_part.c). */
extern const char *const gp_source_cupti_names[GP_SRC_COUNTERS];

/* One patched instruction: where it is and what it counted (summed over the launches). */
typedef struct {
    char *function;           /* mangled */
    uint32_t pc;              /* offset in the function */
    uint64_t crc;             /* of the cubin it came from */
    char *file;               /* NULL: no line information (the cubin lacks it, or the cubin
                                 was not seen loading) */
    uint32_t line;
    uint64_t counts[GP_SRC_COUNTERS];
} gp_source_instruction;

void gp_source_instructions_free(gp_source_instruction *v, size_t n);

/* ---- the cubins loaded in this process ------------------------------------------------------ */

/* Keep a copy of a cubin the driver loaded (a module-load callback's, src/inject/ or
 * src/runner/source_lines.c's), by its CRC. Thread-safe. */
int gp_cubins_add(const void *cubin, size_t size);
/* The file ("dir/file") and line of an instruction; false when unknown (no such cubin, or no
 * line information in it). *file is malloc'd. */
bool gp_cubins_line(uint64_t crc, const char *function, uint32_t pc, char **file,
                    uint32_t *line);
/* Forget every cubin. */
void gp_cubins_clear(void);

/* ---- collection ------------------------------------------------------------------------------ */

typedef struct gp_sass_source gp_sass_source;

/* The SASS metrics configured on the device (by its CUDA device index). */
int gp_sass_source_open(int device, gp_sass_source **out);
/* Patch the kernels the context launches from now on (lazy patching: at their launch). */
int gp_sass_source_start(gp_sass_source *s, CUcontext ctx);
/* Stop patching; every instruction counted since the start, with its file and line. The
 * caller frees them (gp_source_instructions_free). */
int gp_sass_source_stop(gp_sass_source *s, CUcontext ctx, gp_source_instruction **out,
                        size_t *n);
void gp_sass_source_close(gp_sass_source *s);

#endif
