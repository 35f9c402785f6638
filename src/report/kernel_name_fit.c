/* Kernel names fitted to a width (gpuprof/kernel_name.h): cut in the middle, keeping the
 * start through the function's own name and the end of its template arguments; names told
 * apart where two cuts coincide; names kept whole through the function's qualified name; and
 * the styles of a report's names, each fuller where two would look alike. */
#include "gpuprof/kernel_name.h"

#include "gpuprof/short_names.h"
#include "gpuprof/status.h"
#include "report/name_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- cut in the middle: the start and the end kept --------------------------------------- */

/* The byte offset `cols` columns after `from` (or the end). */
static size_t columns_after(const char *s, size_t from, size_t cols)
{
    size_t i = from;
    for (size_t c = 0; s[i] && c < cols; c++) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* The byte offset `cols` columns before `end` (or 0). */
static size_t columns_before(const char *s, size_t end, size_t cols)
{
    size_t i = end;
    for (size_t c = 0; i > 0 && c < cols; c++) {
        i--;
        while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
            i--;
    }
    return i;
}

static size_t span_columns(const char *s, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* Whether a kept start may end just before i: the name's own boundaries, or after a "_"
 * (the words of a cuBLAS or cutlass name: sm80_xmma_gemm_...) or a space ("void "). */
static bool head_boundary(const char *s, size_t i)
{
    return gp_name_readable_boundary(s, i) ||
           (i > 0 && (s[i - 1] == '_' || s[i - 1] == ' ') && s[i] != '_' && s[i] != ' ');
}

/* Whether a kept end may begin at i: after a separator, a "::", a "<" or "(", or a "_". */
static bool tail_boundary(const char *s, size_t i)
{
    if (i == 0 || ((unsigned char)s[i] & 0xC0) == 0x80)
        return false;
    const char c = s[i - 1];
    return (c == ' ' || c == '_' || c == '<' || c == '(' || c == ':') && s[i] != ' ' &&
           s[i] != ':' && s[i] != '_';
}

/* The end of a kept start of at most `cols` columns from `from`: at a boundary in its last
 * half, else where the columns end. */
static size_t head_end(const char *s, size_t from, size_t cols)
{
    const size_t most = columns_after(s, from, cols);
    const size_t least = columns_after(s, from, cols / 2);
    for (size_t i = most; i > least; i--)
        if (head_boundary(s, i))
            return i;
    for (size_t i = least; i > 0; i--)
        if (head_boundary(s, i))
            return i;
    return most;
}

/* The start of a kept end of at most `cols` columns before `end`: at a boundary in its
 * first half, else where the columns begin. */
static size_t tail_start(const char *s, size_t end, size_t cols)
{
    const size_t most = columns_before(s, end, cols);
    const size_t least = columns_before(s, end, cols / 2);
    for (size_t i = most; i < least; i++)
        if (tail_boundary(s, i))
            return i;
    for (size_t i = least; s[i]; i++)
        if (tail_boundary(s, i))
            return i;
    return most;
}

/* Appends s[from, to) to buf, spaces at either end dropped. */
static size_t append_span(char *buf, size_t len, size_t used, const char *s, size_t from,
                          size_t to)
{
    while (from < to && s[from] == ' ')
        from++;
    while (to > from && s[to - 1] == ' ')
        to--;
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "%.*s", (int)(to - from), s + from);
    return used < len ? used : len - 1;
}

static size_t append_text(char *buf, size_t len, size_t used, const char *text)
{
    return append_span(buf, len, used, text, 0, strlen(text));
}

/* The part of a name a cut in the middle works on: without a parameter list that the width
 * cannot hold ("(…)" stands for it), and where the function's own name starts. */
typedef struct {
    const char *s;
    size_t end;                  /* the part's end: the parameter list's start, or the end */
    bool params;                 /* a parameter list was dropped */
    size_t own;                  /* where the function's own name starts */
    size_t own_end;              /* where its template arguments start (or end) */
    size_t after;                /* past the parameter list: " const", or " #6" */
} name_parts;

static name_parts parts_of(const char *s)
{
    const size_t n = strlen(s), p = gp_name_parameter_list(s, n);
    name_parts np = {s, p, p < n, 0, gp_name_without_template(s, p), n};
    int depth = 0;
    for (size_t i = p; i < n; i++) {
        depth += gp_name_depth_step(s[i]);
        if (depth == 0) {
            np.after = i + 1;
            break;
        }
    }
    np.own = gp_name_own_name_start(s, np.own_end);
    return np;
}

/* A tile shape among a name's words ("_tilesize128x128x8_stage3_", "_128x128_32x3_"): the
 * word with digits "x" digits and the word after it; false when there is none. */
static bool tile_shape(const char *s, size_t from, size_t to, size_t *start, size_t *end)
{
    for (size_t i = from + 1; i + 1 < to; i++) {
        if (s[i] != 'x' || !isdigit((unsigned char)s[i - 1]) ||
            !isdigit((unsigned char)s[i + 1]))
            continue;
        size_t a = i, b = i;
        while (a > from && s[a - 1] != '_')
            a--;
        while (b < to && s[b] != '_')
            b++;
        if (b < to)
            for (b++; b < to && s[b] != '_';)
                b++;
        *start = a;
        *end = b;
        return true;
    }
    return false;
}

/* A start of at most `cols` columns that ends at a boundary: the return type's word
 * ("void "), else nothing rather than part of an identifier. */
static size_t short_start(const char *s, size_t cols)
{
    const size_t end = head_end(s, 0, cols);
    if (end > 0 && head_boundary(s, end))
        return end;
    const char *space = strchr(s, ' ');
    return space && span_columns(s, 0, (size_t)(space - s)) < cols ? (size_t)(space - s) + 1
                                                                    : 0;
}

/* What a cut in the middle keeps: s[0, head) "…" s[keep, keep_end) "…" s[tail, end), the
 * middle part optional (keep == keep_end). */
typedef struct {
    size_t head, keep, keep_end;
} kept_parts;

/* The start, through the function's own name and its "<" where that fits in three fifths of
 * the room; else a short start and the own name as the middle part where that fits; else a
 * start of a third, and a tile shape of the name's words as the middle part where one is. */
static kept_parts kept_of(const name_parts *np, size_t room)
{
    const char *s = np->s;
    const size_t own_end = np->own_end + (np->own_end < np->end && s[np->own_end] == '<');
    if (span_columns(s, 0, own_end) * 5 <= room * 3)
        return (kept_parts){own_end, 0, 0};
    const size_t short_head = short_start(s, room / 6 ? room / 6 : 1);
    if (np->own > short_head && span_columns(s, np->own, own_end) * 5 <= room * 3)
        return (kept_parts){short_head, np->own, own_end};
    kept_parts k = {head_end(s, 0, room / 3 ? room / 3 : 1), 0, 0};
    size_t a, b;
    if (tile_shape(s, k.head, np->end, &a, &b) && span_columns(s, a, b) * 5 <= room * 3) {
        k.head = head_end(s, 0, room / 4 ? room / 4 : 1);
        k.keep = a > k.head ? a : k.head;
        k.keep_end = b;
    }
    return k;
}

/* The spans of s to keep, in order, written with "…" wherever one does not meet the next. */
static size_t put_spans(const char *s, const size_t (*spans)[2], size_t n, char *buf,
                        size_t len)
{
    size_t used = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        size_t from = spans[i][0] > last ? spans[i][0] : last;
        if (spans[i][1] <= from)
            continue;
        if (from > last || (i > 0 && last == 0))
            used = append_text(buf, len, used, "…");
        while (used && from < spans[i][1] && s[from] == ' ')
            from++;
        /* a space before "…" stays: "void …k<" does not join two words */
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%.*s",
                                     (int)(spans[i][1] - from), s + from);
        used = used < len ? used : len - 1;
        last = spans[i][1];
    }
    return used;
}

