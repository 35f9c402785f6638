/* The report: plain data measured by the runner and profiler, rendered by one renderer.
 * No formatting here, and no CUDA: a report can also be read back from JSON. */
#ifndef GPUPROF_REPORT_H
#define GPUPROF_REPORT_H

#include "gpuprof/exec_request.h"
#include "gpuprof/metrics.h"
#include "gpuprof/source_view.h"
#include "gpuprof/types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GP_SCHEMA_VERSION 1

typedef struct {
    int index;
    char name[GP_NAME_LEN];
    int cc_major, cc_minor;
    int multiprocessors;
    uint64_t memory_bytes;
    uint64_t l2_bytes;
    double sm_clock_mhz;
    double memory_clock_mhz;
    int memory_bus_bits;
    double peak_gbps;            /* 2 × memory clock × bus width */
    double copy_gbps;            /* measured device-to-device copy, read + written; <0 unknown */
    int driver_version;          /* 13000 = 13.0 */
    int runtime_version;
} gp_device_info;

typedef enum { GP_CHECK_PASSED = 0, GP_CHECK_FAILED, GP_CHECK_SKIPPED } gp_check_status;

typedef struct {
    gp_check_status status;
    bool exact;                  /* integer comparison */
    double expected, got;
    double tolerance;            /* absolute, for float checks */
    uint64_t mismatches;         /* element-wise checks */
    char detail[GP_TEXT_LEN];
    bool rechecked;              /* verified again after profiling */
    gp_check_status after_profile;
} gp_check;

typedef struct {
    double min_ms, median_ms, max_ms;
    unsigned repeats, warmup;
    double noise_pct;            /* the repeats' robust relative spread, 1.4826 × MAD / median
                                    in %: NAN when unknown (reports of older gpuprof) */
} gp_timing;

typedef struct {
    char kernel[GP_NAME_LEN];
    gp_dim3 grid, block;
    size_t shared_bytes;
    unsigned in_nx, in_ny, out_nx, out_ny;
    int opaque;
    double median_ms;            /* <0 when not timed on its own */
    gp_metric_set metrics;
} gp_launch_record;

/* How a report's metrics were collected: the profiler's part of a report. */
typedef enum { GP_PROF_DISABLED = 0, GP_PROF_OK, GP_PROF_UNAVAILABLE } gp_profiler_state;

/* exec --replay=auto: whether it replayed each kernel signature's first launch, and the device
 * memory it decided on (a replay saves all the memory in use). */
typedef struct {
    bool known;                  /* auto decided (it does for counters of several passes) */
    bool replays;                /* false: no replay, one group per launch as rotate */
    uint64_t held, free, total;  /* bytes of device memory in use, free, and in all */
    uint64_t budget;             /* the most auto saves for a replay */
} gp_auto_footprint;

typedef struct {
    gp_profiler_state state;
    char reason[GP_TEXT_LEN];
    char chip[32];
    int passes;
    char metric_set[32];         /* default / all / list */
    bool has_replay;             /* exec: `replay` is known (false for the kernel commands
                                    and reports of a gpuprof that had no --replay) */
    gp_exec_replay replay;       /* exec's --replay, as its profiler records said it */
    int pass_groups;             /* exec: the one-pass groups its launches rotated over; 0:
                                    none (every profiled launch had every counter) */
    gp_auto_footprint footprint; /* exec --replay=auto: its decision (of those of every
                                    context and process, the first not to replay, else the
                                    first) */
} gp_profiler_info;

/* A parameter of a result's family (pad, group, …): NAN where it does not apply. */
typedef struct {
    char name[32];
    double value;
} gp_param;

#define GP_RESULT_MAX_PARAMS 8

typedef struct {
    char family[32];
    char variant[64];
    char type[16];               /* int32 / float32 */
    uint64_t n;
    unsigned nx, ny;             /* matrices */
    gp_dim3 grid, block;         /* of the main kernel */
    size_t shared_bytes;
    gp_param params[GP_RESULT_MAX_PARAMS];
    size_t n_params;
    gp_timing timing;
    uint64_t bytes_moved;
    double gbps;
    double percent_of_peak;
    gp_check check;
    bool profiled;
    int passes;                  /* profiler replay passes */
    double sm_clock_ghz, dram_clock_ghz;   /* seen while profiling; <0 unknown */
    gp_metric_set metrics;       /* aggregate over the launches */
    gp_launch_record *launches;
    size_t n_launches;
    size_t input;                /* merged reports: the index of its input report in `sources` */
    gp_source_kernel *lines;     /* --source: each kernel's per-line view (NULL: not asked) */
    size_t n_line_kernels;
} gp_result;

