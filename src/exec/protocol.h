/* What `gpuprof exec` and the library it injects into the program (libgpuprof-inject.so)
 * say to each other. Options go to the library through the environment; the library writes
 * one record per line to <GPUPROF_EXEC_DIR>/<pid>.jsonl, as each thing happens, so a
 * program that crashes loses at most the launch in flight. Never the program's own stdout or
 * stderr: those pass through untouched.
 *
 * Records, one JSON object per line (key "t"):
 *   process   pid, ppid                                   the library started in a process
 *   device    context, device, name, cc, sms, memory, l2, sm_clock_khz, memory_clock_khz,
 *             bus_bits                                    a context was created
 *   profiler  context, chip, passes, set, counters[], metrics[{key, unit, missing}]
 *                                                         a context's counters were set up
 *   launch    id, context, device, stream, kernel (mangled), grid[3], block[3], smem,
 *             profiled, values[] (one per counter of the context's profiler record)
 *                                                         a kernel launch (metrics mode)
 *   name      n, name (mangled)                           a kernel name's number
 *   warning   text, hint                                  something could not be done
 *   end       pid                                         the process is exiting normally
 * and, many times over, one line of numbers per kernel that ran (an activity record):
 *   K pid id context device stream name-number grid.x grid.y grid.z block.x block.y block.z
 *     smem start_ns end_ns graph node
 * `id` is CUPTI's correlation id: a launch and the kernel it ran share it, and it grows in
 * launch order within a process. */
#ifndef GPUPROF_EXEC_PROTOCOL_H
#define GPUPROF_EXEC_PROTOCOL_H

#define GP_ENV_INJECTION "CUDA_INJECTION64_PATH"
#define GP_ENV_DIR "GPUPROF_EXEC_DIR"
#define GP_ENV_METRICS "GPUPROF_EXEC_METRICS"       /* none | default | all | list:a,b,... */
#define GP_ENV_KERNEL "GPUPROF_EXEC_KERNEL"         /* extended regular expression */
#define GP_ENV_SKIP "GPUPROF_EXEC_LAUNCH_SKIP"
#define GP_ENV_COUNT "GPUPROF_EXEC_LAUNCH_COUNT"
#define GP_ENV_PER_KERNEL "GPUPROF_EXEC_PER_KERNEL"
#define GP_ENV_PARENT "GPUPROF_EXEC_PARENT"         /* gpuprof's pid: the process it started
                                                       is the one whose parent it is */
#define GP_ENV_FOLLOW "GPUPROF_EXEC_FOLLOW"         /* 1: that process's children too */

#define GP_RECORD_SUFFIX ".jsonl"

#endif
