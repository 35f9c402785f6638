/* The records libgpuprof-inject.so writes and gpuprof reads back (src/records/): the format
 * both sides build on, declarations only (the options that travel the other way, and their
 * codec, are gpuprof/protocol.h's). One file per process, <GPUPROF_EXEC_DIR>/<pid>.jsonl.
 *
 * Records, one JSON object per line (key "t"), each with the writing process's pid:
 *   process   pid, ppid                                   the library started in a process
 *   device    context, device, name, cc_major, cc_minor, sms, memory, l2, sm_clock_khz,
 *             memory_clock_khz, bus_bits                  a context was created
 *   profiler  context, chip, passes, set, counters[], metrics[], units[], missing[],
 *             replay, groups[[counter index...]...] (the one-pass groups exec rotates over;
 *             none when the counters take one pass, or with --replay=kernel)
 *                                                         a context's counters were set up
 *   launch    id, context, device, stream, kernel (mangled), code, grid[3], block[3], smem,
 *             profiled, range (--nvtx: its NVTX range path's number, 0: none), values[]
 *             (one per counter of the context's profiler record, null
 *             where not collected), passes[] (the groups collected; absent: every counter)
 *                                                         a kernel launch (metrics mode)
 *             code: the CRC of the cubin that holds the kernel's function, as a string of
 *             its decimal digits (a JSON number is exact only below 2^53); absent when not
 *             known (a library the driver loads lazily: inject/codes.h). Kernels of one
 *             name and different codes are variants of one kernel
 *             and, for a CUDA graph's kernel node, graph, node (the ids its `K` line
 *             carries) and how: "shadow" (the node launched alone before the program's
 *             graph launch, counters as an ordinary launch's; `id` is that graph launch's
 *             correlation id, which its nodes' `K` lines carry) or "graph" (node 0: one
 *             range around the whole graph launch, --graph-profiling=graph; kernel "")
 *   graph     context, graph, kernels (kernel nodes), shadow (1: its nodes are shadow-
 *             launched; 0: not, reason says why: "a memory allocation node", "changed in
 *             place by ...", ...), and when shadow is 1 and some kernel nodes run after a
 *             host node (never shadow-launched: only sampled): after_host (how many),
 *             after_host_nodes[] (the ids of those the library knows, as `K` lines carry)
 *                                                         a graph's first profiled launch
 *   sampled   id (the graph launch's correlation id), context, device, interval_ns,
 *             start_ns, end_ns (the sampling window), complete (0: samples were lost)
 *                                                         a graph launch DRAM-sampled; its
 *                                                         `P` lines follow
 *   footprint context, replay (1: auto replays a kernel signature's first launch; 0: it does
 *             not, every launch collects one group as under rotate), held, free, total,
 *             budget (bytes: the device memory in use, which a replay saves; free device
 *             memory; the device's; the most auto saves)
 *                                                         --replay=auto decided, or changed
 *                                                         its decision, on a context
 *   source    context, device, launch, kernel (mangled), crc, pc, file, line, counts[]
 *             (--source: one record per SASS instruction of a kernel's one patched launch,
 *             written after it ran; launch: its correlation id, as its `launch` or `K` line
 *             carries it; crc: the cubin's CRC, a number or, as a JSON number is exact only
 *             below 2^53, a string of its decimal digits; pc: the instruction's offset in the
 *             function; file ("dir/file.cu") and line: absent both when the cubin has no line
 *             information; counts: 12 whole numbers in the order of gp_source_counter,
 *             gpuprof/sass_source.h)                      a patched launch's instructions
 *   source_note  kernel (mangled), code, note             why a kernel has no per-line view
 *                                                         (CUPTI could not patch it, ...)
 *   name      n, name (mangled), code                     the number of a kernel's name and
 *                                                         code (as a launch's), which its `K`
 *                                                         lines carry
 *   range     n, path                                     --nvtx: an NVTX range path seen
 *                                                         first at a launch, its number (from
 *                                                         1) as `R` lines and a launch's
 *                                                         `range` carry it
 *   stalls    context, device, period (log2 cycles), reasons[] (CUPTI's names, the
 *             order the context's `stall` records count in), samples, dropped, non_user,
 *             buffer_full (0 or 1), failures (GetData calls that failed)
 *                                                         --stalls: a context's PC sampling
 *                                                         ended; its `stall` records follow
 *   stall     context, kernel (mangled), code, pc, file, line (absent both when unknown),
 *             samples[[reason, count]...] (reason: an index into the context's `stalls`
 *             record's reasons; reasons without samples left out)
 *                                                         --stalls: a sampled instruction
 *   warning   text, hint                                  something could not be done
 *   end       pid                                         the process is exiting normally
 * and, many times over, one line of numbers per kernel that ran (an activity record):
 *   K pid id context device stream name-number grid.x grid.y grid.z block.x block.y block.z
 *     smem start_ns end_ns graph node
 * (gp_kernel_field below). `id` is CUPTI's correlation id: a launch and the kernel it ran
 * share it, and it grows in launch order within a process. Likewise a line per memory copy,
 * per memset and per unified-memory counter record (always on, whatever --metrics says):
 *   M pid id context device stream kind src dst bytes start_ns end_ns      (gp_copy_field)
 *   S pid id context device stream memory bytes start_ns end_ns            (gp_memset_field)
 *   U pid counter value start_ns end_ns src dst                            (gp_unified_field)
 *   P pid id device start_ns end_ns read_bytes write_bytes                 (gp_sample_field)
 *   R pid id node range                                                     (gp_range_field)
 * (a P line is one PM-sampling interval of DRAM traffic on the device during the sampled
 * graph launch `id`, in the activity records' timebase; bytes rounded to integers)
 * kind, src/dst/memory and counter in CUPTI's numbering (CUpti_ActivityMemcpyKind,
 * CUpti_ActivityMemoryKind, CUpti_ActivityUnifiedMemoryCounterKind), which the report's
 * gp_activity_kind, gp_memory_kind and gp_um_counter keep. A peer-to-peer copy (MEMCPY2) is
 * an M line of kind PtoP. */
