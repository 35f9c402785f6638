/* POSIX regular expressions' bracket expressions, for the two readers of a user's regex that
 * must step over one whole: exec's NVTX filters (src/base/nvtx_filter.c), whose grammar's
 * characters are literal inside one, and the regex size check (src/cli/regex_size.c), for
 * which one is a single atom. Base layer. */
#ifndef GPUPROF_REGEX_BRACKET_H
#define GPUPROF_REGEX_BRACKET_H

#include <stddef.h>

/* The bytes of the bracket expression at s (s[0] is '['), its closing ']' included: a ']'
 * first (after '^') and the "[:class:]", "[.coll.]" and "[=equiv=]" inside it are literal.
 * Not closed: the rest of s (regcomp then refuses it). */
size_t gp_regex_bracket_length(const char *s);

#endif
