/* The program's NVTX ranges as the injected library sees them (issue 48): each thread's
 * push/pop stacks (one per domain), the start/end ranges open in the process (any thread may
 * end one), the domains' names, registered strings and category names; and each launch's
 * range path, a number per distinct path. No NVTX or CUPTI here: nvtx.c turns NVTX's calls
 * into these, so that the model is tested without either (tests/unit/test_nvtx_ranges.c).
 *
 * A path joins, outermost first, the start/end ranges open in the process (in the order they
 * started) and this thread's push/pop ranges (the default domain's, then each other domain's
 * in the order the domains were created), with '/'. A range of a domain other than the
 * default is written DOMAIN@LABEL (ncu's --nvtx-include grammar). A label is the range's
 * message, or its registered string's text; a named category follows in brackets,
 * "label [category]". Labels are resolved when a path is built, not at each push: a push
 * only copies the message (bench/README.md, "NVTX ranges: the probe": 10-16 ns a pair),
 * without the per-call parts PyTorch's emit_nvtx writes into it (", seq = N", ", op_id = N",
 * ", sizes = [...]", ", input_op_ids = [...]": gpuprof/range_fold.h), so that a path names a
 * place in the program, not one op call. */
#ifndef GPUPROF_INJECT_NVTX_RANGES_H
#define GPUPROF_INJECT_NVTX_RANGES_H

#include "inject/inject.h"

#include "gpuprof/nvtx_filter.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

/* What a push or start names: a message (ASCII/UTF-8 or wide), or a registered string's
 * handle, and its category (0: none). */
typedef struct {
    const char *text;
    const wchar_t *wide;
    const void *registered;
    uint32_t category;
} gp_range_label;

/* The most characters a label keeps (a longer one ends in "..."), and the most a path
 * keeps (a longer one is cut after its last whole label, then "/..."). */
#define GP_RANGE_LABEL_MAX 96
#define GP_RANGE_PATH_MAX 512

/* A wide text's ASCII characters, '?' for the others (the process's locale is the program's,
 * not ours to rely on), cut to cap - 1; buf. Wide messages and names go through it. */
const char *gp_ranges_ascii(const wchar_t *w, char *buf, size_t cap);

/* The default domain is 0; a domain name seen first gets the next index (NULL or "": a new
 * domain each time, named "domain N"); the same name again, from any NVTX instance of the
 * process (each library that includes NVTX's headers is one), its index again. -1 past the
 * model's 32 domains (their ranges are left out). */
int gp_ranges_domain(const char *name);

/* A registered string: the handle that a label's `registered` names it by (never NULL). */
const void *gp_ranges_register_string(int domain, const char *text);
void gp_ranges_name_category(int domain, uint32_t category, const char *name);

/* This thread's push and pop on a domain's stack: the 0-based level of the range started or
 * ended, as NVTX returns it; -1 for a pop with nothing pushed. */
int gp_ranges_push(int domain, const gp_range_label *label);
int gp_ranges_pop(int domain);
/* A start/end range, process-wide: its id (never 0); an end with an unknown id is counted
 * and ignored. */
uint64_t gp_ranges_start(int domain, const gp_range_label *label);
void gp_ranges_end(uint64_t id);

/* The calling thread's path now, "" when no range is open; its length. */
size_t gp_ranges_path(char *buf, size_t cap);

/* The most distinct paths numbered; past them, every new path gets one number more, its path
 * GP_RANGE_OVERFLOW. */
#define GP_RANGE_PATHS_MAX 65536
#define GP_RANGE_OVERFLOW "(more distinct range paths than gpuprof keeps)"

/* The number of the calling thread's path now: 0 when no range is open; otherwise a number
 * from 1 up, the same for the same path from any thread. The first time a path is seen,
 * `first_seen(number, path)` is called (with the model's lock held: it must not call back
 * into the model), so that the caller can write it down. A thread whose ranges have not
 * changed since its last call gets its number without building the path. */
typedef void (*gp_ranges_first_seen_fn)(uint32_t number, const char *path);
uint32_t gp_ranges_current(gp_ranges_first_seen_fn first_seen);

/* --nvtx-include and --nvtx-exclude: the filters the launches' ranges are matched against,
 * set before any callback (NULL: none), kept by the caller for the process's life. */
void gp_ranges_filter(const gp_nvtx_filters *filters);
/* Whether the filters take a launch of the calling thread now (true without filters): its
 * view (each domain's stack of this thread, the process's open start/end ranges, labels as
 * paths write them without their category) matched under the model's lock. A thread whose
 * ranges and the process's have not changed since its last call gets its last choice. */
bool gp_ranges_chosen(void);

/* Pops and ends that matched nothing, and labels or paths cut short, so far. */
typedef struct {
    uint64_t unmatched_pops, unmatched_ends, cut;
} gp_ranges_counts;
gp_ranges_counts gp_ranges_counted(void);

#endif
