/* bench/nvtx_probe/nvtx_host_lib.c: a second NVTX instance for nvtx_host.c. Every shared
 * library compiled with the nvtx3 headers has NVTX's state of its own, and the NVTX loader
 * initialises each one at its first call (a process may hold several, its libraries' own):
 * the tool is asked once per instance, and the ranges of both must make one path. */
#define _GNU_SOURCE
#include <nvtx3/nvToolsExt.h>

#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Called by nvtx_host with the main program's "app" range open and no domain range. */
void nvtx_probe_second_instance(void)
{
    nvtxRangePushA("lib-range");
    printf("TRUTH tag=50 tid=%ld expect=pp=app/lib-range\n", (long)syscall(SYS_gettid));
    nvtxMarkA("probe:tag=50");
    nvtxDomainHandle_t dom = nvtxDomainCreateA("probe"); /* the name nvtx_host created */
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "lib-dom";
    nvtxDomainRangePushEx(dom, &a);
    printf("TRUTH tag=51 tid=%ld expect=pp=app/lib-range;probe:pp=lib-dom\n",
           (long)syscall(SYS_gettid));
    nvtxMarkA("probe:tag=51");
    nvtxDomainRangePop(dom);
    nvtxRangePop();
}
