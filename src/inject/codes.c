/* The codes of inject/codes.h. */
#include "inject/codes.h"

#include "gpuprof/hashmap.h"

#include <cupti_pcsampling.h>
#include <pthread.h>
#include <stdlib.h>

/* The load calls, each with its parameter through which it returns the handle it loaded:
 * one list, expanded into the callbacks to enable and the handle each returned. */
#define LOAD_CALLS(X)                                                                      \
    X(cuModuleLoad, module) X(cuModuleLoadData, module) X(cuModuleLoadDataEx, module)      \
    X(cuModuleLoadFatBinary, module) X(cuLibraryLoadData, library)                         \
    X(cuLibraryLoadFromFile, library)

#define CALLBACK_OF(call, out) CUPTI_DRIVER_TRACE_CBID_##call,
const CUpti_CallbackId gp_code_callbacks[] = {LOAD_CALLS(CALLBACK_OF)};
#undef CALLBACK_OF
const size_t gp_n_code_callbacks = sizeof gp_code_callbacks / sizeof gp_code_callbacks[0];

/* The launches' codes by correlation id, in a ring: slot id % RING_SLOTS holds the latest id
 * noted there. The activity thread reads a kernel's record at most one activity buffer (8
 * MiB, some 40,000 kernels) after its launch, so a ring of 2^18 ids holds every launch still
 * to be read; an older one reads code 0, as a launch of unknown code. */
#define RING_SLOTS (1u << 18)
typedef struct {
    uint32_t id;
    uint64_t code;
} noted_launch;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static gp_hashmap bound;      /* a module's or library's handle: its CRC (0: unloaded).
                                 Guard: lock */
static gp_hashmap module_handles; /* CUPTI's module id: the handle it was loaded as.
                                     Guard: lock */
static gp_hashmap nodes;      /* a graph kernel node's id: its code. Guard: lock */
static noted_launch *ring;    /* RING_SLOTS, allocated at the first code noted; NULL: none
                                 noted. Guard: lock */
static bool ready;            /* the maps initialised. Guard: lock */

/* What the module-loaded callbacks saw during this thread's load call. Guard: thread-local. */
static _Thread_local struct {
    bool in_call;
    int loaded;               /* modules loaded during the call */
    uint64_t crc;             /* the last one's CRC */
    uint32_t module;          /* and its CUPTI id */
} call;

static void init_locked(void)
{
    if (ready)
        return;
    gp_hashmap_init(&bound, sizeof(uint64_t));
    gp_hashmap_init(&module_handles, sizeof(void *));
    gp_hashmap_init(&nodes, sizeof(uint64_t));
    ready = true;
}

bool gp_codes_is_load_callback(CUpti_CallbackId cbid)
{
    for (size_t i = 0; i < gp_n_code_callbacks; i++)
        if (gp_code_callbacks[i] == cbid)
            return true;
    return false;
}