/* How an exec launch's metrics were obtained (gp_exec_launch.origins, bits). */
#define GP_ORIGIN_RANGE   (1u << 0)  /* profiled when the program launched it */
#define GP_ORIGIN_SHADOW  (1u << 1)  /* a graph node launched alone before its graph launch */
#define GP_ORIGIN_SAMPLED (1u << 2)  /* DRAM traffic from PM sampling of the graph launch */
#define GP_ORIGIN_GRAPH   (1u << 3)  /* one range around a whole graph launch */

/* gpuprof exec: one kernel that ran in the program. */
typedef struct {
    int pid;                     /* its process */
    uint64_t id;                 /* CUPTI's correlation id: launch order within the process */
    char *kernel;                /* demangled name */
    char *mangled;               /* NULL when only the demangled name is known */
    uint64_t code;               /* the code it ran: its cubin's CRC; 0 when not known */
    unsigned variant, variants;  /* its code's number among its kernel's codes, 1 to
                                    `variants` (gp_exec_number_variants); 0 and 0 when the
                                    kernel ran one code */
    int device;
    unsigned context, stream;
    gp_dim3 grid, block;
    size_t shared_bytes;
    double duration_ms;          /* <0 unknown */
    bool profiled;               /* its counters were collected */
    uint32_t passes;             /* the one-pass groups it collected (bit g: group g); 0 when
                                    the launches did not rotate */
    uint64_t graph, graph_node;  /* the CUDA graph node it ran as; 0: launched directly */
    unsigned origins;            /* how its metrics were obtained: GP_ORIGIN_* bits (0: none) */
    char *note;                  /* why a metric is approximate or missing (a graph node's
                                    sampled DRAM traffic, a graph not shadow-launched); NULL */
    char *range;                 /* --nvtx: its NVTX range path ("step/forward"); NULL: none
                                    open, or not recorded */
    gp_metric_set metrics;
    size_t input;                /* merged reports: the index of its input report in `sources`;
                                    GP_INPUT_UNKNOWN in merges of older gpuprof */
} gp_exec_launch;

/* gpuprof exec: what a memory copy or memset was, in CUPTI's numbering (CUpti_ActivityMemcpyKind,
 * then the memset after the copies), so the records carry it unchanged. */
typedef enum {
    GP_ACTIVITY_MEMCPY_UNKNOWN, GP_ACTIVITY_HTOD, GP_ACTIVITY_DTOH, GP_ACTIVITY_HTOA,
    GP_ACTIVITY_ATOH, GP_ACTIVITY_ATOA, GP_ACTIVITY_ATOD, GP_ACTIVITY_DTOA, GP_ACTIVITY_DTOD,
    GP_ACTIVITY_HTOH, GP_ACTIVITY_PTOP, GP_ACTIVITY_MEMSET,
    GP_ACTIVITY_KINDS
} gp_activity_kind;

/* The memory a copy reads or writes, or a memset writes (CUpti_ActivityMemoryKind's numbers). */
typedef enum {
    GP_MEMORY_UNKNOWN, GP_MEMORY_PAGEABLE, GP_MEMORY_PINNED, GP_MEMORY_DEVICE, GP_MEMORY_ARRAY,
    GP_MEMORY_MANAGED, GP_MEMORY_DEVICE_STATIC, GP_MEMORY_MANAGED_STATIC,
    GP_MEMORY_KINDS
} gp_memory_kind;

/* gpuprof exec: one memory copy or memset the GPU did (CUPTI's activity records). */
typedef struct {
    int pid;
    uint64_t id;                 /* CUPTI's correlation id: API-call order with the launches */
    int device;
    unsigned context, stream;
    gp_activity_kind kind;
    gp_memory_kind src, dst;     /* a memset: dst only (src unknown) */
    uint64_t bytes;
    uint64_t start_ns, end_ns;   /* from the run's first copy or memset's start; end <
                                    start: time unknown */
} gp_exec_activity;

