/* The records room: what the library injected into a program wrote (gpuprof/record_format.h)
 * read back into the report's `exec` section, and the later runs of --replay=application
 * merged into the first. Its files, from the top:
 *   files.c          the records folder: each <pid>.jsonl listed in name order and mapped
 *   read.c           one pass over the texts: the JSON records, then the lines of numbers
 *   read_profilers.c profiler records: each context's counters, rebuilt as a collector
 *   read_lines.c     the lines of numbers: kernels (K), copies (M), memsets (S), unified
 *                    memory (U), DRAM samples (P), NVTX ranges (R)
 *   read_graphs.c    CUDA graphs: graph and sampled records, each node's share of the samples
 *   read_source.c    --source: source records grouped into each patched launch's per-line
 *                    view, source_note records
 *   read_ranges.c    --nvtx: range records, a launch record's range and R lines: each
 *                    launch's NVTX range path
 *   launch_table.c   the launches read so far: find, order, adopt a shadow launch, metrics
 *   reader.c         the reader's state and its warnings about records not as written
 *   dram_shares.c    a sampled graph launch's DRAM traffic shared among its nodes (pure)
 *   merge_runs.c     --replay=application: a later run's counters added to the first's
 * Each file calls only the files below it. */
#ifndef GPUPROF_RECORDS_H
#define GPUPROF_RECORDS_H

#include "gpuprof/report.h"

#include <stddef.h>

/* Every <pid>.jsonl in dir: devices, profiler set-ups, launches with their metrics, kernel
 * times, --source's per-line views, warnings; launches sorted by process and launch order. */
int gp_records_read_dir(const char *dir, gp_report *report);

/* One record file's text: its name as the warnings give it ("1234.jsonl"), its bytes. */
typedef struct {
    const char *name;
    const char *text;
    size_t len;
} gp_records_text;

/* The same from record files already in memory, in the order given. */
int gp_records_read_texts(const gp_records_text *files, size_t n, gp_report *report);

/* --replay=application: the program runs once per one-pass group, and each later run's
 * profiled launches are matched to the first run's as ncu's --app-replay-match grid does: by
 * process (in the order of their ids), kernel, grid, block, dynamic shared memory and the
 * launch's ordinal among those. A match adds the run's counters to the first run's launch,
 * whose metrics are then derived again; a launch without one is said in a warning, and what
 * it lacks stays n/a. Merge `run` (the run that collected `pass`, ended with `exit_status`)
 * into `into`, the first run's report. */
int gp_records_merge_run(gp_report *into, const gp_report *run, unsigned pass,
                         int exit_status);

#endif
