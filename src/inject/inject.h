/* libgpuprof-inject.so: the library `gpuprof exec` has the CUDA driver load into a program.
 * Every file of src/inject/ includes this header first; it holds the room's rules.
 *
 * What code here may never do, because it runs inside someone else's process:
 *   - exit, abort, or raise a signal of its own (the crash handler of inject.c re-raises the
 *     program's own signal, after its handler was put back);
 *   - write to the program's standard output or error, or read its standard input: every
 *     word for the user goes into a record (inject/record.h), a failure into a warning
 *     record naming what could not be done and why;
 *   - call into the program's streams, or change its CUDA state, outside these points:
 *     a launch's API entry and exit (a profiler session or pass around it, launches.c), a
 *     CUDA graph launch's entry and exit (the context synchronised, its memory saved and
 *     restored around shadow launches on a private stream of gpuprof's own, the program's
 *     stream synchronised after a sampled launch, graph_launches.c), a context's creation
 *     and destruction (contexts.c), the process's end (inject.c);
 *   - link cudart, or call what only gpuprof links (cJSON, the renderers).
 *
 * Its threads:
 *   - The program's threads call in through CUPTI's callbacks (inject.c dispatches them).
 *     The launch lock (inject/locks.h), recursive, is held from each kernel or graph
 *     launch's API entry to its exit, and while a context is created or destroyed: it
 *     guards the contexts and their sessions (contexts.c, sessions.c), the filters
 *     (filters.c), the private streams (streams.c) and the graph launches' state
 *     (graph_launches.c). So no other thread's kernel falls into a profiled launch's
 *     session, or into a graph launch's shadow launches or sampling window.
 *   - CUPTI's activity thread delivers the activity records (activity_records.c,
 *     activity_memory.c), one buffer at a time, and asks the codes and the profiled-id sets.
 *   - Every mutex linked into the library, in the one order a thread may hold several (a
 *     lock is never taken while one after it is held):
 *       1. the process's end (inject.c's `once`), around the last passes and flushes;
 *       2. unified memory's start (activity_memory.c), around its configuration, alone;
 *       3. the launch lock (locks.c), recursive;
 *       4. the executable graphs' table (graphs.c), inside the launch lock or alone
 *          (instantiation and update callbacks);
 *       5. the sampler table (sampling.c), inside the launch lock: it opens PM samplers
 *          (7) and writes records (11);
 *       6. the stall samplers (stalls.c), on the program's threads at a launch's exit or a
 *          context's end, or at the process's end (inside 1): PC sampling's calls, the
 *          cubins (9) and the record file (11) inside it;
 *       7. CUPTI's profiler initialisation count (counters/cupti_call.c), when a profiler or
 *          sampler opens or closes; where GPUPROF_COUNTER_LOCK names a file, its first
 *          acquire waits there for other processes' turn with the counters
 *          (counters/counter_lock.c), holding it (and the launch lock, at a context's start);
 *       8. the activity buffers, one at a time (activity_records.c), on CUPTI's thread or
 *          inside a flush (after 1 or 3);
 *       9. the codes table (codes.c), the profiled-id sets (profiled.c), the cubins
 *          (counters/cubins.c) and the graph nodes' capture paths (launch_ranges.c): each
 *          held only around its own table, never two at once;
 *      10. the NVTX range model (nvtx_ranges.c), around its own tables, on the program's
 *          NVTX calls (nvtx.c), when a path is numbered, and when the NVTX filters choose a
 *          launch (inside 3: filters.c asks, and the match calls nothing that locks);
 *      11. the record file (record.c), around one write, last.
 *   - Every file-scope or static variable linked into the library (src/inject/, and the files
 *     of other rooms the Makefile's INJECT_SRC names) says which lock guards it
 *     ("Guard: ..."), or why it needs none; tests/cli/test_hacking.py holds that to the
 *     code. */
#ifndef GPUPROF_INJECT_INJECT_H
#define GPUPROF_INJECT_INJECT_H

#endif