/* Unified memory: what CUPTI's counters counted (CUpti_ActivityUnifiedMemoryCounterKind's
 * numbers; 0 unused). */
typedef enum {
    GP_UM_UNKNOWN, GP_UM_BYTES_HTOD, GP_UM_BYTES_DTOH, GP_UM_CPU_PAGE_FAULTS,
    GP_UM_GPU_PAGE_FAULTS, GP_UM_THRASHING, GP_UM_THROTTLING, GP_UM_REMOTE_MAP,
    GP_UM_BYTES_DTOD,
    GP_UM_COUNTERS
} gp_um_counter;

/* One counter over the run: its records, the sum, least and most of their values (bytes, or
 * faults/events), and the time the records with a duration took. */
typedef struct {
    uint64_t events, total, min, max;
    uint64_t time_ns;
} gp_um_stats;

#define GP_INPUT_UNKNOWN SIZE_MAX

/* gp_exec_source_view.launch of a kernel that had no patched launch. */
#define GP_NO_LAUNCH UINT64_MAX
/* ... of a view counted in gpuprof's own run of a kernel command after its sampled child
 * (--source --stalls), not in one of the program's launches (CUPTI's correlation ids begin at
 * 1). */
#define GP_OWN_RUN 0

/* gpuprof exec --source: a kernel's per-line view in one process, from the one launch of it
 * the library patched (its SASS instructions counted, after its counters were collected), or
 * why it has none. */
typedef struct {
    gp_source_kernel view;       /* view.kernel: the mangled name; no lines with only a note */
    uint64_t code;               /* the code it is of (a cubin's CRC); 0: not known */
    int pid;                     /* its process */
    uint64_t launch;             /* the patched launch's correlation id, its launch's `id`;
                                    GP_NO_LAUNCH: none (a note says why); GP_OWN_RUN:
                                    gpuprof's own run (its note says of what) */
    char *note;                  /* why it has no lines (CUPTI could not patch it, no cubin
                                    seen); NULL */
    size_t input;                /* merged reports: the index of its input report in `sources` */
} gp_exec_source_view;

/* gpuprof exec --stalls: one instruction's warp-stall samples from CUPTI's PC sampling in the
 * program's own launches (continuous mode: per function, not per launch). A reason's samples
 * are CUPTI's smsp__pcsamp_warps_issue_stalled_X: every sample that found a warp at the
 * instruction for reason X, issued or not, as ncu's "Warp Stall Sampling (All Samples)"
 * counts them (their sum over the reasons is CUPTI's total less the non-user samples, on the
 * H200). X_not_issued counts a part of them: those in which the warp was not issued. */
typedef struct {
    int pid;                     /* its process */
    char *kernel;                /* the function's mangled name, as CUPTI names it */
    uint64_t code;               /* its cubin's CRC; 0: not known */
    uint32_t pc;                 /* the instruction's offset in the function, bytes */
    char *file;                  /* "dir/file.cu"; NULL: the cubin has no line information */
    uint32_t line;               /* 0 with no file */
    uint64_t *samples;           /* per reason, gp_exec_stalls.reasons' order, n_reasons of
                                    them (a report's reasons only grow: shorter arrays of
                                    earlier instructions are extended as a reason is added) */
    uint64_t not_issued;         /* of its samples, those that found the warp not issued (the
                                    sum of CUPTI's _not_issued counts; ncu's "Not-issued
                                    Samples") */
    size_t input;                /* merged reports: the index of its input report in `sources` */
} gp_exec_stall_pc;

/* gpuprof exec --stalls: every sampled instruction of the run, and what the sampling saw. */
typedef struct {
    bool sampled;                /* --stalls ran (a report without: nothing below) */
    unsigned period_log2;        /* the sampling period, 2^period_log2 cycles per SM
                                    sub-partition; 0: not known */
    char **reasons;              /* ncu's reason names without the prefix and the
                                    _not_issued suffix: "long_scoreboard", "wait", ... */
    size_t n_reasons;
    gp_exec_stall_pc *pcs;       /* by (input, pid, kernel, code, pc) once read */
    size_t n_pcs, pc_capacity;
    uint64_t samples;            /* CUPTI's total: user kernels', others' and dropped ones */
    uint64_t dropped;            /* lost by the hardware to back-pressure or overflow */
    uint64_t non_user;           /* in kernels that are not the program's (no PC given) */
    bool buffer_full;            /* the hardware buffer filled at least once: PCs were lost */
} gp_exec_stalls;

