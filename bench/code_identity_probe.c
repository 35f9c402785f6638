/* bench/code_identity_probe.c: what tells one kernel's code from another's at its launch
 * (issue 44). An injection library (CUDA_INJECTION64_PATH) that logs, for every module the
 * driver loads, the cubin's CRC and the driver call it was loaded in; for every module or
 * library load call, the handle it returned; and for every kernel launch, its function's
 * module (cuFuncGetModule) and whether that module's CRC is known, at the launch's API entry
 * and at its exit. A summary at the process's end says, per kernel name, how many distinct
 * modules and CRCs its launches ran, and how many launches stayed unresolved.
 *
 *   cc -shared -fPIC -O2 -I$CUDA/include bench/code_identity_probe.c -o probe.so \
 *      -L$CUDA/lib64 -lcupti -lcuda -lpthread
 *   CODE_PROBE_LOG=log.txt CUDA_INJECTION64_PATH=$PWD/probe.so PROGRAM ...
 *
 * A probe, not gpuprof: it prints to its log and keeps small fixed tables. */
#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_MODULES 4096
#define MAX_KERNELS 1024
#define MAX_PER_CALL 16

static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct { void *handle; uint64_t crc; int kind; } binding; /* kind 0 module 1 library */
static binding bindings[MAX_MODULES];
static int n_bindings;

typedef struct {
    char name[160];
    void *modules[16]; int n_modules;
    uint64_t crcs[16]; int n_crcs;
    long launches, unresolved_enter, unresolved_exit;
} kernel_stats;
static kernel_stats kernels[MAX_KERNELS];
static int n_kernels;
static long module_loads, loads_outside_calls, log_lines;
static double crc_seconds;

static __thread CUpti_CallbackId current_call;   /* the driver call in flight, 0: none */
static __thread uint64_t loaded_in_call[MAX_PER_CALL];
static __thread int n_loaded_in_call;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void logf_limited(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void logf_limited(const char *fmt, ...)
{
    if (log_lines++ > 4000)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
}

static const char *call_name(CUpti_CallbackId cbid)
{
    const char *name = "?";
    if (cbid == 0)
        return "none";
    cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &name);
    return name;
}

static int find_binding(void *handle, uint64_t *crc)
{
    for (int i = n_bindings - 1; i >= 0; i--)
        if (bindings[i].handle == handle) {
            *crc = bindings[i].crc;
            return 1;
        }
    return 0;
}

static void bind(void *handle, uint64_t crc, int kind)
{
    for (int i = 0; i < n_bindings; i++)
        if (bindings[i].handle == handle) {
            if (bindings[i].crc != crc)
                logf_limited("REBIND %p %016llx -> %016llx\n", handle,
                             (unsigned long long)bindings[i].crc, (unsigned long long)crc);
            bindings[i].crc = crc;
            return;
        }
    if (n_bindings < MAX_MODULES)
        bindings[n_bindings++] = (binding){handle, crc, kind};
}

