/* libFuzzer harness: a command line from arbitrary bytes, split on NUL and newline into at
 * most 16 arguments after argv[0] = "gpuprof" (a final separator ends the last one), given
 * to gp_parse_command_line, and a kernel command's request expanded into its plan. Each
 * argument is its own heap block of its exact size, so a read past its end is caught.
 * Nothing is printed and nothing exits. */
#include "gpuprof/cli.h"
#include "gpuprof/plan.h"
#include "gpuprof/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char program[] = "gpuprof";
    char *argv[MAX_ARGS + 2] = {program};
    int argc = 1;
    size_t start = 0;
    for (size_t i = 0; size > 0 && i <= size && argc <= MAX_ARGS; i++) {
        bool end = i == size;
        if (!end && data[i] != '\0' && data[i] != '\n')
            continue;
        if (end && start == size)
            break;                             /* a final separator ends the last argument */
        size_t len = i - start;
        char *arg = malloc(len + 1);
        if (!arg)
            break;
        memcpy(arg, data + start, len);
        arg[len] = '\0';
        argv[argc++] = arg;
        start = i + 1;
    }
    argv[argc] = NULL;

    gp_request req;
    if (gp_parse_command_line(argc, argv, &req) == GP_OK && req.family) {
        gp_plan plan; /* a kernel command: its expansion too */
        if (gp_plan_expand(&req, &plan) == GP_OK)
            gp_plan_free(&plan);
    }
    gp_clear_error();

    for (int i = 1; i < argc; i++)
        free(argv[i]);
    return 0;
}
