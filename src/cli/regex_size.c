/* The expansion bound and the empty-repeat test of include/gpuprof/regex_size.h, by one pass
 * over the pattern that keeps, per open group, its size so far, the size of its last atom, and
 * which of its parts can match the empty string. */
#include "gpuprof/regex_size.h"

#include "gpuprof/regex_bracket.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 256

typedef struct {
    double size;          /* nodes of the group so far */
    double last;          /* nodes of its last atom, which a quantifier would copy; 0: none */
    bool last_empty;      /* the last atom can match the empty string */
    bool before_empty;    /* so can every atom of this branch before it */
    bool branch_empty;    /* an earlier branch (before a |) can match the empty string */
} group;

typedef struct {
    double nodes;
    bool empty_repeat;
} measure;

static bool branch_can_be_empty(const group *g)
{
    return g->before_empty && (g->last == 0 || g->last_empty);
}

static bool group_can_be_empty(const group *g)
{
    return g->branch_empty || branch_can_be_empty(g);
}

static void add_atom(group *g, double nodes, bool empty)
{
    g->before_empty = branch_can_be_empty(g);
    g->size += nodes;
    g->last = nodes;
    g->last_empty = empty;
}

static void new_branch(group *g)
{
    g->branch_empty = group_can_be_empty(g);
    g->last = 0;
    g->before_empty = true;
}

/* A quantifier that makes `copies` copies of the last atom; `loops` when it repeats without
 * bound (*, +, {m,}), which regcomp builds as a loop; `optional` when it allows none. */
static void quantify(group *g, double copies, bool loops, bool optional, measure *m)
{
    if (g->last == 0)
        return;                            /* nothing to repeat: regcomp refuses it */
    m->empty_repeat |= loops && g->last_empty;
    g->size += g->last * (copies - 1);
    g->last *= copies;
    g->last_empty |= optional;
}

/* "{m}", "{m,}", "{m,n}", "{,n}" at p: the copies regcomp makes (n + 1, or m + 1 without n),
 * whether it loops (no n) and whether it allows none (m = 0). */
static double brace_copies(const char *p, size_t *len, bool *loops, bool *optional)
{
    char *end;
    double m = strtod(p + 1, &end), n = m;
    *loops = false;
    if (*end == ',') {
        *loops = end[1] == '}';
        n = *loops ? m : strtod(end + 1, &end);
    }
    if (*end == ',')
        end++;
    *optional = !(m > 0);
    const char *close = strchr(p, '}');
    *len = close ? (size_t)(close - p) : strlen(p) - 1;
    if (!(m >= 0) || !(n >= 0))
        return INFINITY;   /* "{-1}", "{nan}": no interval, but regcomp has built what came
                              before (copies of copies) when it finds that out */
    return (n > m ? n : m) + 1;
}

/* "\b", "\<", "\1" …: glibc's assertions and back-references, which can match nothing. */
static bool escape_can_be_empty(char c)
{
    return strchr("bB<>`'123456789", c) != NULL;
}

static group new_group(void)
{
    return (group){.size = 0, .last = 0, .before_empty = true};
}

static void close_group(group *stack, int *depth)
{
    const group *inner = &stack[(*depth)--];
    add_atom(&stack[*depth], inner->size + 1, group_can_be_empty(inner));
}

/* One character (or escape, bracket, interval) at p[*i] applied to the open group. */
static void step(const char *p, size_t *i, group *stack, int *depth, measure *m)
{
    group *g = &stack[*depth];
    const char c = p[*i];
    size_t len = 0;
    bool loops, optional;
    if (c == '\\' && p[*i + 1]) {
        add_atom(g, 1, escape_can_be_empty(p[++*i]));
    } else if (c == '[') {
        *i += gp_regex_bracket_length(p + *i) - 1;   /* the loop steps past its ] */
        add_atom(g, 1, false);
    } else if (c == '(') {
        stack[++*depth] = new_group();
    } else if (c == ')' && *depth > 0) {
        close_group(stack, depth);
    } else if (c == '|') {
        new_branch(g);
    } else if (c == '*' || c == '?' || c == '+') {
        quantify(g, c == '+' ? 2 : 1, c != '?', c != '+', m);
    } else if (c == '{') {
        const double copies = brace_copies(p + *i, &len, &loops, &optional);
        quantify(g, copies, loops, optional, m);
        *i += len;
    } else {
        add_atom(g, 1, c == '^' || c == '$');
    }
}

static measure measure_pattern(const char *p)
{
    group stack[MAX_GROUPS + 1] = {new_group()};
    int depth = 0;
    measure m = {0, false};
    for (size_t i = 0; p[i]; i++) {
        if (p[i] == '(' && depth == MAX_GROUPS)
            return (measure){INFINITY, false};   /* deeper than any name pattern needs */
        step(p, &i, stack, &depth, &m);
    }
    while (depth > 0)
        close_group(stack, &depth);
    m.nodes = stack[0].size;
    return m;
}

double gp_regex_expansion(const char *pattern)
{
    return measure_pattern(pattern).nodes;
}

bool gp_regex_repeats_empty(const char *pattern)
{
    return measure_pattern(pattern).empty_repeat;
}
