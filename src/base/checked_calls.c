/* The failed call sites of gpuprof/checked_calls.h: a lock-free list (a site is pushed once,
 * by the thread whose failure is its first) read at the end. Base layer. */
#include "gpuprof/checked_calls.h"

#include <stdio.h>

/* The newest failed site. Guard: atomics (pushed by compare-and-swap, never removed). */
static gp_call_site *_Atomic failed_sites;

void gp_call_site_result(gp_call_site *site, int result)
{
    if (result == 0 || atomic_fetch_add(&site->failures, 1) != 0)
        return;
    atomic_store(&site->first_result, result);
    gp_call_site *head = atomic_load(&failed_sites);
    do
        atomic_store(&site->next, head);
    while (!atomic_compare_exchange_weak(&failed_sites, &head, site));
}

const gp_call_site *gp_failed_call_sites(void)
{
    return atomic_load(&failed_sites);
}

void gp_call_site_warning(const gp_call_site *site, char *buf, size_t len)
{
    const unsigned n = site->failures; /* an atomic's plain read is an atomic load */
    snprintf(buf, len, "%s failed %u time%s (result %d): %s", site->call, n,
             n == 1 ? "" : "s", (int)site->first_result, site->lost);
}
