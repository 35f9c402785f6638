/* The collective kernels of gpuprof/collectives.h, told by their libraries' names: NCCL's
 * device kernels are ncclDevKernel_<Op>_… (2.19 on) or ncclKernel_<Op>_… (before), mangled
 * as _Z<length>ncclDevKernel_…; NVSHMEM's begin nvshmem (nvshmemi_… mangled or not).
 * Base layer: never prints, never exits, never links cudart. */
#include "gpuprof/collectives.h"

#include <string.h>

const char gp_collective_note[] =
    "a collective: its time includes waiting for its peers; never replayed, it collects one "
    "counter group per launch";

/* The name past a mangling's "_Z<length>" (or "_ZN<length>"), else the name. */
static const char *identifier(const char *name)
{
    if (strncmp(name, "_Z", 2) != 0)
        return name;
    name += 2;
    if (*name == 'N')
        name++;
    while (*name >= '0' && *name <= '9')
        name++;
    return name;
}

static bool begins(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool gp_kernel_is_collective(const char *name)
{
    if (!name)
        return false;
    const char *id = identifier(name);
    return begins(id, "ncclDevKernel_") || begins(id, "ncclKernel_") ||
           begins(id, "nvshmem") || strstr(name, " ncclDevKernel_") ||
           strstr(name, " ncclKernel_");
}
