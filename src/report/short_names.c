/* Short kernel names (gpuprof/short_names.h). A demangled C++ name nests template arguments
 * and parameter lists that may hold any of ( ) < > [ ] { } themselves ("(anonymous
 * namespace)", "{lambda(float)#1}", "std::enable_if<!(false), void>"), so it is read with a
 * stack of the brackets open: only what is outside them all is the function's own. */
#include "gpuprof/short_names.h"

#include "gpuprof/status.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256                /* brackets open at once; deeper: not taken apart */
#define MAX_ITEMS 64                 /* a list's items told apart (a bit each) */
#define MAX_SHOWN 4                  /* the most items searched for the shortest set */
#define MAX_SEARCHED 20              /* the most places searched; more: every one shown */

static const char opens[] = "(<[{", closes[] = ")>]}";

/* Where the group opened at s[at] closes (its last character), or 0 when it does not. A '>'
 * inside parentheses is an operator ("(N>0)"), not a template's end; a closing bracket
 * closes what its own kind opened, and whatever '<' was still open inside it. */
static size_t closing(const char *s, size_t at)
{
    char stack[MAX_DEPTH];
    size_t depth = 0;
    for (size_t i = at; s[i]; i++) {
        const char *open = strchr(opens, s[i]), *close = strchr(closes, s[i]);
        if (open && depth == MAX_DEPTH)
            return 0;
        if (open)
            stack[depth++] = s[i];
        else if (s[i] == '>' && depth && stack[depth - 1] == '<')
            depth--;
        else if (close && s[i] != '>')
            for (const char want = opens[close - closes]; depth && stack[--depth] != want;)
                ;
        if (depth == 0)
            return i;
    }
    return 0;
}

/* Past the character at i: past the group it opens, if it opens one (`to` where that does
 * not close before `to`). */
static size_t next(const char *s, size_t i, size_t to)
{
    if (!s[i] || !strchr(opens, s[i]))
        return i + 1;
    const size_t end = closing(s, i);
    return end && end < to ? end + 1 : to;
}

static bool identifier_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

typedef struct {
    size_t from, to;
} span;

/* A demangled name taken apart. */
typedef struct {
    span name;                   /* the qualified name: no return type, no template args */
    span args;                   /* inside the function's template's <> */
    span params;                 /* inside the parameter list's () */
    span after;                  /* what follows the parameters (" #6"), or a trailing " [...]" */
    bool templated, has_params;
} name_parts;

/* The parameter list's "(": the first outside any group that follows a name (not
 * "(anonymous namespace)"); the end when there is none. */
static size_t parameter_list(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i = next(s, i, n))
        if (s[i] == '(' && i > 0 && (identifier_char(s[i - 1]) || s[i - 1] == '>'))
            return i;
    return n;
}

static name_parts parts_of(const char *s)
{
    const size_t n = strlen(s), p = parameter_list(s, n);
    name_parts np = {.has_params = p < n};
    size_t end = p;
    if (np.has_params) {
        const size_t close = closing(s, p);
        np.params = (span){p + 1, close ? close : n};
        np.after = (span){close ? close + 1 : n, n};
    } else {
        /* Without parameters (a library call's description), a trailing " [...]" is kept. */
        const char *bracket = strstr(s, " [");
        end = bracket ? (size_t)(bracket - s) : n;
        np.after = (span){end, n};
    }
    while (end > 0 && s[end - 1] == ' ')
        end--;
    size_t start = 0, open = end;
    for (size_t i = 0; i < end; i = next(s, i, end)) {
        if (s[i] == ' ')
            start = i + 1;
        else if (s[i] == '<' && closing(s, i) == end - 1)
            open = i;
    }
    np.templated = open < end;
    np.args = np.templated ? (span){open + 1, end - 1} : (span){end, end};
    np.name = (span){start < open ? start : 0, open};
    return np;
}

/* ---- writing a part --------------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, used;
} writer;

static void put(writer *w, const char *s, size_t n)
{
    if (w->used + 1 >= w->len)
        return;
    n = n < w->len - 1 - w->used ? n : w->len - 1 - w->used;
    memcpy(w->buf + w->used, s, n);
    w->used += n;
    w->buf[w->used] = '\0';
}

static bool starts_with(const char *s, size_t i, size_t to, const char *word)
{
    return i + strlen(word) <= to && strncmp(s + i, word, strlen(word)) == 0;
}

/* Past a "(anonymous namespace)::" or "<unnamed>::" at i (the two demanglers' words for it),
 * and where `named`, past any namespace's "ns::" ("const::" after a call operator is none);
 * i when there is none. */
static size_t qualifier_end(const char *s, size_t i, size_t to, bool named)
{
    static const char *const anonymous[] = {"(anonymous namespace)::", "<unnamed>::"};
    for (size_t a = 0; a < 2; a++)
        if (starts_with(s, i, to, anonymous[a]))
            return i + strlen(anonymous[a]);
    size_t j = i;
    while (named && j < to && identifier_char(s[j]))
        j++;
    const bool keyword = starts_with(s, i, j, "const") || starts_with(s, i, j, "volatile");
    return j > i && !keyword && starts_with(s, j, to, "::") && j + 2 < to ? j + 2 : i;
}

