/* The expansion bound of include/gpuprof/regex_size.h, by one pass over the pattern that
 * keeps, per open group, its size so far and the size of its last atom. */
#include "gpuprof/regex_size.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 256

typedef struct {
    double size;   /* nodes of the group so far */
    double last;   /* nodes of its last atom, which a quantifier would copy */
} group;

static void add_atom(group *g, double nodes)
{
    g->size += nodes;
    g->last = nodes;
}

/* A quantifier that makes `copies` copies of the last atom. */
static void quantify(group *g, double copies)
{
    g->size += g->last * (copies - 1);
    g->last *= copies;
}

/* "{m}", "{m,}", "{m,n}" at p: the copies regcomp makes (n + 1, or m + 1 without n). */
static double brace_copies(const char *p, size_t *len)
{
    char *end;
    double m = strtod(p + 1, &end), n = m;
    if (*end == ',')
        n = end[1] == '}' ? m : strtod(end + 1, &end);
    if (*end == ',')
        end++;
    const char *close = strchr(p, '}');
    *len = close ? (size_t)(close - p) : strlen(p) - 1;
    return (n > m ? n : m) + 1;
}

/* The end of a bracket expression at p ("[]a]" and "[^]a]" hold a literal ]). */
static size_t bracket_length(const char *p)
{
    size_t i = 1;
    if (p[i] == '^')
        i++;
    if (p[i] == ']')
        i++;
    while (p[i] && p[i] != ']')
        i++;
    return p[i] ? i : i - 1;
}

double gp_regex_expansion(const char *p)
{
    group stack[MAX_GROUPS + 1] = {{0, 0}};
    int depth = 0;
    for (size_t i = 0; p[i]; i++) {
        group *g = &stack[depth];
        size_t len = 0;
        if (p[i] == '\\' && p[i + 1]) {
            i++;
            add_atom(g, 1);
        } else if (p[i] == '[') {
            i += bracket_length(p + i);
            add_atom(g, 1);
        } else if (p[i] == '(' && depth < MAX_GROUPS) {
            stack[++depth] = (group){0, 0};
        } else if (p[i] == ')' && depth > 0) {
            const double inner = stack[depth--].size;
            add_atom(&stack[depth], inner + 1);
        } else if (p[i] == '|') {
            g->last = 0;
        } else if (p[i] == '+') {
            quantify(g, 2);
        } else if (p[i] == '{') {
            quantify(g, brace_copies(p + i, &len));
            i += len;
        } else if (p[i] != '*' && p[i] != '?') {
            add_atom(g, 1);
        }
    }
    while (depth > 0) {
        const double inner = stack[depth--].size;
        add_atom(&stack[depth], inner + 1);
    }
    return stack[0].size;
}