/* The columns of the spans kept (overlaps once) and the "…" between them. */
static size_t spans_columns(const char *s, const size_t (*spans)[2], size_t n)
{
    size_t cols = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t from = spans[i][0] > last ? spans[i][0] : last;
        if (spans[i][1] <= from)
            continue;
        cols += span_columns(s, from, spans[i][1]) + (from > last || i > 0);
        last = spans[i][1];
    }
    return cols;
}

/* A cut in the middle, "(…)" for dropped parameters; `room` is the columns for the kept text
 * and the "…"s. */
static void middle_cut(const name_parts *np, size_t room, char *buf, size_t len)
{
    const kept_parts k = kept_of(np, room - 1);
    size_t spans[3][2] = {{0, k.head}, {k.keep, k.keep_end}, {np->end, np->end}};
    const size_t used = spans_columns(np->s, (const size_t (*)[2])spans, 2);
    spans[2][0] = tail_start(np->s, np->end, room > used + 1 ? room - used - 1 : 1);
    size_t n = put_spans(np->s, (const size_t (*)[2])spans, 3, buf, len);
    if (np->params)
        n = append_text(buf, len, n, "(…)");
    /* what follows the parameters (" const", " #6") is kept whole, after a space */
    if (np->params && np->s[np->after] && n + 1 < len) {
        buf[n++] = ' ';
        buf[n] = '\0';
        append_span(buf, len, n, np->s, np->after, strlen(np->s));
    }
}

