/* CUDA and CUPTI calls on paths that return no status: a release in a teardown, a getter or
 * an optional callback inside the profiled program's own calls. The run goes on without what
 * such a call gives (an id stays 0, a callback stays off), so its failure is not an error to
 * return; it is counted per call site and said once, at the end, as a warning of the report
 * (the kernel commands: src/runner/runner.c; exec: the injected library's last records,
 * src/inject/inject.c), so that no number goes wrong without a word. Lock-free (atomics): a
 * site may fail while its caller holds any lock of the injected library's order. Base layer:
 * counts, never prints. A call whose function returns a status is checked with GP_CUDA or
 * CUPTI instead. */
#ifndef GPUPROF_CHECKED_CALLS_H
#define GPUPROF_CHECKED_CALLS_H

#include <stdatomic.h>
#include <stddef.h>

typedef struct gp_call_site {
    const char *call;                 /* its text: "cuptiGetContextId(ctx, &uid)" */
    const char *lost;                 /* what the run lacks when it fails */
    atomic_uint failures;
    atomic_int first_result;          /* the first failure's result code */
    struct gp_call_site *_Atomic next; /* the list of sites that failed (published once) */
} gp_call_site;

/* The result of a call at `site`: nonzero (CUDA's and CUPTI's success is 0) is counted,
 * and the site listed on its first failure. */
void gp_call_site_result(gp_call_site *site, int result);

/* A call whose result the path cannot return: counted where it fails. `lost` says what the
 * run lacks then. Each use has its own site (a static the macro declares; Guard: atomics,
 * gp_call_site). */
#define GP_CHECKED(call, lost)                                                        \
    do {                                                                              \
        static gp_call_site gp_site_ = {#call, (lost), 0, 0, NULL};                   \
        gp_call_site_result(&gp_site_, (int)(call));                                  \
    } while (0)

/* The sites that failed so far, newest first, for the warnings; NULL: none. A site's
 * failures may still grow while it is read (the caller reads them at the end). */
const gp_call_site *gp_failed_call_sites(void);

/* A site's warning: "cuptiGetContextId(ctx, &uid) failed 3 times (result 15): LOST". */
void gp_call_site_warning(const gp_call_site *site, char *buf, size_t len);

#endif
