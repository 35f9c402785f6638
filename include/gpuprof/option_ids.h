/* The command-line options by id: the one enum that the option table (src/cli/), the command
 * table and the family table (src/catalogue/registry.c) name options by, declarations only
 * (the options' names and help are gpuprof/options.h's table). */
#ifndef GPUPROF_OPTION_IDS_H
#define GPUPROF_OPTION_IDS_H

typedef enum {
    OPT_VARIANT, OPT_BLOCK, OPT_SIZE, OPT_TYPE, OPT_PAD, OPT_GROUP, OPT_GRID,
    OPT_REPEAT, OPT_WARMUP, OPT_DEVICE, OPT_SEED,
    OPT_JSON, OPT_CSV, OPT_HTML, OPT_MARKDOWN, OPT_NO_HEADER, OPT_CSV_COLUMNS, OPT_MAX_NOISE, OPT_THRESHOLD,
    OPT_METRICS, OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS, OPT_CHIP,
    OPT_KERNEL, OPT_LAUNCH_SKIP, OPT_LAUNCH_COUNT, OPT_PER_KERNEL, OPT_LAUNCHES, OPT_OUTPUT,
    OPT_FORCE,
    OPT_FOLLOW_CHILDREN, OPT_REPLAY, OPT_GRAPH_PROFILING, OPT_GRAPH_SAMPLES, OPT_WIDE, OPT_KERNEL_NAME,
    OPT_SOURCE, OPT_SASS, OPT_RANK, OPT_BY_RANK, OPT_NVTX, OPT_NVTX_INCLUDE,
    OPT_NVTX_EXCLUDE, OPT_BY_RANGE, OPT_STALLS, OPT_STALL_PERIOD,
    OPT_HELP,
    OPT_COUNT
} gp_option_id;

/* A list of option ids with its length counted by the compiler, for designated initializers:
 * `GP_OPTION_LIST(options, n_options, OPT_JSON, OPT_HELP)`. */
#define GP_OPTION_LIST(field, count_field, ...)                                            \
    .field = (const gp_option_id[]){__VA_ARGS__},                                          \
    .count_field = sizeof((const gp_option_id[]){__VA_ARGS__}) / sizeof(gp_option_id)

#endif