#ifndef GPUPROF_RECORD_FORMAT_H
#define GPUPROF_RECORD_FORMAT_H

#include <stdint.h>

/* ---- the records ------------------------------------------------------------------------- */

#define GP_RECORD_SUFFIX ".jsonl"

/* The record types (key "t"). */
#define GP_RECORD_PROCESS "process"
#define GP_RECORD_DEVICE "device"
#define GP_RECORD_PROFILER "profiler"
#define GP_RECORD_LAUNCH "launch"
#define GP_RECORD_NAME "name"
#define GP_RECORD_WARNING "warning"
#define GP_RECORD_END "end"
#define GP_RECORD_GRAPH "graph"
#define GP_RECORD_SAMPLED "sampled"
#define GP_RECORD_FOOTPRINT "footprint"
#define GP_RECORD_SOURCE "source"
#define GP_RECORD_SOURCE_NOTE "source_note"
#define GP_RECORD_RANGE "range"
#define GP_RECORD_STALLS "stalls"
#define GP_RECORD_STALL "stall"

/* A kernel that ran: the tag that starts its line, then its numbers in this order. */
#define GP_KERNEL_TAG 'K'
typedef enum {
    GP_K_PID, GP_K_ID, GP_K_CONTEXT, GP_K_DEVICE, GP_K_STREAM, GP_K_NAME,
    GP_K_GX, GP_K_GY, GP_K_GZ, GP_K_BX, GP_K_BY, GP_K_BZ,
    GP_K_SMEM, GP_K_START, GP_K_END, GP_K_GRAPH, GP_K_NODE,
    GP_K_FIELDS
} gp_kernel_field;

/* A memory copy, a memset, a unified-memory counter record: their tags and fields. */
#define GP_COPY_TAG 'M'
typedef enum {
    GP_M_PID, GP_M_ID, GP_M_CONTEXT, GP_M_DEVICE, GP_M_STREAM, GP_M_KIND, GP_M_SRC, GP_M_DST,
    GP_M_BYTES, GP_M_START, GP_M_END,
    GP_M_FIELDS
} gp_copy_field;

#define GP_MEMSET_TAG 'S'
typedef enum {
    GP_S_PID, GP_S_ID, GP_S_CONTEXT, GP_S_DEVICE, GP_S_STREAM, GP_S_MEMORY, GP_S_BYTES,
    GP_S_START, GP_S_END,
    GP_S_FIELDS
} gp_memset_field;

#define GP_UNIFIED_TAG 'U'
typedef enum {
    GP_U_PID, GP_U_COUNTER, GP_U_VALUE, GP_U_START, GP_U_END, GP_U_SRC, GP_U_DST,
    GP_U_FIELDS
} gp_unified_field;

/* With --nvtx, the NVTX range path of a kernel that ran (after its K line, the same id and
 * node): `range` the number of a `range` record's path of the same process, open at the
 * launch; `capture` (0: none) a graph kernel node's, open when the node was captured. */
#define GP_RANGE_TAG 'R'
typedef enum {
    GP_R_PID, GP_R_ID, GP_R_NODE, GP_R_RANGE, GP_R_CAPTURE,
    GP_R_FIELDS
} gp_range_field;

/* One PM-sampling interval of a sampled graph launch. */
#define GP_SAMPLE_TAG 'P'
typedef enum {
    GP_P_PID, GP_P_ID, GP_P_DEVICE, GP_P_START, GP_P_END, GP_P_READ, GP_P_WRITE,
    GP_P_FIELDS
} gp_sample_field;

#endif