/* A parameter list cut at its end: "k(float *, int,…)"; false when the start and the first
 * parameter do not fit. */
static bool parameters_cut(const name_parts *np, size_t width, char *buf, size_t len)
{
    if (!np->params || span_columns(np->s, 0, np->end) + 4 > width)
        return false;
    gp_kernel_name_cut(np->s, width - 1, buf, len);
    const size_t used = strlen(buf);
    if (used < np->end + 4)         /* "…" is 3 bytes: nothing of the list was kept */
        return false;
    snprintf(buf + used, len - used, ")");
    return true;
}

void gp_kernel_name_shorten(const char *name, size_t width, char *buf, size_t len)
{
    width = width < GP_KERNEL_NAME_LEAST ? GP_KERNEL_NAME_LEAST : width;
    if (gp_text_columns(name) <= width) {
        snprintf(buf, len, "%s", name);
        return;
    }
    const name_parts np = parts_of(name);
    if (parameters_cut(&np, width, buf, len))
        return;
    const size_t after = np.params ? 3 + span_columns(name, np.after, strlen(name)) : 0;
    middle_cut(&np, width > after + GP_KERNEL_NAME_LEAST / 2 ? width - after
                                                             : GP_KERNEL_NAME_LEAST / 2,
               buf, len);
}

/* ---- names told apart --------------------------------------------------------------------- */

/* The window [from, to) narrowed to readable boundaries within `slack` columns of its ends,
 * still holding byte `at`. */
static void snap_window(const char *s, size_t at, size_t slack, size_t *window)
{
    const size_t from_most = columns_after(s, window[0], slack);
    for (size_t i = window[0]; i < from_most && i <= at; i++)
        if (tail_boundary(s, i)) {
            window[0] = i;
            break;
        }
    const size_t to_least = columns_before(s, window[1], slack);
    for (size_t i = window[1]; i > to_least && i > at + 1; i--)
        if (head_boundary(s, i)) {
            window[1] = i;
            break;
        }
}

/* A cut that keeps the part around byte `at` besides the start (as a cut in the middle
 * keeps it) and the end: "start…around…end". */
