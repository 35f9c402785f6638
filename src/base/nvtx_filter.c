/* The NVTX filters of gpuprof/nvtx_filter.h: the parser (escapes and the regex form's bracket
 * expressions first, into tokens, then the expression's shape over them) and the matcher.
 * Base layer: never prints, never exits. */
#include "gpuprof/nvtx_filter.h"

#include "gpuprof/regex_bracket.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens --------------------------------------------------------------------------- */

/* A character of the expression: `special` when it is the grammar's (unescaped / @ , [ ] and,
 * in the plain form, *), else part of a name. */
typedef struct {
    char c;
    bool special;
} token;

typedef struct {
    token t[2 * GP_NVTX_FILTER_LEN];
    size_t n;
} tokens;

static void emit(tokens *ts, char c, bool special)
{
    ts->t[ts->n++] = (token){c, special};
}

/* The escape "\c": the plain form's c; the regex form's c where the grammar alone gives it a
 * meaning (/ @ ,), else "\c", literal in the regex too. */
static void emit_escaped(tokens *ts, char c, bool regex)
{
    if (regex && !strchr("/@,", c))
        emit(ts, '\\', false);
    emit(ts, c, false);
}

static int tokenize(const char *opt, const char *expr, const char *body, bool regex,
                    tokens *ts)
{
    bool part_start = true; /* where '[' anchors: the body's start, or just after '@' */
    ts->n = 0;
    for (size_t i = 0; body[i];) {
        const char c = body[i];
        if (c == '\\') {
            if (!body[i + 1])
                return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: it ends with '\\' "
                                             "(write \\\\ for a backslash)", expr, opt);
            emit_escaped(ts, body[i + 1], regex);
            i += 2;
        } else if (regex && c == '[' && !part_start) {
            const size_t n = gp_regex_bracket_length(body + i);
            for (size_t k = 0; k < n; k++)
                emit(ts, body[i + k], false);
            i += n;
        } else {
            emit(ts, c, strchr(regex ? "/@,[]" : "/@,[]*", c) != NULL);
            i++;
        }
        part_start = c == '@' && ts->t[ts->n - 1].special;
    }
    return GP_OK;
}

/* ---- the expression's shape ------------------------------------------------------------- */

typedef struct {
    const char *opt, *expr;
    gp_nvtx_filter *f;
    size_t used; /* of f->text */
} parsing;

static int fail(const parsing *p, const char *why)
{
    return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: %s", p->expr, p->opt, why);
}

/* Tokens [from, to) as a name of text; GP_ERR_USAGE where one is the grammar's. */
static int add_text(parsing *p, const token *t, size_t n, unsigned short *at)
{
    *at = (unsigned short)p->used;
    for (size_t i = 0; i < n; i++) {
        if (t[i].special)
            return fail(p, t[i].c == '*' ? "'*' stands alone, for any ranges (\\* is the "
                                           "character; or use regex:)"
                         : t[i].c == '/' ? "'/' in a start/end expression (a push/pop "
                                           "expression ends with '/'; \\/ is the character)"
                                         : "'[' anchors only the first name and ']' only the "
                                           "last (\\[ and \\] are the characters)");
        p->f->text[p->used++] = t[i].c;
    }
    p->f->text[p->used++] = 0;
    return GP_OK;
}

/* One name: '*' alone is any ranges (push/pop only). */
static int add_name(parsing *p, const token *t, size_t n)
{
    gp_nvtx_filter *f = p->f;
    if (n == 0)
        return fail(p, "an empty name (as in \"A//\" or \"A,,B\")");
    const bool star = n == 1 && t[0].c == '*' && (t[0].special || f->regex);
    if (star && !f->push_pop)
        return fail(p, "'*' (any ranges) applies to push/pop expressions, which end with '/'");
    f->any[f->n_names] = star;
    if (star) {
        f->name_at[f->n_names++] = (unsigned short)p->used;
        f->text[p->used++] = 0;
        return GP_OK;
    }
    GP_TRY(add_text(p, t, n, &f->name_at[f->n_names]));
    f->n_names++;
    return GP_OK;
}

/* The names between `sep` tokens. */
static int split_names(parsing *p, const token *t, size_t n, char sep)
{
    size_t from = 0;
    for (size_t i = 0; i <= n; i++)
        if (i == n || (t[i].special && t[i].c == sep)) {
            GP_TRY(add_name(p, t + from, i - from));
            from = i + 1;
        }
    return GP_OK;
}

