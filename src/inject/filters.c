/* The filters of inject/filters.h. */
#include "inject/filters.h"

#include "inject/nvtx_ranges.h"

#include "gpuprof/demangle.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <regex.h>
#include <stdlib.h>

struct gp_filter_kernel {
    bool matches;              /* the name filter takes it */
    uint64_t profiled;         /* its launches profiled */
};

/* The request's filters. Guard: none, written by gp_filters_start before any callback. */
static struct {
    bool has_regex;
    regex_t regex;                /* --kernel, matched against mangled and demangled names */
    uint64_t skip, count;         /* --launch-skip, --launch-count (UINT64_MAX: no limit) */
    uint64_t per_kernel;          /* --per-kernel (UINT64_MAX: no limit) */
    gp_nvtx_filters nvtx;         /* --nvtx-include, --nvtx-exclude (nvtx_ranges.c matches) */
} wanted;

/* gp_filter_kernel by mangled name. Guard: the launch lock. */
static gp_hashmap kernels;
/* Launches the name filter took, and those profiled. Guard: the launch lock. */
static uint64_t matching_launches, profiled_launches;

int gp_filters_start(const gp_exec_request *r)
{
    gp_hashmap_init(&kernels, sizeof(gp_filter_kernel));
    wanted.skip = r->launch_skip;
    wanted.count = r->launch_count;
    wanted.per_kernel = r->per_kernel;
    if (gp_nvtx_filters_open(&wanted.nvtx, (const char(*)[GP_NVTX_FILTER_LEN])r->nvtx_include,
                             r->n_nvtx_include,
                             (const char(*)[GP_NVTX_FILTER_LEN])r->nvtx_exclude,
                             r->n_nvtx_exclude) != GP_OK) {
        wanted.count = 0; /* gpuprof exec checked them; a failure here profiles nothing */
        return -1;
    }
    gp_ranges_filter(&wanted.nvtx);
    if (!r->kernel_regex[0])
        return 0;
    if (regcomp(&wanted.regex, r->kernel_regex, REG_EXTENDED | REG_NOSUB) != 0) {
        wanted.count = 0; /* gpuprof exec checked it; a failure here profiles nothing */
        return -1;
    }
    wanted.has_regex = true;
    return 0;
}

static bool filter_matches(const char *mangled)
{
    if (!wanted.has_regex)
        return true;
    if (regexec(&wanted.regex, mangled, 0, NULL, 0) == 0)
        return true;
    char *demangled = gp_demangle(mangled);
    bool match = demangled && regexec(&wanted.regex, demangled, 0, NULL, 0) == 0;
    free(demangled);
    return match;
}

static gp_filter_kernel *kernel_named(const char *name)
{
    bool added = false;
    gp_filter_kernel *k = gp_hashmap_add_str(&kernels, name, &added);
    if (k && added)
        k->matches = filter_matches(name);
    return k;
}

gp_filter_choice gp_filters_choose(const char *mangled, gp_filter_kernel **kernel)
{
    gp_filter_kernel *k = *kernel = kernel_named(mangled);
    if (!k || !k->matches || !gp_ranges_chosen())
        return GP_FILTER_NOT_CHOSEN;
    const uint64_t index = matching_launches++;
    if (index < wanted.skip || profiled_launches >= wanted.count)
        return GP_FILTER_NOT_CHOSEN;
    return k->profiled >= wanted.per_kernel ? GP_FILTER_BEYOND_QUOTA : GP_FILTER_CHOSEN;
}

bool gp_filters_matches(const char *mangled)
{
    const gp_filter_kernel *k = kernel_named(mangled);
    return k && k->matches && gp_ranges_chosen();
}

void gp_filters_profiled(gp_filter_kernel *kernel)
{
    kernel->profiled++;
    profiled_launches++;
}

bool gp_filters_done(void)
{
    return profiled_launches >= wanted.count;
}