/* The handle a successful load call returned. */
static void *returned_handle(CUpti_CallbackId cbid, const void *params)
{
#define HANDLE_OF(call, out)                                                               \
    case CUPTI_DRIVER_TRACE_CBID_##call:                                                   \
        return *((const call##_params *)params)->out;
    switch (cbid) {
        LOAD_CALLS(HANDLE_OF)
    default: return NULL;
    }
#undef HANDLE_OF
}

static void bind_locked(void *handle, uint64_t crc, uint32_t module)
{
    init_locked();
    uint64_t *code = gp_hashmap_add(&bound, &handle, sizeof handle, NULL);
    void **h = gp_hashmap_add(&module_handles, &module, sizeof module, NULL);
    if (code)
        *code = crc;
    if (h)
        *h = handle;
}

void gp_codes_on_call(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    if (d->callbackSite == CUPTI_API_ENTER) {
        call.in_call = true;
        call.loaded = 0;
        return;
    }
    const CUresult *ret = d->functionReturnValue;
    void *handle = (!ret || *ret == CUDA_SUCCESS) ? returned_handle(cbid, d->functionParams)
                                                  : NULL;
    /* One module loaded inside the call is the handle's; none (a library loaded lazily) or
     * several leave it unbound, its launches of code 0. */
    if (handle && call.loaded == 1 && call.crc) {
        pthread_mutex_lock(&lock);
        bind_locked(handle, call.crc, call.module);
        pthread_mutex_unlock(&lock);
    }
    call.in_call = false;
}

static void on_loaded(const CUpti_ModuleResourceData *m)
{
    if (!call.in_call || !m->pCubin)
        return;
    CUpti_GetCubinCrcParams p = {.size = CUpti_GetCubinCrcParamsSize};
    p.cubin = m->pCubin;
    p.cubinSize = m->cubinSize;
    call.loaded++;
    call.crc = cuptiGetCubinCrc(&p) == CUPTI_SUCCESS ? p.cubinCrc : 0;
    call.module = m->moduleId;
}

static void on_unloading(const CUpti_ModuleResourceData *m)
{
    pthread_mutex_lock(&lock);
    void **handle = ready ? gp_hashmap_find(&module_handles, &m->moduleId, sizeof m->moduleId)
                          : NULL;
    uint64_t *code = handle && *handle ? gp_hashmap_find(&bound, handle, sizeof *handle) : NULL;
    if (code)
        *code = 0; /* the handle may come back for another module */
    if (handle)
        *handle = NULL;
    pthread_mutex_unlock(&lock);
}

void gp_codes_on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    /* The callback's id first: with the whole resource domain on (--source), some callbacks
     * come without data (a segmentation fault on the H200 when this read it first). */
    if (cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED &&
        cbid != CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING)
        return;
    const CUpti_ModuleResourceData *m = r ? r->resourceDescriptor : NULL;
    if (!m)
        return;
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
        on_loaded(m);
    else
        on_unloading(m);
}

static uint64_t bound_code(void *handle)
{
    pthread_mutex_lock(&lock);
    const uint64_t *code = ready && bound.count ? gp_hashmap_find(&bound, &handle, sizeof handle)
                                                : NULL;
    const uint64_t c = code ? *code : 0;
    pthread_mutex_unlock(&lock);
    return c;
}

static bool any_bound(void)
{
    pthread_mutex_lock(&lock);
    const bool any = ready && bound.count > 0;
    pthread_mutex_unlock(&lock);
    return any;
}

uint64_t gp_codes_of(CUfunction f)
{
    if (!f || !any_bound())
        return 0; /* no module of known code: the driver need not be asked */
    CUmodule module = NULL;
    if (cuFuncGetModule(&module, f) == CUDA_SUCCESS && module)
        return bound_code(module);
    CUlibrary library = NULL; /* a CUkernel, as cudart launches its kernels */
    if (cuKernelGetLibrary(&library, (CUkernel)f) == CUDA_SUCCESS && library)
        return bound_code(library);
    return 0;
}

void gp_codes_note_launch(uint32_t correlation_id, uint64_t code)
{
    if (!code)
        return;
    pthread_mutex_lock(&lock);
    if (!ring)
        ring = calloc(RING_SLOTS, sizeof *ring);
    if (ring)
        ring[correlation_id % RING_SLOTS] = (noted_launch){correlation_id, code};
    pthread_mutex_unlock(&lock);
}

void gp_codes_note_node(uint64_t node_id, uint64_t code)
{
    if (!code)
        return;
    pthread_mutex_lock(&lock);
    init_locked();
    uint64_t *c = gp_hashmap_add(&nodes, &node_id, sizeof node_id, NULL);
    if (c)
        *c = code;
    pthread_mutex_unlock(&lock);
}

uint64_t gp_codes_take(uint32_t correlation_id, uint64_t node_id)
{
    uint64_t code = 0;
    pthread_mutex_lock(&lock);
    if (node_id) {
        const uint64_t *c = ready ? gp_hashmap_find(&nodes, &node_id, sizeof node_id) : NULL;
        code = c ? *c : 0;
    } else if (ring && ring[correlation_id % RING_SLOTS].id == correlation_id) {
        code = ring[correlation_id % RING_SLOTS].code;
        ring[correlation_id % RING_SLOTS].code = 0;
    }
    pthread_mutex_unlock(&lock);
    return code;
}
