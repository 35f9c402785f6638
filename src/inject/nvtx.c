/* NVTX's tool (issue 48): with `gpuprof exec --nvtx`, NVTX_INJECTION64_PATH names this
 * library, and each NVTX instance of the program (each library that includes NVTX's
 * headers) calls InitializeInjectionNvtx2 at its first NVTX call, which fills the instance's
 * tables with the handlers below. They feed the range model (nvtx_ranges.h); the launch
 * callbacks ask it for each launch's range path (launch_ranges.h).
 *
 * Why NVTX's own injection and not CUPTI's NVTX callbacks (bench/README.md, "NVTX ranges: the
 * probe", H200): through the handlers every range of the probe's programs was right at
 * 10-16 ns a push/pop pair; through libcupti as NVTX's tool the ranges and category names
 * given before CUDA's initialisation were lost (6 of 22 launches right) at 175 ns a pair.
 * Marks, payloads, colours and the NVTX extensions (counters, memory) are not used: their
 * table entries stay empty, which NVTX makes no-ops. */
#include "inject/nvtx_ranges.h"

#include <nvtx3/nvToolsExt.h>

#include <stdint.h>

#define EXPORTED __attribute__((visibility("default")))

/* A domain's handle is its model index + 1 (never NULL, which NVTX gives for none);
 * OVERFLOW_DOMAIN a domain past the model's, whose ranges are left out. */
#define OVERFLOW_DOMAIN ((nvtxDomainHandle_t)UINTPTR_MAX)
static int domain_index(nvtxDomainHandle_t d)
{
    if (!d)
        return 0;
    return d == OVERFLOW_DOMAIN ? -1 : (int)((uintptr_t)d - 1);
}

static gp_range_label label_of(const nvtxEventAttributes_t *a)
{
    gp_range_label l = {0};
    if (!a)
        return l;
    l.category = a->category;
    if (a->messageType == NVTX_MESSAGE_TYPE_ASCII)
        l.text = a->message.ascii;
    else if (a->messageType == NVTX_MESSAGE_TYPE_UNICODE)
        l.wide = a->message.unicode;
    else if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED)
        l.registered = a->message.registered;
    return l;
}

/* ---- domains ---------------------------------------------------------------------------- */

static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
    const int d = gp_ranges_domain(name);
    return d < 0 ? OVERFLOW_DOMAIN : (nvtxDomainHandle_t)(uintptr_t)(d + 1);
}
static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
    char ascii[64];
    return domain_create_a(gp_ranges_ascii(name, ascii, sizeof ascii));
}
static void NVTX_API domain_destroy(nvtxDomainHandle_t d)
{
    (void)d; /* its ranges' labels stay resolvable */
}
static int NVTX_API domain_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    const gp_range_label l = label_of(a);
    return gp_ranges_push(domain_index(d), &l);
}
static int NVTX_API domain_pop(nvtxDomainHandle_t d)
{
    return gp_ranges_pop(domain_index(d));
}
static nvtxRangeId_t NVTX_API domain_start_ex(nvtxDomainHandle_t d,
                                              const nvtxEventAttributes_t *a)
{
    const gp_range_label l = label_of(a);
    return gp_ranges_start(domain_index(d), &l);
}
static void NVTX_API domain_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    (void)d; /* ids are the process's */
    gp_ranges_end(id);
}
static nvtxStringHandle_t NVTX_API register_string_a(nvtxDomainHandle_t d, const char *s)
{
    return (nvtxStringHandle_t)gp_ranges_register_string(domain_index(d), s);
}
static nvtxStringHandle_t NVTX_API register_string_w(nvtxDomainHandle_t d, const wchar_t *s)
{
    char ascii[GP_RANGE_LABEL_MAX + 1];
    return register_string_a(d, gp_ranges_ascii(s, ascii, sizeof ascii));
}
static void NVTX_API domain_name_category_a(nvtxDomainHandle_t d, uint32_t c, const char *n)
{
    gp_ranges_name_category(domain_index(d), c, n);
}
static void NVTX_API domain_name_category_w(nvtxDomainHandle_t d, uint32_t c,
                                            const wchar_t *n)
{
    char ascii[GP_RANGE_LABEL_MAX + 1];
    gp_ranges_name_category(domain_index(d), c, gp_ranges_ascii(n, ascii, sizeof ascii));
}
static void NVTX_API initialize(const void *reserved)
{
    (void)reserved;
}

