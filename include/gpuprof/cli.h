/* The command line: parsed and validated into a request, before any GPU work. */
#ifndef GPUPROF_CLI_H
#define GPUPROF_CLI_H

#include "gpuprof/options.h"
#include "gpuprof/request.h"

#include <stdbool.h>
#include <stdint.h>

/* Defaults the help text and the parser share. */
#define GP_DEFAULT_REPEAT 20u
#define GP_DEFAULT_WARMUP 3u
#define GP_DEFAULT_SEED 1u

/* Parse argv into req. Returns GP_OK or GP_ERR_USAGE with a message in gp_error(). */
int gp_parse_command_line(int argc, char **argv, gp_request *req);

/* Number parsers shared by the CLI and its tests: "16777216", "2^24", "2^24+7". */
int gp_parse_u64(const char *text, uint64_t *out);
int gp_parse_size_1d(const char *text, uint64_t *out);
int gp_parse_size_2d(const char *text, unsigned *nx, unsigned *ny);
int gp_parse_block(const char *text, bool two_d, gp_dim3 *out);

#endif