/* Past a lambda's call operator as a qualifier at i, "{lambda()#2}::operator()() const::"
 * (PyTorch's type dispatch nests them: the last lambda is the one that runs); i when there is
 * none. */
static size_t lambda_end(const char *s, size_t i, size_t to)
{
    static const char call[] = "::operator()() const::";
    const size_t close = starts_with(s, i, to, "{lambda") ? closing(s, i) : 0;
    return close && starts_with(s, close + 1, to, call) ? close + strlen(call) + 1 : i;
}

/* s[sp] without its anonymous namespaces; in an argument (`named`) also without the
 * namespaces that start each name, lambdas' call operators as qualifiers, and parameters of
 * a function that qualifies a name, "(…)": "std::array<at::Foo, 1ul>" → "array<Foo, 1ul>",
 * "at::f(int)::{lambda()#1}::operator()() const::{lambda(float)#1}" →
 * "f(…)::{lambda(float)#1}". */
static void put_name(writer *w, const char *s, span sp, bool named)
{
    for (size_t i = sp.from; i < sp.to;) {
        const bool starts = i == sp.from || strchr(" <(,{*&[", s[i - 1]);
        size_t j = i;
        if (starts || s[i - 1] == ':')
            for (size_t k; (k = qualifier_end(s, j, sp.to, named && starts)) != j;)
                j = k;
        if (named && j == i)
            j = lambda_end(s, i, sp.to);
        const size_t close = named && j == i && s[i] == '(' ? closing(s, i) : 0;
        if (close > i + 1 && starts_with(s, close + 1, sp.to, "::")) {
            put(w, "(…)", strlen("(…)"));
            j = close + 1;
        }
        if (j == i)
            put(w, s + j++, 1);
        i = j;
    }
}

static void put_after(writer *w, const char *s, span after)
{
    while (after.from < after.to && s[after.from] == ' ')
        after.from++;
    if (after.from < after.to && !starts_with(s, after.from, after.to, "const")) {
        put(w, " ", 1);
        put(w, s + after.from, after.to - after.from);
    }
}

void gp_kernel_short_name(const char *full, char *buf, size_t len)
{
    if (len == 0)
        return;
    const name_parts np = parts_of(full);
    writer w = {buf, len, 0};
    buf[0] = '\0';
    put_name(&w, full, np.name, false);
    if (w.used == 0) {
        snprintf(buf, len, "%s", full);
        return;
    }
    put_after(&w, full, np.after);
}

/* ---- told apart ----------------------------------------------------------------------------- */

/* A list's items (template arguments or parameters), their namespaces dropped, in `text`. */
typedef struct {
    char *text;
    const char *item[MAX_ITEMS];
    size_t n;
} item_list;

/* Each item of the list s[sp], split where a ',' is outside any group (its text at most twice
 * the list's: "(…)" for "(a)", and a terminator each). */
static int list_of(const char *s, span sp, item_list *l)
{
    const size_t len = 2 * (sp.to - sp.from) + MAX_ITEMS + 1;
    *l = (item_list){.text = malloc(len)};
    if (!l->text)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    writer w = {l->text, len, 0};
    l->text[0] = '\0';
    for (size_t from = sp.from; from < sp.to && l->n < MAX_ITEMS;) {
        size_t to = from;
        while (to < sp.to && s[to] != ',')
            to = next(s, to, sp.to);
        span item = {from, to};
        while (item.from < item.to && s[item.from] == ' ')
            item.from++;
        while (item.to > item.from && s[item.to - 1] == ' ')
            item.to--;
        const size_t at = w.used;
        put_name(&w, s, item, true);
        put(&w, "", 1);          /* each item terminated */
        l->item[l->n++] = l->text + at;
        from = to + 1;
    }
    return GP_OK;
}

static const char *value(const item_list *l, size_t p)
{
    return p < l->n ? l->item[p] : "";
}

/* Each name's parts, short name and lists. */
enum { ARGS, PARAMS };
typedef struct {
    name_parts np;
    char *base;                  /* the short name without what follows the parameters */
    item_list lists[2];          /* ARGS, PARAMS */
} taken;

static int take(const char *full, taken *t)
{
    t->np = parts_of(full);
    t->base = malloc(strlen(full) + 1);
    if (!t->base)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    writer w = {t->base, strlen(full) + 1, 0};
    t->base[0] = '\0';
    put_name(&w, full, t->np.name, false);
    GP_TRY(list_of(full, t->np.args, &t->lists[ARGS]));
    return list_of(full, t->np.params, &t->lists[PARAMS]);
}

/* The search for the items of name i that tell it from its rivals. */
typedef struct {
    const taken *t;
    int list;                    /* ARGS or PARAMS */
    size_t i;
    const size_t *rivals;
    size_t n_rivals;
    size_t candidates[MAX_ITEMS], n_candidates;
    uint64_t best;
    size_t best_cost;
} search;

