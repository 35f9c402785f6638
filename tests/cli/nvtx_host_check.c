/* A program with NVTX ranges and no CUDA (tests/cli/test_nvtx_tool.py): it prints what each
 * NVTX call returned, one "name value" line each. Without a tool NVTX's push and pop return
 * NVTX_NO_PUSH_POP_TRACKING (-2); with NVTX_INJECTION64_PATH naming libgpuprof-inject.so,
 * its handlers (src/inject/nvtx.c) return the 0-based levels, and a domain is created. */
#include <nvtx3/nvToolsExt.h>

#include <stdio.h>

int main(void)
{
    printf("push_a %d\n", nvtxRangePushA("outer"));
    printf("push_w %d\n", nvtxRangePushW(L"inner"));
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "attributed";
    printf("push_ex %d\n", nvtxRangePushEx(&a));
    printf("pop %d\n", nvtxRangePop());
    printf("pop %d\n", nvtxRangePop());
    printf("pop %d\n", nvtxRangePop());
    nvtxDomainHandle_t d = nvtxDomainCreateA("check");
    printf("domain %s\n", d ? "created" : "none");
    nvtxStringHandle_t s = nvtxDomainRegisterStringA(d, "registered");
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = s;
    printf("domain_push %d\n", nvtxDomainRangePushEx(d, &a));
    printf("domain_pop %d\n", nvtxDomainRangePop(d));
    /* past the model's 32 domains: the range is left out, not counted in the default's */
    nvtxDomainHandle_t last = d;
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "many%d", i);
        last = nvtxDomainCreateA(name);
    }
    printf("overflow_push %d\n", nvtxDomainRangePushEx(last, &a));
    nvtxRangeId_t id = nvtxRangeStartA("phase");
    printf("start %s\n", id ? "an id" : "0");
    nvtxRangeEnd(id);
    return 0;
}
