/* exec --stalls: why warps wait, summarised from the sampled instructions of the report
 * (gp_exec_stalls, gpuprof/report.h). Each reason (ncu's name) belongs to one group read
 * memory first: memory latency, memory throughput, shared memory, synchronisation,
 * instruction issue, other (any name the table does not know). The summary has a row per
 * kernel code, numbered as the kernel summary numbers it (gpuprof/kernel_labels.h), each with
 * its source lines (file:line, or GP_STALL_NO_LINE) worst first and each line's instructions;
 * every row its samples, its share of its whole, its groups' samples and its top reasons.
 * Derived whenever a view is rendered (src/report/exec_stalls.c). */
#ifndef GPUPROF_EXEC_STALLS_H
#define GPUPROF_EXEC_STALLS_H

#include "gpuprof/kernel_labels.h"
#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A kernel with fewer samples has no shares shown: at 100 samples a share is known to about
 * 5 points (binomial, 95 %), too loose to tell one reason from another. */
#define GP_STALL_FEW_SAMPLES 100
/* People's views list a kernel's lines holding at least this share of its samples (percent);
 * the rest are summed in one "other lines" row (CSV and JSON hold every line). */
#define GP_STALL_LINE_MIN_PERCENT 1.0
/* The line of the instructions whose code has no line information. */
#define GP_STALL_NO_LINE "(no line)"
/* The top reasons a row keeps (--wide shows them all, the default view the first). */
#define GP_STALL_TOP 3

/* The groups, memory first: each one's id, key (CSV's column), text's heading, name, its
 * reasons as the legend lists them and one sentence of what usually fixes it. A table of
 * macros so that the enum, the groups' table and the parts' columns name each group once. */
#define GP_STALL_GROUP_TABLE(X)                                                                \
    X(GP_STALL_MEMORY_LATENCY, "memory_latency", "mem lat", "memory latency",                   \
      "long_scoreboard",                                                                       \
      "more loads in flight per warp (unrolling, vector loads) or more warps per SM, and "      \
      "fewer loads that wait on one another")                                                  \
    X(GP_STALL_MEMORY_THROUGHPUT, "memory_throughput", "mem thru", "memory throughput",         \
      "lg_throttle, tex_throttle, drain",                                                      \
      "fewer and wider memory instructions (vector loads, coalesced accesses) and less "        \
      "traffic through L1/TEX, so that the load-store queues do not fill")                     \
    X(GP_STALL_SHARED_MEMORY, "shared_memory", "shared", "shared memory",                      \
      "short_scoreboard, mio_throttle",                                                        \
      "fewer shared-memory instructions and bank conflicts (padding, wider accesses), and "     \
      "independent work between a shared load and its use")                                    \
    X(GP_STALL_SYNC, "synchronisation", "sync", "synchronisation",                             \
      "barrier, membar, sleeping, warpgroup_arrive",                                           \
      "less waiting at barriers and fences: work balanced between a block's warps, fewer "      \
      "__syncthreads and memory fences, more blocks of fewer warps")                           \
    X(GP_STALL_ISSUE, "instruction_issue", "issue", "instruction issue",                       \
      "wait, not_selected, selected, math_pipe_throttle, dispatch_stall, no_instructions, "     \
      "imc_miss, branch_resolving, gmma",                                                      \
      "more independent instructions per warp (shorter dependent chains), lighter use of the "  \
      "busiest math pipe and fewer branches; mostly selected or not_selected: the SM is "       \
      "issuing, and the kernel is bound by its instructions")                                  \
    X(GP_STALL_OTHER, "other", "other", "other", "misc, and any reason not named above",       \
      "rarely the bound: read its reasons by ncu's names (--wide, CSV)")

#define GP_STALL_GROUP_ID(id, key, header, name, reasons, fix) id,
typedef enum { GP_STALL_GROUP_TABLE(GP_STALL_GROUP_ID) GP_STALL_GROUPS } gp_stall_group;
#undef GP_STALL_GROUP_ID

/* A group as every view names and explains it. */
typedef struct {
    const char *key;             /* CSV's column: "memory_latency" */
    const char *header;          /* text's heading: "mem lat" */
    const char *name;            /* "memory latency" */
    const char *reasons;         /* its reasons as the legend lists them */
    const char *fix;             /* one sentence: what usually fixes it */
} gp_stall_group_info;

