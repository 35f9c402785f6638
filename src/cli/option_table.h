/* The option table's side the parser calls (option_table.c): reading one option's value into
 * the request, by the option's row. */
#ifndef GPUPROF_CLI_OPTION_TABLE_H
#define GPUPROF_CLI_OPTION_TABLE_H

#include "gpuprof/options.h"
#include "gpuprof/request.h"

/* Reads `text` (NULL for a flag) as the option's row says and stores it in the request; a
 * list starts again each time its option is given. Checks the value alone: what depends on
 * other options is checked once the whole command line is read. GP_ERR_USAGE with the
 * message when the value is refused. */
int gp_option_read(gp_request *req, const gp_option_def *o, const char *text);

#endif