static kernel_stats *stats_of(const char *name)
{
    for (int i = 0; i < n_kernels; i++)
        if (strncmp(kernels[i].name, name, sizeof kernels[i].name - 1) == 0)
            return &kernels[i];
    if (n_kernels == MAX_KERNELS)
        return NULL;
    kernel_stats *k = &kernels[n_kernels++];
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

static void note_module(kernel_stats *k, void *mod)
{
    for (int i = 0; i < k->n_modules; i++)
        if (k->modules[i] == mod)
            return;
    if (k->n_modules < 16)
        k->modules[k->n_modules++] = mod;
}

static void note_crc(kernel_stats *k, uint64_t crc)
{
    for (int i = 0; i < k->n_crcs; i++)
        if (k->crcs[i] == crc)
            return;
    if (k->n_crcs < 16)
        k->crcs[k->n_crcs++] = crc;
}

static void on_module_loaded(const CUpti_ResourceData *r)
{
    const CUpti_ModuleResourceData *m = r->resourceDescriptor;
    if (!m || !m->pCubin)
        return;
    CUpti_GetCubinCrcParams p = {.size = CUpti_GetCubinCrcParamsSize};
    p.cubin = m->pCubin;
    p.cubinSize = m->cubinSize;
    const double t0 = now();
    const CUptiResult rc = cuptiGetCubinCrc(&p);
    const double dt = now() - t0;
    pthread_mutex_lock(&lock);
    crc_seconds += dt;
    module_loads++;
    if (!current_call)
        loads_outside_calls++;
    logf_limited("MODULE id=%u size=%zu crc=%016llx rc=%d crc_us=%.1f in=%s ctx=%p\n",
                 m->moduleId, m->cubinSize, (unsigned long long)p.cubinCrc, (int)rc, dt * 1e6,
                 call_name(current_call), (void *)r->context);
    pthread_mutex_unlock(&lock);
    if (n_loaded_in_call < MAX_PER_CALL)
        loaded_in_call[n_loaded_in_call++] = p.cubinCrc;
}

static int is_module_load(CUpti_CallbackId c)
{
    return c == CUPTI_DRIVER_TRACE_CBID_cuModuleLoad ||
           c == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData ||
           c == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx ||
           c == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary;
}

static int is_library_load(CUpti_CallbackId c)
{
    return c == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData ||
           c == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile;
}

/* The handle a load call returned, from its parameters. */
static void *returned_handle(CUpti_CallbackId c, const void *params)
{
    switch (c) {
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoad: return *((const cuModuleLoad_params *)params)->module;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
        return *((const cuModuleLoadData_params *)params)->module;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
        return *((const cuModuleLoadDataEx_params *)params)->module;
    case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary:
        return *((const cuModuleLoadFatBinary_params *)params)->module;
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData:
        return *((const cuLibraryLoadData_params *)params)->library;
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile:
        return *((const cuLibraryLoadFromFile_params *)params)->library;
    default: return NULL;
    }
}

static CUfunction launched_function(CUpti_CallbackId c, const void *params)
{
    switch (c) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: return ((const cuLaunchKernel_params *)params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        return ((const cuLaunchKernel_ptsz_params *)params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        return ((const cuLaunchKernelEx_params *)params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        return ((const cuLaunchKernelEx_ptsz_params *)params)->f;
    default: return NULL;
    }
}

static void on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    CUfunction f = launched_function(cbid, d->functionParams);
    if (!f)
        return;
    CUmodule mod = NULL;
    const CUresult mrc = cuFuncGetModule(&mod, f);
    uint64_t crc = 0;
    pthread_mutex_lock(&lock);
    int known = mrc == CUDA_SUCCESS && find_binding(mod, &crc);
    const int enter = d->callbackSite == CUPTI_API_ENTER;
    if (!known && !enter && n_loaded_in_call == 1 && mrc == CUDA_SUCCESS) {
        bind(mod, loaded_in_call[0], 0); /* loaded lazily inside this launch */
        known = find_binding(mod, &crc);
    }
    kernel_stats *k = stats_of(d->symbolName ? d->symbolName : "?");
    if (k) {
        if (enter) {
            k->launches++;
            k->unresolved_enter += !known;
            note_module(k, mod);
        } else {
            k->unresolved_exit += !known;
            if (known)
                note_crc(k, crc);
        }
        if (k->launches <= 3)
            logf_limited("LAUNCH %s %s f=%p mod=%p rc=%d crc=%s%016llx loaded_in_call=%d\n",
                         enter ? "enter" : "exit ", k->name, (void *)f, (void *)mod, (int)mrc,
                         known ? "" : "unknown:", (unsigned long long)crc, n_loaded_in_call);
    }
    pthread_mutex_unlock(&lock);
}

static void CUPTIAPI on_callback(void *u, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)u;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED)
            on_module_loaded(data);
        else if (cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
            const CUpti_ModuleResourceData *m = ((const CUpti_ResourceData *)data)->resourceDescriptor;
            pthread_mutex_lock(&lock);
            logf_limited("UNLOAD id=%u in=%s\n", m ? m->moduleId : 0, call_name(current_call));
            pthread_mutex_unlock(&lock);
        }
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
        return;
    const CUpti_CallbackData *d = data;
    if (d->callbackSite == CUPTI_API_ENTER) {
        if (!current_call) {
            current_call = cbid;
            n_loaded_in_call = 0;
        }
        on_launch(cbid, d);
        return;
    }
    on_launch(cbid, d);
    if ((is_module_load(cbid) || is_library_load(cbid)) &&
        (!d->functionReturnValue || *(const CUresult *)d->functionReturnValue == CUDA_SUCCESS)) {
        void *h = returned_handle(cbid, d->functionParams);
        pthread_mutex_lock(&lock);
        logf_limited("LOADCALL %s handle=%p crcs_in_call=%d first=%016llx\n", call_name(cbid), h,
                     n_loaded_in_call, (unsigned long long)(n_loaded_in_call ? loaded_in_call[0] : 0));
        if (n_loaded_in_call == 1)
            bind(h, loaded_in_call[0], is_library_load(cbid));
        pthread_mutex_unlock(&lock);
    }
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule) {
        const cuLibraryGetModule_params *p = d->functionParams;
        uint64_t crc = 0;
        pthread_mutex_lock(&lock);
        if (find_binding(p->library, &crc))
            bind(*p->pMod, crc, 0);
        logf_limited("LIBGETMODULE lib=%p mod=%p\n", (void *)p->library, (void *)*p->pMod);
        pthread_mutex_unlock(&lock);
    }
    if (current_call == cbid) {
        current_call = 0;
        n_loaded_in_call = 0;
    }
}

static void summary(void)
{
    pthread_mutex_lock(&lock);
    fprintf(out, "SUMMARY module_loads=%ld outside_driver_calls=%ld crc_ms=%.2f bindings=%d\n",
            module_loads, loads_outside_calls, crc_seconds * 1e3, n_bindings);
    long unresolved = 0, launches = 0;
    for (int i = 0; i < n_kernels; i++) {
        const kernel_stats *k = &kernels[i];
        launches += k->launches;
        unresolved += k->unresolved_exit;
        if (k->n_crcs > 1 || k->n_modules > 1 || k->unresolved_exit)
            fprintf(out, "KERNEL %s launches=%ld modules=%d crcs=%d unresolved_enter=%ld "
                    "unresolved_exit=%ld\n", k->name, k->launches, k->n_modules, k->n_crcs,
                    k->unresolved_enter, k->unresolved_exit);
    }
    fprintf(out, "TOTAL kernels=%d launches=%ld unresolved_at_exit=%ld\n", n_kernels, launches,
            unresolved);
    fflush(out);
    pthread_mutex_unlock(&lock);
}

int InitializeInjection(void)
{
    const char *path = getenv("CODE_PROBE_LOG");
    out = path ? fopen(path, "a") : NULL;
    if (!out)
        out = stderr;
    CUpti_SubscriberHandle s;
    if (cuptiSubscribe(&s, on_callback, NULL) != CUPTI_SUCCESS)
        return 0;
    cuptiEnableDomain(1, s, CUPTI_CB_DOMAIN_DRIVER_API);
    cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    cuptiEnableCallback(1, s, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
    atexit(summary);
    return 1;
}
