/* The CUPTI subscriber of subscription.h: one per process, for the library's one callback. */
#include "inject/subscription.h"

#include "gpuprof/checked_calls.h"
#include "inject/codes.h"
#include "inject/graphs.h"
#include "inject/record.h"

#include <stdio.h>

/* Guard: none, set by gp_subscription_start before any callback. */
static CUpti_SubscriberHandle subscriber;

static const CUpti_CallbackId launch_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

void gp_subscription_stop_launches(void)
{
    /* The graph launches keep theirs: one may be under way on another thread. */
    for (size_t i = 0; i < sizeof launch_callbacks / sizeof launch_callbacks[0]; i++)
        if (launch_callbacks[i] != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch &&
            launch_callbacks[i] != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
            GP_CHECKED(cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                                           launch_callbacks[i]),
                       "the launch callbacks stayed on: each later launch cost a callback");
}

bool gp_subscription_is_graph_callback(CUpti_CallbackId cbid)
{
    for (size_t i = 0; i < gp_n_graph_callbacks; i++)
        if (gp_graph_callbacks[i] == cbid)
            return true;
    return false;
}

/* Enables callbacks at the start, before any of the program's calls (no lock is held): a
 * warning says what the run lacks where some could not be. */
static void enable_callbacks(CUpti_CallbackDomain domain, const CUpti_CallbackId *ids, size_t n,
                             const char *lost)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += cuptiEnableCallback(1, subscriber, domain, ids[i]) != CUPTI_SUCCESS;
    if (!failed)
        return;
    char text[256];
    snprintf(text, sizeof text, "%zu of CUPTI's callbacks could not be enabled: %s", failed,
             lost);
    gp_record_warning(text, NULL);
}

static void watch_graphs(void)
{
    static const CUpti_CallbackId cloned[] = {CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED};
    enable_callbacks(CUPTI_CB_DOMAIN_RESOURCE, cloned, 1,
                     "graph nodes cloned from others may lack their metrics");
    enable_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, gp_graph_callbacks, gp_n_graph_callbacks,
                     "some CUDA graphs were not followed: their nodes may lack metrics");
}

void gp_subscription_watch_graph_nodes(void)
{
    if (cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) != CUPTI_SUCCESS ||
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) != CUPTI_SUCCESS)
        gp_record_warning("--nvtx: CUPTI's graph node callbacks could not be enabled: graph "
                          "kernels get the ranges of their graph's launch only", NULL);
}

/* The modules loaded and unloaded, and the calls that load them: each launch's code
 * (inject/codes.h). */
static void watch_codes(void)
{
    static const CUpti_CallbackId modules[] = {CUPTI_CBID_RESOURCE_MODULE_LOADED,
                                               CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING};
    enable_callbacks(CUPTI_CB_DOMAIN_RESOURCE, modules, 2,
                     "kernels may lack their code: variants of one kernel are not told apart");
    enable_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, gp_code_callbacks, gp_n_code_callbacks,
                     "kernels may lack their code: variants of one kernel are not told apart");
}

int gp_subscription_start(CUpti_CallbackFunc on_callback, bool launches, bool graphs,
                          bool source)
{
    CUpti_SubscriberParams sp = {.structSize = CUpti_SubscriberParams_STRUCT_SIZE};
    char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN * 2] = "";
    sp.subscriberName = "gpuprof exec";
    sp.oldSubscriberName = other;
    sp.oldSubscriberSize = sizeof other;
    CUptiResult r = cuptiSubscribe_v2(&subscriber, on_callback, NULL, &sp);
    if (r != CUPTI_SUCCESS) {
        char text[256];
        snprintf(text, sizeof text, "another CUPTI tool (%s) already watches the program: "
                 "nothing was timed or profiled", other[0] ? other : "unnamed");
        gp_record_warning(text, "run the program under one profiler at a time");
        return -1;
    }
    static const CUpti_CallbackId contexts[] = {CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                                                CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING};
    enable_callbacks(CUPTI_CB_DOMAIN_RESOURCE, contexts, 2,
                     "contexts went unseen: their kernels were not profiled");
    if (launches && source && cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE) !=
                                  CUPTI_SUCCESS)
        gp_record_warning("--source: CUPTI's resource callbacks could not be enabled: kernels "
                          "have no lines", NULL);
    if (!launches)
        return 0; /* timing only: no launch callbacks, the least overhead per launch */
    enable_callbacks(CUPTI_CB_DOMAIN_DRIVER_API, launch_callbacks,
                     sizeof launch_callbacks / sizeof launch_callbacks[0],
                     "launches of some kinds went unseen: timed, not profiled");
    watch_codes();
    if (graphs)
        watch_graphs();
    return 0;
}
