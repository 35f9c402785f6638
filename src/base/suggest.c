/* "Did you mean": optimal-string-alignment distance over fixed rows (see suggest.h), and the
 * hint a usage message ends with. Letters compare without their case: SHFL means shfl.
 * Base layer: never prints, never exits, never links cudart. */
#include "gpuprof/suggest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool same_letter(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Whether c begins with the len characters of word, case aside. */
static bool begins_with(const char *c, const char *word, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!c[i] || !same_letter(c[i], word[i]))
            return false;
    return true;
}

/* The OSA distance of a (length la) and b (length lb), both at most GP_SUGGEST_MAX_LEN. */
static unsigned osa_distance(const char *a, size_t la, const char *b, size_t lb)
{
    unsigned rows[3][GP_SUGGEST_MAX_LEN + 1];
    unsigned *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = same_letter(a[i - 1], b[j - 1]) ? 0u : 1u;
            unsigned d = prev[j] + 1;                      /* delete a[i-1] */
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;                        /* insert b[j-1] */
            if (prev[j - 1] + cost < d)
                d = prev[j - 1] + cost;                    /* substitute */
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
                same_letter(a[i - 2], b[j - 1]) && before[j - 2] + 1 < d)
                d = before[j - 2] + 1;                     /* swap two neighbours */
            cur[j] = d;
        }
        unsigned *t = before;
        before = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *gp_suggest(const char *word, const char *const *candidates, size_t n)
{
    if (!word || !candidates)
        return NULL;
    size_t len = strnlen(word, GP_SUGGEST_MAX_LEN + 1);
    if (len == 0 || len > GP_SUGGEST_MAX_LEN)
        return NULL;

    const char *best = NULL, *prefixed = NULL;
    unsigned best_d = 0;
    bool tie = false;
    size_t n_prefixed = 0;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        if (!c)
            continue;
        size_t lc = strnlen(c, GP_SUGGEST_MAX_LEN + 1);
        if (lc > GP_SUGGEST_MAX_LEN)
            continue;
        if (lc >= len && begins_with(c, word, len) && !(prefixed && strcmp(c, prefixed) == 0)) {
            prefixed = c;
            n_prefixed++;
        }
        unsigned d = osa_distance(word, len, c, lc);
        if (!best || d < best_d) {
            best = c;
            best_d = d;
            tie = false;
        } else if (d == best_d && strcmp(c, best) != 0) {
            tie = true;                    /* the same name listed twice is no tie */
        }
    }
    size_t limit = len / 3 > 1 ? len / 3 : 1;
    if (best && !tie && best_d <= limit)
        return best;
    if (len >= 3 && n_prefixed == 1)
        return prefixed;
    return NULL;
}

const char *gp_suggest_hint(char *buf, size_t len, const char *prefix, const char *word,
                            const char *const *candidates, size_t n)
{
    const char *best = gp_suggest(word, candidates, n);
    if (best)
        snprintf(buf, len, "; did you mean '%s%s'?", prefix, best);
    else
        buf[0] = '\0';
    return buf;
}