/* What follows Domain@: a push/pop path with its anchors, or start/end names. */
static int parse_ranges(parsing *p, const token *t, size_t n)
{
    gp_nvtx_filter *f = p->f;
    f->push_pop = t[n - 1].special && t[n - 1].c == '/';
    if (!f->push_pop)
        return split_names(p, t, n, ',');
    n--;
    if (n && t[0].special && t[0].c == '[') {
        f->bottom = true;
        t++, n--;
    }
    if (n && t[n - 1].special && t[n - 1].c == ']') {
        f->top = true;
        n--;
    }
    /* a ',' is part of a push/pop range's name */
    token names[2 * GP_NVTX_FILTER_LEN];
    for (size_t i = 0; i < n; i++)
        names[i] = (token){t[i].c, t[i].special && t[i].c != ','};
    return split_names(p, names, n, '/');
}

/* A regex form's name, compiled whole: "^(name)$". */
static int compile_whole(const char *name, regex_t *re, char *why, size_t why_len)
{
    char whole[GP_NVTX_FILTER_LEN + 8];
    snprintf(whole, sizeof whole, "^(%s)$", name);
    const int e = regcomp(re, whole, REG_EXTENDED | REG_NOSUB);
    if (e != 0)
        regerror(e, re, why, why_len);
    return e;
}

static int check_regexes(const parsing *p)
{
    const gp_nvtx_filter *f = p->f;
    for (unsigned i = 0; i <= f->n_names; i++) {
        if (i == f->n_names ? !f->has_domain : f->any[i])
            continue;
        regex_t re;
        char why[128], line[192];
        const char *name = gp_nvtx_filter_name(f, i);
        if (compile_whole(name, &re, why, sizeof why) != 0) {
            snprintf(line, sizeof line, "the regex '%s': %s", name, why);
            return fail(p, line);
        }
        regfree(&re);
    }
    return GP_OK;
}

static int parse_tokens(parsing *p, const token *t, size_t n)
{
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (t[i].special && t[i].c == '@') {
            if (at != n)
                return fail(p, "more than one '@' (\\@ is the character)");
            at = i;
        }
    if (at != n) {
        if (at == 0 || at + 1 == n)
            return fail(p, at == 0 ? "'@' without a domain" : "'@' without a range");
        p->f->has_domain = true;
        for (size_t i = 0; i < at; i++)
            if (t[i].special)
                return fail(p, "the domain holds one of / , [ ] * (escape it with \\)");
        GP_TRY(add_text(p, t, at, &p->f->domain_at));
        t += at + 1;
        n -= at + 1;
    }
    return parse_ranges(p, t, n);
}

int gp_nvtx_filter_shape(const char *option, const char *expr, gp_nvtx_filter *out)
{
    memset(out, 0, sizeof *out);
    parsing p = {option, expr, out, 0};
    if (strlen(expr) >= GP_NVTX_FILTER_LEN)
        return gp_fail(GP_ERR_USAGE, "invalid value for --%s: longer than %d characters",
                       option, GP_NVTX_FILTER_LEN - 1);
    if (strchr(expr, 0x1F))
        return fail(&p, "the byte 0x1F separates expressions in the program's environment");
    const char *body = expr;
    out->regex = strncmp(expr, "regex:", 6) == 0;
    if (out->regex)
        body += 6;
    if (!body[0])
        return gp_fail(GP_ERR_USAGE, "invalid value '%s' for --%s: an empty expression", expr,
                       option);
    tokens ts;
    GP_TRY(tokenize(option, expr, body, out->regex, &ts));
    return parse_tokens(&p, ts.t, ts.n);
}

int gp_nvtx_filter_parse(const char *option, const char *expr, gp_nvtx_filter *out)
{
    GP_TRY(gp_nvtx_filter_shape(option, expr, out));
    const parsing p = {option, expr, out, 0};
    return out->regex ? check_regexes(&p) : GP_OK;
}

/* ---- matching ------------------------------------------------------------------------- */

const char *gp_nvtx_filter_name(const gp_nvtx_filter *e, unsigned i)
{
    return e->text + (i == e->n_names ? e->domain_at : e->name_at[i]);
}

/* Whether name i (n_names: the domain) matches the text. */
static bool same(const gp_nvtx_filter *e, const gp_nvtx_regexes *re, unsigned i,
                 const char *text)
{
    if (e->regex && re && re->n > i)
        return regexec(&re->re[i], text, 0, NULL, 0) == 0;
    return strcmp(gp_nvtx_filter_name(e, i), text) == 0;
}

static bool domain_matches(const gp_nvtx_filter *e, const gp_nvtx_regexes *re,
                           const char *domain)
{
    return e->has_domain ? same(e, re, e->n_names, domain) : domain[0] == 0;
}

/* The names against one stack, as a glob over its entries: ok[s] says names [i, n) match
 * from entry s on, computed from the last name back. */
