/* A bound on how large an extended regular expression grows when compiled, so that --kernel
 * refuses a pattern such as "a++++++++…" (each + doubles glibc's parse tree) before regcomp
 * spends gigabytes on it. The limit is low because regcomp's memory grows with the square of
 * the nodes where they can match the empty string ("((a{0}){99}){99}", 20100 nodes, takes
 * 1.5 GB; 2000 such nodes take under 60 MB), and no kernel-name pattern needs more. */
#ifndef GPUPROF_REGEX_SIZE_H
#define GPUPROF_REGEX_SIZE_H

#include <stdbool.h>

#define GP_REGEX_MAX_NODES 2000.0

/* The nodes the pattern may expand to: each quantifier copies the atom before it ({m,n} up
 * to n+1 times, + twice), and copies of copies multiply. An over-estimate, never under;
 * infinite for an interval regcomp would refuse only after copying what precedes it. */
double gp_regex_expansion(const char *pattern);

/* Whether a *, + or {m,} repeats something that can match the empty string: "r?+", "(a|)*",
 * "(\b)*" (but not "(\ba)*"). regcomp builds such a repeat as a loop of empty steps, and
 * after an anchor the time it takes to follow them grows exponentially with their number,
 * whatever the nodes: "^r?+++++" takes 8 s, "^(r?)*" written 64 times more than 20 s. Such a
 * repeat can always be written without it ("(r?)+" is "r*"). */
bool gp_regex_repeats_empty(const char *pattern);

#endif
