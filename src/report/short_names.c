/* Short kernel names, as the HTML pages label kernels (gpuprof/short_names.h). Demangled C++ names nest
 * template arguments and parameter lists that may hold any of ( ) < > themselves, so the
 * name is read with a depth count: only what is at depth 0 is the function's own. */
#include "gpuprof/short_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool opens(char c)
{
    return c == '(' || c == '<' || c == '[';
}

static bool closes(char c)
{
    return c == ')' || c == '>' || c == ']';
}

/* Where the group opened at s[0] closes (its last character), or NULL. */
static const char *group_end(const char *s)
{
    int depth = 0;
    for (const char *p = s; *p; p++) {
        depth += opens(*p) - closes(*p);
        if (depth == 0)
            return p;
    }
    return NULL;
}

/* "(anonymous namespace)::" and the like: a group that is part of a qualified name. */
static bool qualifies(const char *after_group)
{
    return strncmp(after_group, "::", 2) == 0;
}

/* The parameter list: the first '(' at depth 0 that does not qualify a name; NULL when the
 * name has none. Template arguments ('<' … '>') are skipped whole. */
static const char *parameters(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p != '(' && *p != '<')
            continue;
        const char *end = group_end(p);
        if (!end)
            return NULL;
        if (*p == '(' && !qualifies(end + 1))
            return p;
        p = end;
    }
    return NULL;
}

/* The last word of s[0, end) at depth 0, after its last "::", without template arguments:
 * the function's own name. Copied to buf; false when there is none. */
static bool own_name(const char *s, const char *end, char *buf, size_t len)
{
    const char *start = s, *stop = end;
    int depth = 0;
    for (const char *p = s; p < end; p++) {
        if (opens(*p) && depth++ == 0 && *p == '<' && stop == end)
            stop = p;
        else if (closes(*p) && depth > 0)
            depth--;
        else if (depth == 0 && (*p == ' ' || (*p == ':' && p + 1 < end && p[1] == ':'))) {
            start = p + (*p == ' ' ? 1 : 2);
            stop = end;
            p += *p == ':';
        }
    }
    if (stop <= start)
        return false;
    snprintf(buf, len, "%.*s", (int)(stop - start), start);
    return true;
}

void gp_kernel_short_name(const char *full, char *buf, size_t len)
{
    const char *params = parameters(full);
    /* Without parameters (a library call's description), a trailing " [...]" is kept. */
    const char *bracket = params ? NULL : strstr(full, " [");
    const char *end = params ? params : bracket ? bracket : full + strlen(full);
    const char *after = params ? group_end(params) + 1 : end;
    while (end > full && end[-1] == ' ')
        end--;
    if (!own_name(full, end, buf, len)) {
        snprintf(buf, len, "%s", full);
        return;
    }
    while (*after == ' ')
        after++;
    if (*after && strncmp(after, "const", 5) != 0) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, " %s", after);
    }
}

static char *label_at(char *labels, size_t stride, size_t i)
{
    return labels + i * stride;
}

/* Whether another name than fulls[i] has label i's label. */
static bool alike(char *labels, size_t stride, const char *const *fulls, size_t i, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(label_at(labels, stride, k), label_at(labels, stride, i)) == 0 &&
            strcmp(fulls[k], fulls[i]) != 0)
            return true;
    return false;
}

/* Label i's number: that of an earlier label of the same name, else one more than the
 * earlier labels alike have. */
static size_t number_of(char *labels, size_t stride, const char *const *fulls,
                        const size_t *number, size_t i)
{
    size_t most = 0;
    for (size_t k = 0; k < i; k++) {
        if (strcmp(label_at(labels, stride, k), label_at(labels, stride, i)) != 0)
            continue;
        if (strcmp(fulls[k], fulls[i]) == 0)
            return number[k];
        most = number[k] > most ? number[k] : most;
    }
    return most + 1;
}

void gp_kernel_short_names_apart(char *labels, size_t stride, size_t len, const char *const *fulls,
                        size_t n)
{
    /* Numbers are decided before any label changes: the comparison is of the originals. */
    size_t *number = calloc(n + 1, sizeof *number);
    if (!number)
        return;                      /* labels stay as they are: alike, still correct */
    for (size_t i = 0; i < n; i++)
        if (alike(labels, stride, fulls, i, n))
            number[i] = number_of(labels, stride, fulls, number, i);
    for (size_t i = 0; i < n; i++)
        if (number[i]) {
            char *l = label_at(labels, stride, i);
            const size_t used = strlen(l);
            snprintf(l + used, len - used, " (%zu)", number[i]);
        }
    free(number);
}
