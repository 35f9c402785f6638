/* The names of the GPU activities besides kernels (gpuprof/activity_names.h), one table per
 * enum of gpuprof/report.h; an activity's title is made from its key. */
#include "gpuprof/activity_names.h"

/* Each kind with its key, given to KEY or TITLE below to make either table. */
#define ACTIVITIES(X)                                                                            \
    X(GP_ACTIVITY_MEMCPY_UNKNOWN, "memcpy") X(GP_ACTIVITY_HTOD, "memcpy HtoD")                   \
    X(GP_ACTIVITY_DTOH, "memcpy DtoH") X(GP_ACTIVITY_HTOA, "memcpy HtoA")                        \
    X(GP_ACTIVITY_ATOH, "memcpy AtoH") X(GP_ACTIVITY_ATOA, "memcpy AtoA")                        \
    X(GP_ACTIVITY_ATOD, "memcpy AtoD") X(GP_ACTIVITY_DTOA, "memcpy DtoA")                        \
    X(GP_ACTIVITY_DTOD, "memcpy DtoD") X(GP_ACTIVITY_HTOH, "memcpy HtoH")                        \
    X(GP_ACTIVITY_PTOP, "memcpy PtoP") X(GP_ACTIVITY_MEMSET, "memset")
#define KEY(kind, key) [kind] = key,
#define TITLE(kind, key) [kind] = "[CUDA " key "]", /* as nvprof titles them */

const char *const gp_activity_keys[GP_ACTIVITY_KINDS] = {ACTIVITIES(KEY)};

static const char *const activity_titles[GP_ACTIVITY_KINDS] = {ACTIVITIES(TITLE)};

const char *const gp_memory_names[GP_MEMORY_KINDS] = {
    [GP_MEMORY_UNKNOWN] = "unknown",   [GP_MEMORY_PAGEABLE] = "pageable",
    [GP_MEMORY_PINNED] = "pinned",     [GP_MEMORY_DEVICE] = "device",
    [GP_MEMORY_ARRAY] = "array",       [GP_MEMORY_MANAGED] = "managed",
    [GP_MEMORY_DEVICE_STATIC] = "device static",
    [GP_MEMORY_MANAGED_STATIC] = "managed static",
};

const char *const gp_um_keys[GP_UM_COUNTERS] = {
    [GP_UM_UNKNOWN] = "unknown",         [GP_UM_BYTES_HTOD] = "bytes_htod",
    [GP_UM_BYTES_DTOH] = "bytes_dtoh",   [GP_UM_CPU_PAGE_FAULTS] = "cpu_page_faults",
    [GP_UM_GPU_PAGE_FAULTS] = "gpu_page_faults", [GP_UM_THRASHING] = "thrashing",
    [GP_UM_THROTTLING] = "throttling",   [GP_UM_REMOTE_MAP] = "remote_map",
    [GP_UM_BYTES_DTOD] = "bytes_dtod",
};

static const char *const um_titles[GP_UM_COUNTERS] = {
    [GP_UM_UNKNOWN] = "unknown",
    [GP_UM_BYTES_HTOD] = "Host To Device",
    [GP_UM_BYTES_DTOH] = "Device To Host",
    [GP_UM_CPU_PAGE_FAULTS] = "CPU Page faults",
    [GP_UM_GPU_PAGE_FAULTS] = "GPU Page fault groups",
    [GP_UM_THRASHING] = "Thrashing events",
    [GP_UM_THROTTLING] = "Throttling events",
    [GP_UM_REMOTE_MAP] = "Remote maps",
    [GP_UM_BYTES_DTOD] = "Device To Device",
};

const char *gp_activity_title(gp_activity_kind k)
{
    return (unsigned)k < GP_ACTIVITY_KINDS ? activity_titles[k] : "[CUDA ?]";
}

const char *gp_um_title(gp_um_counter c)
{
    return (unsigned)c < GP_UM_COUNTERS ? um_titles[c] : "?";
}

bool gp_um_is_bytes(gp_um_counter c)
{
    /* thrashing and remote maps: each record one event, its value the region's bytes */
    return c == GP_UM_BYTES_HTOD || c == GP_UM_BYTES_DTOH || c == GP_UM_BYTES_DTOD ||
           c == GP_UM_THRASHING || c == GP_UM_REMOTE_MAP;
}
