/* The command-line options' table (src/cli/option_table.c), by the ids of
 * gpuprof/option_ids.h that the parser, `--help`, the command table and the family table all
 * refer to. */
#ifndef GPUPROF_OPTIONS_H
#define GPUPROF_OPTIONS_H

#include "gpuprof/option_ids.h"

#include <stddef.h>



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

#endif
