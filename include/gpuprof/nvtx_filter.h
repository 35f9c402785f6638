/* exec's NVTX filters, --nvtx-include and --nvtx-exclude (issue 48), in ncu's grammar: one
 * expression parsed into a plain struct, and matched against a view of the ranges open at a
 * launch. gpuprof parses them to refuse a bad one before the program runs; the injected
 * library parses them again and matches them at each launch whose thread's ranges changed
 * (src/inject/nvtx_ranges.c). Base layer: never prints, never exits.
 *
 * The grammar:
 *   push/pop   [Domain@][[]Range1/Range2/.../RangeN[]]/   (ends with '/')
 *       Range1..RangeN are consecutive entries, outermost first, of the launching thread's
 *       stack of that domain (no Domain@: the default domain's, nvtxRangePush's), anywhere in
 *       the stack; '[' before the first anchors it at the bottom, ']' after the last at the
 *       top (the innermost open range); a name '*' is any number (zero or more) of ranges.
 *   start/end  [Domain@]Range1[,Range2...]                (no trailing '/')
 *       every named start/end range of that domain is open in the process.
 *   regex:     before either: the domain and the names are POSIX extended regular
 *       expressions matched against the whole name (a bracket expression in a name is the
 *       regex's: only a leading '[' and a ']' just before the last '/' anchor).
 *   '\'        makes the next character literal (\/ \@ \, \[ \] \* \\).
 * Names match a range's label as gpuprof's report shows it without its category: registered
 * strings resolved, PyTorch emit_nvtx's per-call parts removed (gpuprof/range_fold.h); ncu
 * matches the raw message. */
#ifndef GPUPROF_NVTX_FILTER_H
#define GPUPROF_NVTX_FILTER_H

#include "gpuprof/exec_request.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* --nvtx-include and --nvtx-exclude together, at most; an expression's characters, with its
 * terminating NUL (the request's); the names an expression can hold ("a/" each). */
#define GP_NVTX_FILTERS_MAX GP_EXEC_NVTX_FILTERS
#define GP_NVTX_FILTER_LEN GP_EXEC_NVTX_FILTER_LEN
#define GP_NVTX_FILTER_NAMES (GP_NVTX_FILTER_LEN / 2)

/* One expression, parsed: its names unescaped (the regex form's ready for regcomp, anchored
 * whole), NUL-separated in `text`, name i at text + name_at[i]. */
typedef struct {
    bool push_pop;                       /* ends with '/': the thread's stack */
    bool regex;                          /* regex: */
    bool has_domain;                     /* Domain@ (else the default domain) */
    bool bottom, top;                    /* '[' and ']' (push/pop only) */
    unsigned n_names;
    bool any[GP_NVTX_FILTER_NAMES];      /* the name '*': zero or more ranges */
    unsigned short name_at[GP_NVTX_FILTER_NAMES];
    unsigned short domain_at;            /* with has_domain */
    char text[2 * GP_NVTX_FILTER_LEN];
} gp_nvtx_filter;

/* One expression into *out; GP_ERR_USAGE (one line, naming `option`, "nvtx-include") when it
 * breaks the grammar or a regex does not compile. */
int gp_nvtx_filter_parse(const char *option, const char *expr, gp_nvtx_filter *out);
/* The grammar alone, no regcomp: for gpuprof to bound each regex's size first (its
 * gpuprof/regex_size.h, as --kernel's), before one costs regcomp seconds or gigabytes. */
int gp_nvtx_filter_shape(const char *option, const char *expr, gp_nvtx_filter *out);
/* The form's name i (0 .. n_names - 1; n_names: the domain, with has_domain); "" for '*'. */
const char *gp_nvtx_filter_name(const gp_nvtx_filter *e, unsigned i);

/* What a launch's matching sees: per domain its push/pop stack (outermost first), and the
 * start/end ranges open in the process. A domain is named "" for the default one. */
typedef struct {
    const char *domain;
    const char *const *names;
    size_t depth;
} gp_nvtx_stack;
typedef struct {
    const char *domain;
    const char *name;
} gp_nvtx_open_range;
typedef struct {
    const gp_nvtx_stack *stacks;
    size_t n_stacks;
    const gp_nvtx_open_range *open;
    size_t n_open;
} gp_nvtx_view;

/* A stack's entries past this many are not matched (the library keeps 64). */
#define GP_NVTX_VIEW_DEPTH 256

/* An expression's regexes, compiled once (regex form only: the names', then the domain's). */
typedef struct {
    regex_t *re;
    size_t n;
} gp_nvtx_regexes;

/* Whether the view holds what the expression names; `re` its regexes (NULL or empty for the
 * plain form). */
bool gp_nvtx_filter_matches(const gp_nvtx_filter *e, const gp_nvtx_regexes *re,
                            const gp_nvtx_view *v);

/* The request's expressions, ready to choose launches: opened from its texts (each checked
 * again), closed by its pair. */
typedef struct {
    gp_nvtx_filter expr[GP_NVTX_FILTERS_MAX];
    gp_nvtx_regexes re[GP_NVTX_FILTERS_MAX];
    bool exclude[GP_NVTX_FILTERS_MAX];
    size_t n, n_include;
} gp_nvtx_filters;

/* `n_include` includes then `n_exclude` excludes (GP_NVTX_FILTER_LEN arrays each); GP_OK, or
 * the first expression's error (nothing then stays open). */
int gp_nvtx_filters_open(gp_nvtx_filters *s, const char (*include)[GP_NVTX_FILTER_LEN],
                         size_t n_include, const char (*exclude)[GP_NVTX_FILTER_LEN],
                         size_t n_exclude);
void gp_nvtx_filters_close(gp_nvtx_filters *s);
/* Whether a launch in the view may get counters: no include or one matches, no exclude does. */
bool gp_nvtx_filters_choose(const gp_nvtx_filters *s, const gp_nvtx_view *v);

#endif