static bool stack_matches(const gp_nvtx_filter *e, const gp_nvtx_regexes *re,
                          const gp_nvtx_stack *st)
{
    const size_t d = st->depth < GP_NVTX_VIEW_DEPTH ? st->depth : GP_NVTX_VIEW_DEPTH;
    bool next[GP_NVTX_VIEW_DEPTH + 1], ok[GP_NVTX_VIEW_DEPTH + 1];
    for (size_t s = 0; s <= d; s++)
        next[s] = !e->top || s == d;
    for (unsigned i = e->n_names; i-- > 0;) {
        ok[d] = e->any[i] && next[d];
        for (size_t s = d; s-- > 0;)
            ok[s] = e->any[i] ? next[s] || ok[s + 1]
                              : next[s + 1] && same(e, re, i, st->names[s]);
        memcpy(next, ok, (d + 1) * sizeof ok[0]);
    }
    if (e->bottom)
        return next[0];
    for (size_t s = 0; s <= d; s++)
        if (next[s])
            return true;
    return false;
}

static bool open_matches(const gp_nvtx_filter *e, const gp_nvtx_regexes *re,
                         const gp_nvtx_view *v)
{
    for (unsigned i = 0; i < e->n_names; i++) {
        bool found = false;
        for (size_t k = 0; k < v->n_open && !found; k++)
            found = domain_matches(e, re, v->open[k].domain) && same(e, re, i, v->open[k].name);
        if (!found)
            return false;
    }
    return true;
}

bool gp_nvtx_filter_matches(const gp_nvtx_filter *e, const gp_nvtx_regexes *re,
                            const gp_nvtx_view *v)
{
    if (!e->push_pop)
        return open_matches(e, re, v);
    bool seen = false;
    for (size_t k = 0; k < v->n_stacks; k++) {
        if (!domain_matches(e, re, v->stacks[k].domain))
            continue;
        if (stack_matches(e, re, &v->stacks[k]))
            return true;
        seen = true;
    }
    /* no stack of the domain: an empty one, which only '*' names match */
    const gp_nvtx_stack empty = {"", NULL, 0};
    return !seen && stack_matches(e, re, &empty);
}

/* ---- the request's set ------------------------------------------------------------------ */

static void free_regexes(const gp_nvtx_filter *e, gp_nvtx_regexes *re)
{
    for (size_t i = 0; re->re && i < re->n; i++)
        if (i == e->n_names ? e->has_domain : !e->any[i])
            regfree(&re->re[i]);
    free(re->re);
    *re = (gp_nvtx_regexes){0};
}

static int compile(const gp_nvtx_filter *e, gp_nvtx_regexes *re)
{
    *re = (gp_nvtx_regexes){0};
    if (!e->regex)
        return GP_OK;
    re->re = calloc(e->n_names + 1, sizeof *re->re);
    if (!re->re)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    char why[128];
    for (unsigned i = 0; i <= e->n_names; i++, re->n = i) {
        if (i == e->n_names ? !e->has_domain : e->any[i])
            continue;
        const char *name = gp_nvtx_filter_name(e, i);
        if (compile_whole(name, &re->re[i], why, sizeof why) != 0) {
            free_regexes(e, re);
            return gp_fail(GP_ERR_USAGE, "invalid NVTX filter regex '%s': %s", name, why);
        }
    }
    return GP_OK;
}

static int add_filter(gp_nvtx_filters *s, const char *opt, const char *text, bool exclude)
{
    gp_nvtx_filter *e = &s->expr[s->n];
    GP_TRY(gp_nvtx_filter_parse(opt, text, e));
    GP_TRY(compile(e, &s->re[s->n]));
    s->exclude[s->n++] = exclude;
    return GP_OK;
}

int gp_nvtx_filters_open(gp_nvtx_filters *s, const char (*include)[GP_NVTX_FILTER_LEN],
                         size_t n_include, const char (*exclude)[GP_NVTX_FILTER_LEN],
                         size_t n_exclude)
{
    memset(s, 0, sizeof *s);
    if (n_include + n_exclude > GP_NVTX_FILTERS_MAX)
        return gp_fail(GP_ERR_USAGE, "more than %d NVTX filters", GP_NVTX_FILTERS_MAX);
    int rc = GP_OK;
    for (size_t i = 0; i < n_include && rc == GP_OK; i++)
        rc = add_filter(s, "nvtx-include", include[i], false);
    for (size_t i = 0; i < n_exclude && rc == GP_OK; i++)
        rc = add_filter(s, "nvtx-exclude", exclude[i], true);
    s->n_include = n_include;
    if (rc != GP_OK)
        gp_nvtx_filters_close(s);
    return rc;
}

void gp_nvtx_filters_close(gp_nvtx_filters *s)
{
    for (size_t i = 0; i < s->n; i++)
        free_regexes(&s->expr[i], &s->re[i]);
    s->n = s->n_include = 0;
}

bool gp_nvtx_filters_choose(const gp_nvtx_filters *s, const gp_nvtx_view *v)
{
    bool included = s->n_include == 0;
    for (size_t i = 0; i < s->n; i++) {
        const bool hit = gp_nvtx_filter_matches(&s->expr[i], &s->re[i], v);
        if (hit && s->exclude[i])
            return false;
        included = included || hit;
    }
    return included;
}
