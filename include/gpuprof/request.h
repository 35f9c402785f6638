/* A parsed, validated command line: what to run, decided before any GPU work. */
#ifndef GPUPROF_REQUEST_H
#define GPUPROF_REQUEST_H

#include "gpuprof/registry.h"

#include <stdbool.h>
#include <stdint.h>

#define GP_MAX_LIST 64
#define GP_MAX_METRIC_NAMES 64

typedef enum {
    GP_CMD_NONE = 0,
    GP_CMD_KERNEL,     /* reduce, transpose, reduce2d, saxpy */
    GP_CMD_LIST,
    GP_CMD_DEVICE,
    GP_CMD_METRICS,
    GP_CMD_REPORT,
    GP_CMD_HELP,
    GP_CMD_VERSION
} gp_command;

typedef enum { GP_OUT_TEXT = 0, GP_OUT_JSON, GP_OUT_CSV } gp_output;

typedef enum {
    GP_METRICS_DEFAULT = 0,
    GP_METRICS_ALL,
    GP_METRICS_NONE,
    GP_METRICS_LIST
} gp_metrics_kind;

typedef struct {
    uint64_t n;        /* 1-D element count; nx * ny for matrices */
    unsigned nx, ny;   /* matrices: columns, rows */
} gp_size;

typedef struct {
    gp_metrics_kind kind;
    char names[GP_MAX_METRIC_NAMES][128];
    size_t n_names;
} gp_metrics_request;

typedef struct {
    gp_command command;
    gp_family family;                  /* GP_CMD_KERNEL */
    const char *help_topic;            /* `gpuprof X --help`: the command name */

    const gp_variant *variants[GP_MAX_LIST];
    size_t n_variants;
    gp_dim3 blocks[GP_MAX_LIST];
    size_t n_blocks;                   /* 0: each variant's default */
    gp_size sizes[GP_MAX_LIST];
    size_t n_sizes;
    gp_dtype types[2];
    size_t n_types;

    int pad;                           /* -1: the variant's default */
    unsigned group;
    unsigned grid;                     /* 0: the variant's default */
    float alpha;

    unsigned repeat, warmup;
    int device;                        /* -1: all devices (device command) or 0 */
    uint64_t seed;
    gp_output output;
    bool no_header;

    gp_metrics_request metrics;
    bool metrics_detail;
    bool require_metrics;
    const char *chip;                  /* metrics command without a GPU */

    const char *files[1];              /* report FILE */
    size_t n_files;

    int argc;                          /* the original command line, for reports */
    char **argv;
} gp_request;

/* Parse argv into req. Returns GP_OK or GP_ERR_USAGE with a message in gp_error(). */
int gp_parse_command_line(int argc, char **argv, gp_request *req);

/* Number parsers shared by the CLI and its tests: "16777216", "2^24", "2^24+7". */
int gp_parse_u64(const char *text, uint64_t *out);
int gp_parse_size_1d(const char *text, uint64_t *out);
int gp_parse_size_2d(const char *text, unsigned *nx, unsigned *ny);
int gp_parse_block(const char *text, bool two_d, gp_dim3 *out);

#endif
