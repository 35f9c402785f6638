/* bench/nvtx_probe/nvtx_host.c: the NVTX half of nvtx_app.cu, with no CUDA at all, so that
 * the injection and the tool's NVTX model run on a machine without a GPU. Each probe point
 * is an NVTX mark "probe:tag=N" (nvtx_tool.c writes the range path there as it does at a
 * kernel launch) and prints the path it expects, in nvtx_tool.c's format:
 *   TRUTH tag=N tid=T expect=PATH
 * nvtx_host_lib.c, a shared library of its own, is a second NVTX instance (tags 50, 51).
 * Then it times NVTX calls: push/pop pairs, start/end pairs, a domain's push/pop with a
 * registered string and a category:
 *   COST bare_pair_ns=... startend_pair_ns=... domain_pair_ns=... iters=N
 * Usage: nvtx_host [ITERS]   (default 1000000) */
#define _GNU_SOURCE
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long tid(void)
{
    return syscall(SYS_gettid);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int n_points;

void nvtx_probe_second_instance(void); /* nvtx_host_lib.c */

static void where(int tag, const char *expect)
{
    char m[32];
    printf("TRUTH tag=%d tid=%ld expect=%s\n", tag, tid(), expect);
    snprintf(m, sizeof m, "probe:tag=%d", tag);
    nvtxMarkA(m);
    n_points++;
}

static void run_on_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, arg) != 0 || pthread_join(t, NULL) != 0) {
        fprintf(stderr, "nvtx_host: thread failed\n");
        exit(1);
    }
}

static void *worker_backward(void *arg)
{
    (void)arg;
    where(10, "-");
    nvtxRangePushA("worker-op");
    where(11, "pp=worker-op");
    nvtxRangePop();
    return NULL;
}

static void *worker_end_step(void *arg)
{
    nvtxRangeId_t *step = arg;
    where(21, "se=step");
    nvtxRangeEnd(*step);
    where(22, "-");
    return NULL;
}

static void *worker_end(void *arg)
{
    nvtxRangeEnd(*(nvtxRangeId_t *)arg);
    return NULL;
}

static void *worker_sees_phase_b(void *arg)
{
    (void)arg;
    where(25, "se=phase-b");
    return NULL;
}

static void *worker_sees_domain_se(void *arg)
{
    (void)arg;
    where(34, "probe:se=reg-inner");
    return NULL;
}

static nvtxEventAttributes_t attr_ascii(const char *m, uint32_t category)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = m;
    a.category = category;
    return a;
}

static nvtxEventAttributes_t attr_registered(nvtxStringHandle_t s, uint32_t category)
{
    nvtxEventAttributes_t a;
    memset(&a, 0, sizeof a);
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = s;
    a.category = category;
    return a;
}

int main(int argc, char **argv)
{
    const long iters = argc > 1 ? atol(argv[1]) : 1000000;

    nvtxNameCategoryA(3, "global-cat");
    nvtxRangePushA("app");

    /* 1. nested push/pop on the main thread, a category of the default domain */
    nvtxRangePushA("outer");
    where(1, "pp=app/outer");
    nvtxRangePushA("inner");
    where(2, "pp=app/outer/inner");
    nvtxEventAttributes_t a = attr_ascii("catmsg", 3);
    nvtxRangePushEx(&a);
    where(3, "pp=app/outer/inner/catmsg[global-cat]");
    nvtxRangePop();
    nvtxRangePop();
    where(4, "pp=app/outer");
    nvtxRangePop();
    where(5, "pp=app");

    /* 2. backward-like: a range pushed here, the work done on another thread */
    nvtxRangePushA("backward");
    run_on_thread(worker_backward, NULL);
    where(12, "pp=app/backward");
    nvtxRangePop();

    /* 3. start/end ranges that end on another thread */
    nvtxRangeId_t step = nvtxRangeStartA("step");
    where(20, "pp=app;se=step");
    run_on_thread(worker_end_step, &step);
    where(23, "pp=app");
    nvtxRangeId_t pa = nvtxRangeStartA("phase-a");
    nvtxRangeId_t pb = nvtxRangeStartA("phase-b");
    run_on_thread(worker_end, &pa);
    where(24, "pp=app;se=phase-b");
    run_on_thread(worker_sees_phase_b, NULL);
    nvtxRangeEnd(pb);

    /* 4. a domain, registered strings, its categories */
    nvtxDomainHandle_t dom = nvtxDomainCreateA("probe");
    nvtxStringHandle_t s_outer = nvtxDomainRegisterStringA(dom, "reg-outer");
    nvtxStringHandle_t s_inner = nvtxDomainRegisterStringA(dom, "reg-inner");
    nvtxDomainNameCategoryA(dom, 1, "cat-one");
    a = attr_registered(s_outer, 1);
    nvtxDomainRangePushEx(dom, &a);
    where(30, "pp=app;probe:pp=reg-outer[cat-one]");
    a = attr_ascii("dom-ascii", 2);
    nvtxDomainRangePushEx(dom, &a);
    where(31, "pp=app;probe:pp=reg-outer[cat-one]/dom-ascii[#2]");
    a = attr_ascii("x", 1); /* category 1 of the default domain: not the domain's "cat-one" */
    nvtxRangePushEx(&a);
    where(32, "pp=app/x[#1];probe:pp=reg-outer[cat-one]/dom-ascii[#2]");
    nvtxRangePop();
    a = attr_registered(s_inner, 0);
    nvtxRangeId_t d1 = nvtxDomainRangeStartEx(dom, &a);
    where(33, "pp=app;probe:pp=reg-outer[cat-one]/dom-ascii[#2];probe:se=reg-inner");
    run_on_thread(worker_sees_domain_se, NULL);
    nvtxDomainRangePop(dom);
    nvtxDomainRangePop(dom);
    nvtxDomainRangeEnd(dom, d1);
    where(35, "pp=app");

    /* 5. a second NVTX instance (nvtx_host_lib.c): its own first call, the same ranges */
    fflush(stdout); /* its TRUTH lines go through the same stdout, in order */
    nvtx_probe_second_instance();
    n_points += 2;

    /* 6. cost */
    double best[3] = {1e30, 1e30, 1e30};
    a = attr_registered(s_outer, 1);
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) {
            nvtxRangePushA("c");
            nvtxRangePop();
        }
        double t1 = now_ns();
        for (long i = 0; i < iters; i++)
            nvtxRangeEnd(nvtxRangeStartA("c"));
        double t2 = now_ns();
        for (long i = 0; i < iters; i++) {
            nvtxDomainRangePushEx(dom, &a);
            nvtxDomainRangePop(dom);
        }
        double t3 = now_ns();
        const double v[3] = {(t1 - t0) / iters, (t2 - t1) / iters, (t3 - t2) / iters};
        for (int k = 0; k < 3; k++)
            if (v[k] < best[k])
                best[k] = v[k];
    }
    printf("COST bare_pair_ns=%.1f startend_pair_ns=%.1f domain_pair_ns=%.1f iters=%ld\n",
           best[0], best[1], best[2], iters);
    nvtxRangePop(); /* app */
    printf("APP done points=%d\n", n_points);
    return 0;
}
