/* A bound on how large an extended regular expression grows when compiled, so that --kernel
 * refuses a pattern such as "a++++++++…" (each + doubles glibc's parse tree) before regcomp
 * spends gigabytes on it. The limit is low because regcomp's memory grows with the square of
 * the nodes where they can match the empty string ("((a{0}){99}){99}", 20100 nodes, takes
 * 1.5 GB; 2000 such nodes take under 60 MB), and no kernel-name pattern needs more. */
#ifndef GPUPROF_REGEX_SIZE_H
#define GPUPROF_REGEX_SIZE_H

#define GP_REGEX_MAX_NODES 2000.0

/* The nodes the pattern may expand to: each quantifier copies the atom before it ({m,n} up
 * to n+1 times, + twice), and copies of copies multiply. An over-estimate, never under. */
double gp_regex_expansion(const char *pattern);

#endif
