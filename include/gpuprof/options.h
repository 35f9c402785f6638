/* The command-line options: one enum and one table (src/cli/cli.c) that the parser, `--help`,
 * the command table and the family table all refer to by id. */
#ifndef GPUPROF_OPTIONS_H
#define GPUPROF_OPTIONS_H

#include <stddef.h>

typedef enum {
    OPT_VARIANT, OPT_BLOCK, OPT_SIZE, OPT_TYPE, OPT_PAD, OPT_GROUP, OPT_GRID,
    OPT_REPEAT, OPT_WARMUP, OPT_DEVICE, OPT_SEED,
    OPT_JSON, OPT_CSV, OPT_HTML, OPT_NO_HEADER, OPT_CSV_COLUMNS, OPT_MAX_NOISE, OPT_THRESHOLD,
    OPT_METRICS, OPT_METRICS_DETAIL, OPT_REQUIRE_METRICS, OPT_CHIP,
    OPT_KERNEL, OPT_LAUNCH_SKIP, OPT_LAUNCH_COUNT, OPT_PER_KERNEL, OPT_LAUNCHES, OPT_OUTPUT,
    OPT_FORCE,
    OPT_FOLLOW_CHILDREN, OPT_REPLAY, OPT_GRAPH_PROFILING, OPT_GRAPH_SAMPLES, OPT_WIDE, OPT_KERNEL_NAME,
    OPT_SOURCE, OPT_SASS, OPT_RANK, OPT_BY_RANK,
    OPT_HELP,
    OPT_COUNT
} gp_option_id;

typedef struct {
    gp_option_id id;         /* its own index in the table: a unit test holds them equal */
    const char *name;        /* without the leading "--" */
    const char *arg;         /* NULL: a flag */
    const char *help;
} gp_option_def;

/* The option with this id (NULL outside the table). */
const gp_option_def *gp_option(gp_option_id id);
/* The letter of the option's one-letter form (-f for --force), or '\0': few have one. */
char gp_option_letter(gp_option_id id);

/* A list of option ids with its length counted by the compiler, for designated initializers:
 * `GP_OPTION_LIST(options, n_options, OPT_JSON, OPT_HELP)`. */
#define GP_OPTION_LIST(field, count_field, ...)                                            \
    .field = (const gp_option_id[]){__VA_ARGS__},                                          \
    .count_field = sizeof((const gp_option_id[]){__VA_ARGS__}) / sizeof(gp_option_id)

#endif
