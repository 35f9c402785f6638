/* The command line: parsed and validated into a request, before any GPU work. */
#ifndef GPUPROF_CLI_H
#define GPUPROF_CLI_H

#include "gpuprof/options.h"
#include "gpuprof/request.h"

/* Defaults the help text and the parser share. */
#define GP_DEFAULT_REPEAT 20u
#define GP_DEFAULT_WARMUP 3u
#define GP_DEFAULT_SEED 1u

/* Parse argv into req. Returns GP_OK or GP_ERR_USAGE with a message in gp_error(). */
int gp_parse_command_line(int argc, char **argv, gp_request *req);

#endif