/* gpuprof exec in a distributed job (torchrun, mpirun, srun): the process's rank, the job's
 * size, and where gpuprof read the rank: --rank, or the launcher's variable (src/exec/rank.c). */
typedef struct {
    bool known;                  /* false: not a rank of a distributed job (none was found) */
    int rank;                    /* from 0 */
    int size;                    /* the job's ranks (its world size); 0: not known */
    char from[32];               /* "--rank", "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                    "SLURM_PROCID" */
} gp_exec_rank;

/* gpuprof exec: the program, how it ended, the GPUs it used and its kernels. */
typedef struct {
    char **argv;                 /* the program's command line */
    size_t argc;
    int pid;                     /* the process gpuprof started */
    int exit_status;             /* as a shell reports it: its code, or 128 + the signal */
    int signal;                  /* the signal that ended it; 0 if none */
    size_t processes;            /* processes recorded (children with --follow-children) */
    gp_exec_rank rank;           /* its rank in a distributed job; not kept by a merge */
    gp_exec_request request;     /* what exec was asked: the filters, how graph kernel nodes
                                    were profiled (the reports keep the filters and the graph
                                    mode; --replay is the profiler section's) */
    gp_device_info *devices;
    size_t n_devices;
    gp_exec_launch *launches;
    size_t n_launches, launch_capacity;
    gp_exec_activity *activities; /* copies and memsets, by (pid, id, start) */
    size_t n_activities, activity_capacity;
    gp_um_stats unified[GP_UM_COUNTERS];   /* events 0: not counted */
    gp_exec_source_view *source_views;     /* --source: each kernel's per-line view per
                                              process, by (source, pid, launch), those
                                              without a launch last */
    size_t n_source_views, source_view_capacity;
    gp_exec_stalls stalls;                 /* --stalls: the warp-stall samples */
} gp_exec_info;

/* gpuprof report of a distributed job's ranks: each kernel's values per rank (gpuprof/ranks.h). */
typedef struct gp_rank_view gp_rank_view;

/* A report merged from several files (gpuprof report A.json B.json): one of them. */
typedef struct {
    char *file;                  /* as named on the command line */
    char tool_version[32];
    char command[32];
    bool has_device;
    gp_device_info device;
    char **program;              /* an exec report's program (command line); NULL for kernel
                                    reports and merges of older gpuprof */
    size_t program_len;
} gp_report_source;

typedef struct {
    char tool_version[32];
    char command[32];
    char **command_line;
    size_t command_line_len;
    bool has_device;
    gp_device_info device;
    unsigned repeat, warmup;
    uint64_t seed;
    double max_noise_pct;        /* --max-noise; NAN when not asked for */
    gp_profiler_info profiler;
    gp_result *results;
    size_t n_results;
    char **warnings;
    size_t n_warnings;
    bool is_exec;                /* a report of gpuprof exec: `exec` holds it, no results */
    gp_exec_info exec;
    int exit_status;             /* what gpuprof exits with when the command succeeded (exec:
                                    the program's status) */
    gp_report_source *sources;   /* merged reports: each file, in the order given; else none */
    size_t n_sources;
    gp_rank_view *ranks;         /* a rank view (an exec report of several ranks' files, its
                                    launches none, `exec` the lowest rank's header); else NULL */
} gp_report;

void gp_report_init(gp_report *r);
/* The profiler section of a report whose counters were set up: state OK, the chip, the
 * passes and the metric set. */
void gp_profiler_info_set(gp_profiler_info *info, const char *chip, int passes,
                          gp_metrics_kind set);
void gp_report_free(gp_report *r);
int gp_report_add_result(gp_report *r, gp_result **out);
int gp_report_add_warning(gp_report *r, const char *text);
int gp_report_set_command_line(gp_report *r, int argc, char **argv);
int gp_result_add_launch(gp_result *res, gp_launch_record **out);
/* exec: a launch zeroed (duration unknown), a device, the program's command line. */
int gp_exec_add_launch(gp_exec_info *e, gp_exec_launch **out);
int gp_exec_add_device(gp_exec_info *e, const gp_device_info *d);
/* exec: a copy or memset zeroed; a unified-memory counter's record (value, duration) added to
 * its totals. */
