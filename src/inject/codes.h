/* A kernel is its code, not its name: the code a launch runs, as the CRC of the cubin that
 * holds its function (the CRC CUPTI's SASS metrics and PC sampling key functions by). JIT
 * compilers load one module per compiled configuration (Triton's autotuned variants, NVRTC,
 * CuPy), with functions of the same name and launch shape and different code.
 *
 * How a launch's code is found (bench/README.md, Code identity, measured on an H200): the
 * driver loads a module's cubin inside the load call (cuModuleLoad, cuModuleLoadData(Ex),
 * cuModuleLoadFatBinary, cuLibraryLoadData/FromFile), and CUPTI's module-loaded resource
 * callback gives the cubin on the same thread; the call's exit gives the handle, which is
 * bound to that cubin's CRC. A launch's function names its module (cuFuncGetModule), or for a
 * CUkernel launched as a function (cudart's launches) its library (cuKernelGetLibrary). A
 * library the driver loads lazily (cudart's fatbins: its module is loaded inside the first
 * launch, after the launch's entry) has no binding: its launches have code 0, "the name's
 * only code", and are told apart by name and shape as before. A module unloaded is unbound
 * (its handle may come back for another); the same cubin loaded again has the same CRC, so
 * one code across an unload and reload.
 *
 * The activity records that time kernels carry no module: the launch's entry notes its code
 * by correlation id (a graph's kernel node: by node id), and the activity thread takes it.
 *
 * Guard: the table's own lock, taken inside the launch lock or alone, last; the load calls'
 * CRCs are the loading thread's own (thread-local). */
#ifndef GPUPROF_INJECT_CODES_H
#define GPUPROF_INJECT_CODES_H

#include "inject/inject.h"

#include <cuda.h>
#include <cupti.h>
#include <stdbool.h>
#include <stdint.h>

/* The driver API callbacks that load or unload modules and libraries. */
extern const CUpti_CallbackId gp_code_callbacks[];
extern const size_t gp_n_code_callbacks;
bool gp_codes_is_load_callback(CUpti_CallbackId cbid);

/* A load call's entry or exit (the handle bound at a successful exit). */
void gp_codes_on_call(CUpti_CallbackId cbid, const CUpti_CallbackData *d);
/* The module-loaded and unload-starting resource callbacks. */
void gp_codes_on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r);

/* The code of the function a launch runs (a CUfunction, or a CUkernel as cudart launches
 * it); 0 when not known. */
uint64_t gp_codes_of(CUfunction f);

/* A launch's code noted for its kernel's activity record (code 0: nothing to note), by its
 * correlation id, or for a graph's kernel node by the node's id; taken once by the activity
 * thread (0 when none was noted). */
void gp_codes_note_launch(uint32_t correlation_id, uint64_t code);
void gp_codes_note_node(uint64_t node_id, uint64_t code);
uint64_t gp_codes_take(uint32_t correlation_id, uint64_t node_id);

#endif
