/* gpuprof exec: finding, starting and waiting for the program, the library and its options
 * in its environment. */
#ifndef GPUPROF_EXEC_SPAWN_H
#define GPUPROF_EXEC_SPAWN_H

#include "gpuprof/protocol.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *path;              /* the program, as gp_exec_find_program found it */
    char *const *argv;             /* its command line (argv[0] as the user wrote it) */
    const gp_exec_options *options;   /* the library and its options, for its environment */
    bool quiet;                    /* its standard output and error to /dev/null (the later
                                      runs of --replay=application) */
    bool quiet_stdout;             /* its standard output alone to /dev/null (a kernel
                                      command's --stalls child, whose report would break a
                                      JSON or CSV one; its errors still reach the user) */
} gp_exec_spawn;

typedef struct {
    int pid;
    int exit_status;               /* as a shell reports it: its code, or 128 + the signal */
    int signal;                    /* the signal that ended it; 0 if none */
} gp_exec_outcome;

/* The program `name` as a shell would run it (a name without '/' searched in PATH) into path;
 * 127 when it is not there, 126 when it cannot be run (a folder, no permission). */
int gp_exec_find_program(const char *name, char *path, size_t len);
/* Start it and wait for it. 126/127 when it could not be started. */
int gp_exec_spawn_and_wait(const gp_exec_spawn *s, gp_exec_outcome *out);

#endif
