/* "Did you mean": the closest of a list of names to a misspelt one. */
#ifndef GPUPROF_SUGGEST_H
#define GPUPROF_SUGGEST_H

#include <stddef.h>

/* The longest word (and candidate) gp_suggest compares; longer ones are skipped. */
#define GP_SUGGEST_MAX_LEN 64

/* The candidate `word` was most likely meant as, or NULL. Letters compare without their case
 * (SHFL is shfl, gh100 is GH100); the caller strips decorations such as an option's leading
 * "--" (and any "=value") first. The rule:
 *
 *   1. d = the optimal-string-alignment distance (Damerau-Levenshtein where no substring is
 *      edited twice: insertions, deletions, substitutions and swaps of two adjacent
 *      characters each cost 1). The candidate with the smallest d is returned when
 *      d <= max(1, strlen(word) / 3) and no other candidate has the same d.
 *   2. Otherwise, when word has at least 3 characters and begins exactly one candidate,
 *      that candidate ("trans" -> "transpose").
 *   3. Otherwise NULL: nothing close, or a tie ("unrolling" is as close to "unrolling2" as
 *      to "unrolling4").
 *
 * An empty word, a word longer than GP_SUGGEST_MAX_LEN and NULL entries of candidates get
 * nothing; candidates longer than GP_SUGGEST_MAX_LEN are never suggested. No allocation:
 * the work is three rows of GP_SUGGEST_MAX_LEN + 1 numbers on the stack. The result is one
 * of the candidates' pointers. */
const char *gp_suggest(const char *word, const char *const *candidates, size_t n);

/* The hint a message ends with: "; did you mean '--block'?" (prefix "--") when gp_suggest
 * finds a candidate, else "". Written into buf, which it returns. */
const char *gp_suggest_hint(char *buf, size_t len, const char *prefix, const char *word,
                            const char *const *candidates, size_t n);

#endif
