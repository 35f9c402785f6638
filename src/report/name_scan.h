/* Scanning a demangled kernel name, as the demangler writes it ("void ns::k<T, 4>(float *,
 * int)"): what kernel_name.c and kernel_name_fit.c both read names with. Internal to report/. */
#ifndef GPUPROF_REPORT_NAME_SCAN_H
#define GPUPROF_REPORT_NAME_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* A character of a C++ identifier (and '$'). */
bool gp_name_identifier_char(char c);
/* The nesting depth change of one character: +1 at '<' or '(', -1 at '>' or ')'. */
int gp_name_depth_step(char c);
/* Where the parameter list begins: the first "(" outside any nesting that follows a name
 * (not "(anonymous namespace)"); len when there is none. */
size_t gp_name_parameter_list(const char *s, size_t len);
/* The end of the function's name once its template arguments are dropped: before the "<"
 * that opens the group ending at `end`. */
size_t gp_name_without_template(const char *s, size_t end);
/* Where the function's own name begins: after the last "::" or space outside any nesting. */
size_t gp_name_own_name_start(const char *s, size_t end);
/* Whether the name may be cut just before position i (after "::" or ", ", before "(" or
 * "<"). */
bool gp_name_readable_boundary(const char *s, size_t i);

#endif