int gp_exec_add_activity(gp_exec_info *e, gp_exec_activity **out);
void gp_exec_count_unified(gp_um_stats *s, uint64_t value, uint64_t time_ns);
/* exec --source: a view zeroed (launch GP_NO_LAUNCH); one view's contents freed; a deep copy
 * (for a view copied from another report). */
int gp_exec_add_source_view(gp_exec_info *e, gp_exec_source_view **out);
void gp_exec_source_view_clear(gp_exec_source_view *v);
int gp_exec_source_view_copy(const gp_exec_source_view *from, gp_exec_source_view *to);
int gp_exec_set_program(gp_exec_info *e, int argc, char **argv);
/* exec --stalls: a reason's index in the report's table, added when new (every instruction's
 * samples array grown by one, zero); -1 when out of host memory. */
int gp_exec_stall_reason(gp_exec_stalls *s, const char *name);
/* exec --stalls: an instruction zeroed, its samples array n_reasons long. */
int gp_exec_add_stall_pc(gp_exec_stalls *s, gp_exec_stall_pc **out);
void gp_exec_stalls_free(gp_exec_stalls *s);
/* A merged report's source: its program's words appended (copies); everything it owns freed. */
int gp_report_source_set_program(gp_report_source *s, size_t argc, char *const *argv);
void gp_report_source_free(gp_report_source *s);
/* A zeroed element appended to a growing array: `items` is the address of the array (T **),
 * *n its elements used of *capacity, elem the size of one. NULL when out of host memory (the
 * array is as it was). The report's exec launches and activities grow so, and the arrays of
 * the rooms that read records or render. */
void *gp_append_zeroed(void *items, size_t *n, size_t *capacity, size_t elem);
/* The same with a copy of `name` into *copy, for an element that owns its name: both or
 * neither (NULL, the array as it was). */
void *gp_append_named(void *items, size_t *n, size_t *capacity, size_t elem, const char *name,
                      char **copy);

/* Whether a report belongs in a rank view: an exec report with a rank, or a rank view. */
bool gp_report_has_rank(const gp_report *r);
/* Whether a report has a per-line view (--source was asked when it was recorded): an exec
 * report's (gp_exec_has_source), or a result's lines. */
bool gp_report_has_source(const gp_report *r);

/* Results zeroed and ready to fill, appended at once (their addresses stay put after). */
int gp_report_add_results(gp_report *r, size_t n, gp_result **first);
/* Record a parameter of the result (value NAN: it does not apply). */
int gp_result_add_param(gp_result *res, const char *name, double value);
/* "reduce neighbored int32 n=16777216 block=512x1": what identifies a result, for people. */
void gp_result_describe(const gp_result *r, char *buf, size_t len);
/* A launch shape as people read it: "256", "32x8" (two_d: a matrix's, or any y above 1),
 * "-" for a library call's (CUB's own, not captured: x 0). */
void gp_dim_text(char *buf, size_t len, gp_dim3 d, bool two_d);
/* As CSV has it: "256x1x1"; empty for a library call's. */
void gp_dim_csv(char *buf, size_t len, gp_dim3 d);
/* The result's parameter by name, or NULL. */
const gp_param *gp_result_param(const gp_result *r, const char *name);

const char *gp_check_status_name(gp_check_status s);
const char *gp_dtype_name(gp_dtype t);
bool gp_dtype_from_name(const char *name, gp_dtype *t);

/* Read a report written by gp_render_json, from a file ("-": standard input) or from text
 * (`name` labels the messages). On failure *r holds what was read so far: free it. */
int gp_report_read_json(const char *path, gp_report *r);
int gp_report_parse_json(const char *text, size_t len, const char *name, gp_report *r);

/* Merge `part` (read from `file`) into `into`, moving its results and launches (part is left
 * empty, to be freed). The first merged report gives `into` its header; every one becomes a
 * source, and its results carry that source's index. Exec and kernel reports do not mix. */
int gp_report_merge(gp_report *into, gp_report *part, const char *file);
/* Whether the merged reports ran on different GPUs (by name) or different gpuprof versions. */
bool gp_report_sources_differ(const gp_report *r);

/* A metric set's metric by key (s NULL: none); NULL when it is not there. */
const gp_metric_value *gp_metric_set_value(const gp_metric_set *s, const char *key);

#endif