static void window_cut(const char *s, size_t at, size_t width, char *buf, size_t len)
{
    const name_parts np = {s, strlen(s), false, parts_of(s).own, parts_of(s).own_end,
                           strlen(s)};
    const size_t room = width - 3, own_end = np.own_end + (s[np.own_end] == '<');
    const size_t short_head = short_start(s, room / 8 ? room / 8 : 1);
    /* The function's own name where it takes at most three fifths of the room, else a start. */
    const bool own = np.own >= short_head && span_columns(s, np.own, own_end) * 5 <= room * 3;
    size_t spans[4][2] = {{0, own ? short_head : head_end(s, 0, room / 4 ? room / 4 : 1)},
                          {own ? np.own : 0, own ? own_end : 0}, {0, 0}, {np.end, np.end}};
    spans[3][0] = tail_start(s, np.end, room / 6 ? room / 6 : 1);
    const size_t kept = spans_columns(s, (const size_t (*)[2])spans, 2) +
                        span_columns(s, spans[3][0], np.end);
    const size_t window = room > kept ? room - kept : 1;
    /* around `at`, a third before it, moved back where the name ends sooner */
    spans[2][1] = columns_after(s, columns_before(s, at, window / 3), window);
    spans[2][0] = columns_before(s, spans[2][1], window);
    snap_window(s, at, window / 3, spans[2]);
    put_spans(s, (const size_t (*)[2])spans, 4, buf, len);
}

static size_t common_prefix(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return i;
}

/* Where a ends differing from b, counted from a's end: the bytes they end alike with. */
static size_t common_suffix(const char *a, const char *b)
{
    size_t i = strlen(a), j = strlen(b), n = 0;
    while (i > 0 && j > 0 && a[--i] == b[--j])
        n++;
    return n;
}

static char *label(char *labels, size_t stride, size_t i)
{
    return labels + i * stride;
}

/* Whether name i's label is also that of another name. */
static bool clashes(const char *const *names, char *labels, size_t stride, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++)
        if (strcmp(names[j], names[i]) != 0 &&
            strcmp(label(labels, stride, j), label(labels, stride, i)) == 0)
            return true;
    return false;
}

/* The byte of name i to keep so that it differs from the names its label clashes with: the
 * first byte that differs from the nearest one (from_end: the last that differs). */
static size_t difference(const char *const *names, char *labels, size_t stride, size_t n,
                         size_t i, bool from_end)
{
    size_t at = from_end ? strlen(names[i]) : 0;
    for (size_t j = 0; j < n; j++) {
        if (strcmp(names[j], names[i]) == 0 ||
            strcmp(label(labels, stride, j), label(labels, stride, i)) != 0)
            continue;
        const size_t d = from_end ? strlen(names[i]) - common_suffix(names[i], names[j])
                                  : common_prefix(names[i], names[j]);
        at = from_end ? (d > 0 && d - 1 < at ? d - 1 : at) : (d > at ? d : at);
    }
    return at;
}

/* Each name shortened to `width`, two different names never to one label (see
 * gp_kernel_names_shorten): cut in the middle as a whole. */