extern const gp_stall_group_info gp_stall_groups[GP_STALL_GROUPS];
/* The group of a reason by its name; GP_STALL_OTHER for a name the table does not know. */
gp_stall_group gp_stall_group_of(const char *reason);

/* Samples summed over instructions (a kernel's, a line's, one instruction's). */
typedef struct {
    uint64_t samples;
    uint64_t not_issued;
    uint64_t *reasons;           /* per reason of the report, n_reasons */
    uint64_t groups[GP_STALL_GROUPS];
    size_t top[GP_STALL_TOP];    /* the reasons of the most samples, most first (ties: the
                                    report's order); SIZE_MAX past the last with any */
    double share;                /* percent of its whole: a kernel's of every user sample, a
                                    line's or instruction's of its kernel's */
    bool few;                    /* its kernel has fewer than GP_STALL_FEW_SAMPLES samples */
} gp_stall_counts;

/* What a row of a kernel's table is. */
typedef enum { GP_STALL_ROW_LINE, GP_STALL_ROW_PC, GP_STALL_ROW_OTHER } gp_stall_row_kind;

/* A source line, one of its instructions, or the lines below GP_STALL_LINE_MIN_PERCENT
 * summed. counts comes first: a cell of counts reads either row type. */
typedef struct {
    gp_stall_counts counts;
    gp_stall_row_kind kind;
    const char *file;            /* NULL: no line information (GP_STALL_NO_LINE) */
    uint32_t line;               /* 0 with no file */
    uint32_t pc;                 /* GP_STALL_ROW_PC: its offset in the function, bytes */
    size_t others;               /* GP_STALL_ROW_OTHER: the lines it sums */
    size_t first_pc, n_pcs;      /* GP_STALL_ROW_LINE: its instructions in its kernel's pcs */
} gp_stall_line;

/* A kernel code's samples, its lines and their instructions. */
typedef struct {
    gp_stall_counts counts;
    const char *mangled;         /* CUPTI's name (points into the report) */
    char *name;                  /* the full name, as the kernel summary names it */
    uint64_t code;               /* its cubin's CRC; 0: not known */
    size_t number;               /* its #N in the kernel summary; 0: the summary lacks it */
    unsigned variant;            /* its code's variant (0: its kernel ran one code) */
    gp_stall_line *lines;        /* every line, the most samples first */
    size_t n_lines;
    size_t shown;                /* people's: lines[0 .. shown) hold GP_STALL_LINE_MIN_PERCENT
                                    at least */
    gp_stall_line other;         /* the rest summed (others 0: none) */
    gp_stall_line *pcs;          /* its instructions, each line's together by offset */
    size_t n_pcs;
} gp_stall_kernel;

typedef struct {
    const gp_exec_stalls *stalls;
    gp_stall_kernel *kernels;    /* the most samples first */
    size_t n_kernels;
    uint64_t samples;            /* the user kernels' samples, every instruction's */
} gp_stall_summary;

/* The summary of e's samples, kernels numbered by kl (the report's kernel labels, NULL: none
 * numbered). GP_OK or out of host memory. */
int gp_stall_summarize(const gp_exec_info *e, const gp_kernel_labels *kl, gp_stall_summary *s);
void gp_stall_summary_free(gp_stall_summary *s);

/* The summary with the kernel summary and labels (in the default short style) it is numbered
 * by, for the views that have made neither. */
typedef struct {
    gp_exec_kernel *kernels;
    size_t n_kernels;
    gp_kernel_labels labels;
    gp_stall_summary summary;
} gp_stall_view;

int gp_stall_view_init(gp_stall_view *v, const gp_exec_info *e);
void gp_stall_view_free(gp_stall_view *v);

/* The share of a row's samples in group g, percent; NAN for a kernel of too few samples or a
 * row of none. */
double gp_stall_group_share(const gp_stall_counts *c, gp_stall_group g);
/* "long_scoreboard 84.7%": the row's i-th top reason and its share of the row's samples; ""
 * when it has none, "-" when its kernel has too few samples. */
void gp_stall_describe_top(const gp_stall_counts *c, const gp_exec_stalls *s, size_t i,
                           char *buf, size_t len);
/* "copy.cu:12" (whole: the file as recorded), GP_STALL_NO_LINE, "  +0x0120" or "12 other
 * lines": a row's label for people. */
void gp_stall_describe_line(const gp_stall_line *l, bool whole, char *buf, size_t len);

#endif
