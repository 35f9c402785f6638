/* Numbers on the command line (src/cli/numparse.c), shared by the option table and the
 * tests: "16777216", "2^24", "2^24+7", and the NXxNY / XxY shapes. Each returns GP_OK, or
 * GP_ERR_USAGE with the message. */
#ifndef GPUPROF_NUMPARSE_H
#define GPUPROF_NUMPARSE_H

#include "gpuprof/types.h"

#include <stdbool.h>
#include <stdint.h>

int gp_parse_u64(const char *text, uint64_t *out);
int gp_parse_size_1d(const char *text, uint64_t *out);
int gp_parse_size_2d(const char *text, unsigned *nx, unsigned *ny);
int gp_parse_block(const char *text, bool two_d, gp_dim3 *out);

#endif