/* ---- the default domain: its calls are the domains' with none (domain_index(NULL) = 0) ---- */

/* A call's ASCII and wide forms: the message as a label of the default domain. */
#define TEXT_FORMS(type, name, model_call)                                                     \
    static type NVTX_API name##_a(const char *m)                                             \
    {                                                                                         \
        return model_call(0, &(gp_range_label){.text = m});                                   \
    }                                                                                         \
    static type NVTX_API name##_w(const wchar_t *m)                                          \
    {                                                                                         \
        return model_call(0, &(gp_range_label){.wide = m});                                   \
    }
TEXT_FORMS(int, push, gp_ranges_push)
TEXT_FORMS(nvtxRangeId_t, start, gp_ranges_start)

static int NVTX_API push_ex(const nvtxEventAttributes_t *a)
{
    return domain_push_ex(NULL, a);
}
static int NVTX_API pop(void)
{
    return gp_ranges_pop(0);
}
static nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t *a)
{
    return domain_start_ex(NULL, a);
}
static void NVTX_API end(nvtxRangeId_t id)
{
    gp_ranges_end(id);
}
static void NVTX_API name_category_a(uint32_t c, const char *n)
{
    domain_name_category_a(NULL, c, n);
}
static void NVTX_API name_category_w(uint32_t c, const wchar_t *n)
{
    domain_name_category_w(NULL, c, n);
}

/* ---- the tables ------------------------------------------------------------------------- */

/* Each handler and where it goes: its module's table, its slot there. */
typedef struct {
    NvtxCallbackModule module;
    unsigned id;
    NvtxFunctionPointer handler;
} entry;

#define CORE(id, f) {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_##id, (NvtxFunctionPointer)(f)}
#define CORE2(id, f) {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_##id, (NvtxFunctionPointer)(f)}
static const entry entries[] = {
    CORE(RangeStartEx, start_ex), CORE(RangeStartA, start_a), CORE(RangeStartW, start_w),
    CORE(RangeEnd, end), CORE(RangePushEx, push_ex), CORE(RangePushA, push_a),
    CORE(RangePushW, push_w), CORE(RangePop, pop), CORE(NameCategoryA, name_category_a),
    CORE(NameCategoryW, name_category_w),
    CORE2(DomainRangeStartEx, domain_start_ex), CORE2(DomainRangeEnd, domain_end),
    CORE2(DomainRangePushEx, domain_push_ex), CORE2(DomainRangePop, domain_pop),
    CORE2(DomainNameCategoryA, domain_name_category_a),
    CORE2(DomainNameCategoryW, domain_name_category_w),
    CORE2(DomainRegisterStringA, register_string_a),
    CORE2(DomainRegisterStringW, register_string_w), CORE2(DomainCreateA, domain_create_a),
    CORE2(DomainCreateW, domain_create_w), CORE2(DomainDestroy, domain_destroy),
    CORE2(Initialize, initialize),
};
#undef CORE
#undef CORE2

/* A module's table filled with its entries; 0 when NVTX has no such table. */
static int fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module)
{
    NvtxFunctionTable table = NULL;
    unsigned size = 0;
    if (!cb->GetModuleFunctionTable(module, &table, &size) || !table)
        return 0;
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
        if (entries[i].module == module && entries[i].id < size && table[entries[i].id])
            *table[entries[i].id] = entries[i].handler;
    return 1;
}

/* NVTX's entry point: 1 when the instance's tables are ours, 0 to leave NVTX off in it. */
EXPORTED int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    const NvtxExportTableCallbacks *cb =
        get_export_table ? get_export_table(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return 0;
    return fill(cb, NVTX_CB_MODULE_CORE) && fill(cb, NVTX_CB_MODULE_CORE2);
}