static int shorten_apart(const char *const *names, size_t n, size_t width, char *labels,
                         size_t stride)
{
    width = width < GP_KERNEL_NAME_LEAST ? GP_KERNEL_NAME_LEAST : width;
    for (size_t i = 0; i < n; i++)
        gp_kernel_name_shorten(names[i], width, label(labels, stride, i), stride);
    size_t *at = calloc(n ? n : 1, sizeof *at);
    if (!at)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    /* Clashing labels keep the part where their names first differ, then where they last
     * differ; the positions are all taken before any label changes. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++)
            at[i] = clashes(names, labels, stride, n, i)
                        ? difference(names, labels, stride, n, i, pass == 1) + 1
                        : 0;
        for (size_t i = 0; i < n; i++)
            if (at[i])
                window_cut(names[i], at[i] - 1, width, label(labels, stride, i), stride);
    }
    free(at);
    return GP_OK;
}

/* ---- names kept whole through the function's own name ------------------------------------- */

/* The fewest columns of a rest cut at its end after a function's own name kept whole. */
#define REST_LEAST 4

/* The part of a name kept whole: s[from, to), after "…" where `dots` (what it leaves out). */
typedef struct {
    size_t from, to;
    bool dots;
} name_head;

static size_t head_columns(const char *s, name_head h)
{
    return h.dots + span_columns(s, h.from, h.to);
}

/* The part of name s kept whole where it does not fit `width`: from a start at a boundary (its
 * beginning, or past a " " or "::" before its own name) through its own name and a "<" after
 * it, the earliest start that leaves the rest GP_KERNEL_NAME_LEAST columns (all it needs,
 * where fewer); else the own name alone where it leaves REST_LEAST, after "…" where there is
 * room for it. False where it does not, or the name has neither qualifiers nor template
 * arguments to keep apart, or it has parameters (a full name: the cut in the middle keeps its
 * own name where there is room, and the parameters as "(…)"). */
static bool head_of(const char *s, size_t width, name_head *h)
{
    const name_parts np = parts_of(s);
    if (np.params)
        return false;
    *h = (name_head){0, np.own_end + (np.own_end < np.end && s[np.own_end] == '<'), false};
    const size_t rest = span_columns(s, h->to, strlen(s));
    const size_t need = rest < GP_KERNEL_NAME_LEAST ? rest : GP_KERNEL_NAME_LEAST;
    int depth = 0;
    for (size_t i = 0; (np.own > 0 || h->to > np.own_end) && i <= np.own; i++) {
        const bool boundary = i == 0 || (depth == 0 && (s[i - 1] == ' ' || (i >= 2 &&
                                                        s[i - 1] == ':' && s[i - 2] == ':')));
        *h = (name_head){i, h->to, i > 0};
        if (boundary && head_columns(s, *h) + need <= width)
            return true;
        depth = depth + gp_name_depth_step(s[i]) < 0 ? 0 : depth + gp_name_depth_step(s[i]);
    }
    const size_t least = rest < REST_LEAST ? rest : REST_LEAST;
    *h = (name_head){np.own, h->to, true};
    if (head_columns(s, *h) + least > width)
        h->dots = false;
    return np.own > 0 && head_columns(s, *h) + least <= width;
}

/* Whether two names' heads read alike. */
static bool same_head(const char *a, name_head ha, const char *b, name_head hb)
{
    return ha.dots == hb.dots && ha.to - ha.from == hb.to - hb.from &&
           strncmp(a + ha.from, b + hb.from, ha.to - ha.from) == 0;
}

/* Whether the cuts of the rests of a group tell apart every two rests that differ. */
static bool rests_apart(const char *const *rests, const char *cut, size_t m, size_t stride)
{
    for (size_t k = 0; k < m; k++)
        for (size_t j = 0; j < k; j++)
            if (strcmp(cut + j * stride, cut + k * stride) == 0 &&
                strcmp(rests[j], rests[k]) != 0)
                return false;
    return true;
}

/* The names of `group` (indices, whose heads read alike) shortened together: the head whole,
 * the rests in the room it leaves, their ends (where a short label's arguments tell it apart)
 * where those tell them apart, else cut in the middle (where the room is at least
 * GP_KERNEL_NAME_LEAST). False in *apart where neither tells them apart. */
static int shorten_group(const char *const *names, const size_t *group, size_t m,
                         const name_head *heads, size_t width, char *labels, size_t stride,
                         bool *apart)
{
    const char **rests = malloc((m ? m : 1) * sizeof *rests);
    char *cut = malloc((m ? m : 1) * stride);
    int rc = rests && cut ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const char *s = names[group[0]];
    const name_head h = heads[group[0]];
    const size_t room = width - head_columns(s, h);
    for (size_t k = 0; rc == GP_OK && k < m; k++) {
        const char *rest = rests[k] = names[group[k]] + heads[group[k]].to;
        const bool fits = gp_text_columns(rest) <= room;
        size_t end = fits ? 0 : columns_before(rest, strlen(rest), room - 1);
        /* never inside a number: "…56x128" would read as another tile than 256x128 */
        while (end > 0 && isdigit((unsigned char)rest[end]) &&
               isalnum((unsigned char)rest[end - 1]))
            for (end++; isalnum((unsigned char)rest[end]);)
                end++;
        snprintf(cut + k * stride, stride, "%s%s", fits ? "" : "…", rest + end);
    }
    *apart = rc == GP_OK && rests_apart(rests, cut, m, stride);
    if (rc == GP_OK && !*apart && room >= GP_KERNEL_NAME_LEAST) {
        rc = shorten_apart(rests, m, room, cut, stride);
        *apart = rc == GP_OK && rests_apart(rests, cut, m, stride);
    }
    for (size_t k = 0; rc == GP_OK && *apart && k < m; k++)
        snprintf(label(labels, stride, group[k]), stride, "%s%.*s%s", h.dots ? "…" : "",
                 (int)(h.to - h.from), s + h.from, cut + k * stride);
    free(rests);
    free(cut);
    return rc;
}

int gp_kernel_names_shorten(const char *const *names, size_t n, size_t width, char *labels,
                            size_t stride)
{
    width = width < GP_KERNEL_NAME_LEAST ? GP_KERNEL_NAME_LEAST : width;
    name_head *heads = calloc(n ? n : 1, sizeof *heads);
    size_t *group = malloc((n ? n : 1) * sizeof *group);
    const char **plain = malloc((n ? n : 1) * sizeof *plain);
    bool *done = calloc(n ? n : 1, sizeof *done), *whole = calloc(n ? n : 1, sizeof *whole);
    int rc = heads && group && plain && done && whole
                 ? GP_OK
                 : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    /* A name that fits is whole; the others with a head go by their heads as shown. */
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        done[i] = gp_text_columns(names[i]) <= width;
        whole[i] = !done[i] && !head_of(names[i], width, &heads[i]);
        if (done[i])
            snprintf(label(labels, stride, i), stride, "%s", names[i]);
    }
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        size_t m = 0;
        for (size_t j = i; !done[i] && !whole[i] && j < n; j++)
            if (!done[j] && !whole[j] && same_head(names[i], heads[i], names[j], heads[j]))
                group[m++] = j;
        bool apart = true;
        if (m)
            rc = shorten_group(names, group, m, heads, width, labels, stride, &apart);
        for (size_t k = 0; k < m; k++)
            (apart ? done : whole)[group[k]] = true;
    }
    /* The rest cut as a whole, apart from each other. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (whole[i]) {
            group[m] = i;
            plain[m++] = names[i];
        }
    char *cut = rc == GP_OK && m ? malloc(m * stride) : NULL;
    if (rc == GP_OK && m && !cut)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    if (cut)
        rc = shorten_apart(plain, m, width, cut, stride);
    for (size_t k = 0; rc == GP_OK && cut && k < m; k++)
        snprintf(label(labels, stride, group[k]), stride, "%s", cut + k * stride);
    free(heads);
    free(group);
    free(plain);
    free(done);
    free(whole);
    free(cut);
    return rc;
}

/* The next fuller style: base, then function, then full; short, then full. */
static gp_kernel_name_style fuller(gp_kernel_name_style s)
{
    return s == GP_KERNEL_NAME_BASE ? GP_KERNEL_NAME_FUNCTION : GP_KERNEL_NAME_FULL;
}

