/* The command table (command_table.c): one row per command with its operands, options and
 * handler; the kernel commands share one row, their names, summaries and own options from
 * the family table. */
#ifndef GPUPROF_CLI_COMMAND_TABLE_H
#define GPUPROF_CLI_COMMAND_TABLE_H

#include "gpuprof/commands.h"
#include "gpuprof/registry.h"

#include <stdbool.h>
#include <stddef.h>

const gp_command_def *gp_command_table(size_t *count);
/* The command called `name`: a row of the table, or the kernel row with *family set to the
 * family of that name (*family is NULL for the other commands). NULL when there is none. */
const gp_command_def *gp_find_command(const char *name, const gp_family **family);
/* Whether the command (of that family, for a kernel command) takes the option. */
bool gp_command_takes(const gp_command_def *cmd, const gp_family *family, gp_option_id id);
/* "reduce, transpose, …, list, device, …": every command's name. */
void gp_list_command_names(char *buf, size_t len);

#endif
