/* A report file the user names (exec --output=FILE): the name expanded, checked before the
 * program runs, and the report written whole or not at all (output_file.c). */
#ifndef GPUPROF_COMMANDS_OUTPUT_FILE_H
#define GPUPROF_COMMANDS_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GP_OUTPUT_PATH_LEN 4096

/* The pattern with %p (gpuprof's process id), %q{NAME} (the environment variable NAME) and
 * %% expanded into out. GP_ERR_USAGE for an unknown escape, an unset variable or a name
 * longer than len. */
int gp_output_expand(const char *pattern, char *out, size_t len);

/* Whether a report can be written to path, asked before anything runs: path is no directory,
 * nor a regular file unless force, a file there may be written, and its folder exists and
 * takes a new file (one is made and removed again). GP_ERR_USAGE with the reason otherwise. */
int gp_output_check(const char *path, bool force);

/* Writes the document with write(f, ctx) into a temporary file in path's folder, then renames
 * it to path (through a symbolic link, to the file it names), so that path holds the whole
 * document or what it held before: a failed write or a failing writer leaves neither a
 * partial file nor the temporary one. A new file gets the mode fopen would give it; a
 * replaced one keeps its own. What exists and is no regular file (/dev/null, a FIFO) is
 * written in place. Returns the writer's status, or GP_ERR_RUNTIME when the file could not
 * be written. */
typedef int (*gp_output_writer)(FILE *f, const void *ctx);
int gp_output_write(const char *path, gp_output_writer write, const void *ctx);

#endif