static const char *item_of(const search *s, size_t name, size_t p)
{
    return value(&s->t[name].lists[s->list], p);
}

static bool differs(const search *s, size_t rival, uint64_t set)
{
    for (size_t p = 0; p < MAX_ITEMS; p++)
        if ((set >> p & 1) && strcmp(item_of(s, rival, p), item_of(s, s->i, p)) != 0)
            return true;
    return false;
}

/* The sets of `left` more candidates from `from` on: the cheapest that tells i from every
 * rival is kept (the first of equal cost: the leftmost). */
static void try_sets(search *s, size_t from, size_t left, uint64_t set, size_t cost)
{
    if (left == 0) {
        bool apart = cost < s->best_cost;
        for (size_t r = 0; apart && r < s->n_rivals; r++)
            apart = differs(s, s->rivals[r], set);
        if (apart) {
            s->best = set;
            s->best_cost = cost;
        }
        return;
    }
    for (size_t c = from; c + left <= s->n_candidates; c++)
        try_sets(s, c + 1, left - 1, set | 1ull << s->candidates[c],
                 cost + strlen(item_of(s, s->i, s->candidates[c])));
}

/* The items of name i (a bit per place) that tell it from its rivals: the fewest that do, the
 * shortest first, else every place where one differs; only items it has (one it lacks would
 * show nothing). The rivals are narrowed to those the items do not tell apart. */
static uint64_t telling(const taken *t, int list, size_t i, size_t *rivals, size_t *n_rivals)
{
    search s = {t, list, i, rivals, *n_rivals, {0}, 0, 0, SIZE_MAX};
    uint64_t every = 0;
    for (size_t p = 0; p < t[i].lists[list].n; p++)
        for (size_t r = 0; r < *n_rivals; r++)
            if (differs(&s, rivals[r], 1ull << p)) {
                s.candidates[s.n_candidates++] = p;
                every |= 1ull << p;
                break;
            }
    /* the sets of up to MAX_SHOWN of at most MAX_SEARCHED places: a few thousand */
    for (size_t m = 1; m <= MAX_SHOWN && s.n_candidates <= MAX_SEARCHED && !s.best; m++)
        try_sets(&s, 0, m, 0, 0);
    const uint64_t shown = s.best ? s.best : every;
    size_t kept = 0;
    for (size_t r = 0; r < *n_rivals; r++)
        if (!differs(&s, rivals[r], shown))
            rivals[kept++] = rivals[r];
    *n_rivals = kept;
    return shown;
}

/* "<…8…>": the shown items in their places, a run of the others as one "…". */
static void put_list(writer *w, const item_list *l, uint64_t shown, const char *brackets)
{
    if (!shown || l->n == 0)
        return;
    put(w, brackets, 1);
    enum { NONE, ITEM, ELIDED } last = NONE;
    for (size_t p = 0; p < l->n; p++) {
        if (shown >> p & 1) {
            if (last == ITEM)
                put(w, ", ", 2);
            put(w, l->item[p], strlen(l->item[p]));
            last = ITEM;
        } else if (last != ELIDED) {
            put(w, "…", strlen("…"));
            last = ELIDED;
        }
    }
    put(w, brackets + 1, 1);
}

static void taken_free(taken *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) {
        free(t[i].base);
        free(t[i].lists[ARGS].text);
        free(t[i].lists[PARAMS].text);
    }
    free(t);
}

/* Name i's label: its short name, and where others share it (rivals: its base and what
 * follows its parameters), what tells it apart. */
static void label(const char *const *names, const taken *t, size_t n, size_t i,
                  size_t *rivals, char *out, size_t stride)
{
    size_t n_rivals = 0;
    for (size_t j = 0; j < n; j++)
        if (strcmp(t[j].base, t[i].base) == 0 && strcmp(names[j], names[i]) != 0 &&
            strcmp(names[j] + t[j].np.after.from, names[i] + t[i].np.after.from) == 0)
            rivals[n_rivals++] = j;
    writer w = {out, stride, 0};
    out[0] = '\0';
    if (!t[i].base[0]) {         /* nothing to take apart */
        put(&w, names[i], strlen(names[i]));
        return;
    }
    put(&w, t[i].base, strlen(t[i].base));
    if (n_rivals && t[i].np.templated)
        put_list(&w, &t[i].lists[ARGS], telling(t, ARGS, i, rivals, &n_rivals), "<>");
    if (n_rivals && t[i].np.has_params)
        put_list(&w, &t[i].lists[PARAMS], telling(t, PARAMS, i, rivals, &n_rivals), "()");
    put_after(&w, names[i], t[i].np.after);
}

int gp_kernel_short_names(const char *const *names, size_t n, char *out, size_t stride)
{
    taken *t = calloc(n + 1, sizeof *t);
    size_t *rivals = malloc((n + 1) * sizeof *rivals);
    int rc = t && rivals ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        rc = take(names[i], &t[i]);
    for (size_t i = 0; rc == GP_OK && i < n; i++)
        label(names, t, n, i, rivals, out + i * stride, stride);
    taken_free(t, n);
    free(rivals);
    return rc;
}
