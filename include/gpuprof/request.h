/* A parsed, validated command line: what to run, decided before any GPU work. */
#ifndef GPUPROF_REQUEST_H
#define GPUPROF_REQUEST_H

#include "gpuprof/exec_request.h"
#include "gpuprof/kernel_name.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"

#include <stdbool.h>
#include <stdint.h>

#define GP_MAX_LIST 64       /* items of one comma-separated option */
#define GP_MAX_OPERANDS 16384 /* operands of one command (report FILE...: a job's ranks) */

typedef enum { GP_OUT_TEXT = 0, GP_OUT_JSON, GP_OUT_CSV, GP_OUT_HTML, GP_OUT_MARKDOWN } gp_output;
/* Text and Markdown: the same parts for people, Markdown's tables GitHub-flavoured. */
#define gp_output_is_text(f) ((f) == GP_OUT_TEXT || (f) == GP_OUT_MARKDOWN)

struct gp_command_def;

/* The values given for one family parameter, in order; none: its default. */
typedef struct {
    double values[GP_MAX_LIST];
    size_t n;
} gp_param_values;

typedef struct {
    const struct gp_command_def *command;  /* what to run */
    const gp_family *family;               /* a kernel command's family; NULL otherwise */
    const char *help_topic;                /* help: the command asked about; NULL: gpuprof */

    const gp_variant *variants[GP_MAX_LIST];
    size_t n_variants;
    gp_dim3 blocks[GP_MAX_LIST];
    size_t n_blocks;                       /* 0: each variant's default */
    bool skip_disallowed_blocks;           /* variants not named: each runs the blocks it
                                              takes */
    gp_size sizes[GP_MAX_LIST];
    size_t n_sizes;
    gp_dtype types[2];
    size_t n_types;
    gp_param_values params[GP_MAX_PARAMS]; /* by the index of the family's parameter */

    unsigned repeat, warmup;
    double max_noise_pct;                  /* --max-noise; NAN: not asked for */
    double threshold_pct;                  /* compare --threshold */
    int device;                            /* -1: all devices (device command) or 0 */
    uint64_t seed;
    gp_output output;
    bool no_header;
    const char *csv_columns;               /* --csv-columns, as given; NULL: every column */
    bool wide;                             /* text: full headers, no width limit */
    gp_kernel_name_style kernel_name;      /* --kernel-name */

    gp_metrics_request metrics;
    bool source;                           /* --source: each kernel's lines, from one more
                                              run with its instructions counted */
    bool sass;                             /* --sass: text, the instructions under each line */
    bool metrics_detail;
    bool require_metrics;
    const char *chip;                      /* metrics command without a GPU */

    const char *operands[GP_MAX_OPERANDS]; /* report FILE… */
    size_t n_operands;

    /* exec */
    char **program;                        /* the program's argv (NULL-terminated) */
    int program_argc;
    gp_exec_request exec;                  /* its filters, children, replay, CUDA graphs */
    bool launches;                         /* text: one row per launch */
    bool by_rank;                          /* report: a row per kernel and rank */
    bool by_range;                         /* exec, report: a row per NVTX range */
    bool stalls;                           /* exec: sample warp stalls (exec.stalls); exec
                                              and report: CSV of the stalls, a row per line */
    const char *output_file;               /* --output, as given (%p, %q{NAME} unexpanded) */
    bool force;                            /* --force: --output may replace a file */

    int argc;                              /* the original command line, for reports */
    char **argv;
} gp_request;

#endif