int gp_kernel_names_format(const char *const *names, size_t n, gp_kernel_name_style style,
                           char *out, size_t stride)
{
    gp_kernel_name_style *each = malloc((n ? n : 1) * sizeof *each);
    bool *moved = calloc(n ? n : 1, sizeof *moved);
    int rc = each && moved ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < n; i++) {
        each[i] = style;
        if (style != GP_KERNEL_NAME_SHORT)
            gp_kernel_name_format(names[i], style, label(out, stride, i), stride);
    }
    if (rc == GP_OK && style == GP_KERNEL_NAME_SHORT)
        rc = gp_kernel_short_names(names, n, out, stride);
    /* A name whose styled form is another name's goes one style fuller, until none clash
     * (full names never do: they are the kernels' own); all are judged before any moves. */
    for (bool again = rc == GP_OK; again;) {
        again = false;
        for (size_t i = 0; i < n; i++)
            if (each[i] != GP_KERNEL_NAME_FULL && clashes(names, out, stride, n, i)) {
                each[i] = fuller(each[i]);
                moved[i] = again = true;
            }
        for (size_t i = 0; i < n; i++)
            if (moved[i]) {
                gp_kernel_name_format(names[i], each[i], label(out, stride, i), stride);
                moved[i] = false;
            }
    }
    free(each);
    free(moved);
    return rc;
}
