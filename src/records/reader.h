/* The record reader's state, shared by the files of src/records/ that read records (read.c,
 * read_profilers.c, read_lines.c, read_graphs.c, read_source.c, launch_table.c), and the
 * services of reader.c: where the line being read is, the warnings about records that are not
 * as the library writes them, each context's counters. Private to src/records/. */
#ifndef GPUPROF_RECORDS_READER_H
#define GPUPROF_RECORDS_READER_H

#include "gpuprof/collector.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/report.h"
#include "records/dram_shares.h"
#include "report/json_in.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_RECORD_IGNORED "the record is ignored"
#define GP_DURATION_COUNTER "gpu__time_duration.sum"

/* A context's counters as its profiler record gave them: what its launches' values mean. */
typedef struct {
    int pid;
    unsigned context;
    gp_collector collector;      /* no profiler: names, metrics and chip only */
    char *names[GP_MAX_COUNTERS];
} context_counters;

/* A `name` record: the kernel's mangled name and code (0: not known), which a `K` line
 * names by number. */
typedef struct {
    char *name;
    uint64_t code;
} numbered_name;

/* What read_graphs.c and read_source.c keep until every record and line is read: arrays of
 * types of their own, empty until a record of theirs. */
typedef struct {
    struct unshadowed_graph *graphs;
    size_t n_graphs, graphs_capacity;
    struct after_host_node *after_host;
    size_t n_after_host, after_host_capacity;
    struct sampled_launch *sampled;
    size_t n_sampled, sampled_capacity;
    struct sample_line *samples;
    size_t n_samples, samples_capacity;
    gp_dram_sample *ordered;     /* the samples in (pid, id, device, start) order */
    struct kernel_time *kernels;
    size_t n_kernels, kernels_capacity;
} graph_records;

typedef struct {
    struct patched_instruction *ins;
    size_t n_ins, ins_capacity;
    struct kernel_note *notes;
    size_t n_notes, notes_capacity;
} source_records;

typedef struct {
    gp_report *report;
    gp_hashmap demangled;        /* mangled name -> char *: its demangled name, NULL when it
                                    is not a C++ name (a program launches few kernels, many
                                    times) */
    gp_hashmap numbered;         /* uint64_t {pid, number} -> numbered_name: a process's kernel
                                    names and codes by the numbers its `name` records gave
                                    them */
    size_t n_recorded;           /* launches sorted by (pid, id, node) that find_launch
                                    searches: those of launch records, then all */
    context_counters **contexts; /* each its own block: a collector is never moved (its
                                    metrics point into it) */
    size_t n_contexts;
    bool *ended;                 /* per process index: wrote its end record */
    int *pids;
    size_t n_pids;
    gp_json_reader json;         /* the line being read, for the layer's messages */
    char where[320];             /* "<file> line <n>" */
    size_t n_ignored;            /* records and lines that were not as the library writes */
    graph_records graphs;        /* graph records, sampled records and P lines */
    source_records source;       /* source and source_note records */
    gp_hashmap ranges;           /* uint64_t {pid, number} -> char *: a process's NVTX range
                                    paths by the numbers its `range` records gave them */
    gp_hashmap stall_contexts;   /* {pid, context} -> stall_reasons *: a context's reasons
                                    as its `stalls` record named them (read_stalls.c) */
    gp_hashmap stall_pcs;        /* {pid, code, pc} + kernel -> size_t: an instruction's
                                    index in the report's stalls, its contexts added up */
    gp_exec_launch *last_kernel; /* the launch of the `K` line read last (an `R` line follows
                                    its kernel's); NULL: none, or not kept */
} reader;

/* How a launch record's launch was made (its key "how"). */
typedef enum { GP_HOW_DIRECT, GP_HOW_SHADOW, GP_HOW_GRAPH } gp_launch_how;

/* The line being read, as messages name it: "<file> line <n>". */
void gp_records_locate(reader *rd, const char *file, size_t line);
/* The problem the JSON layer just recorded, said as a warning with its consequence. */
int gp_records_ignore(reader *rd, const char *consequence);
/* After every record: how many more were ignored than were said. */
int gp_records_note_more_ignored(const reader *rd);
/* The error when a record's contents find no host memory to be kept in (read_graphs.c and
 * read_source.c keep theirs until every record is read, and fail so in many places). */
int gp_records_out_of_memory(void);

/* The context's collector, rebuilt from its profiler record (add), and found again. */
int gp_records_add_context(reader *rd, context_counters **out);
const context_counters *gp_records_counters_of(const reader *rd, int pid, unsigned context);
void gp_records_free_contexts(reader *rd);

#endif
