/* bench/nvtx_probe/nvtx_tool.c: a probe library for issue 48 (NVTX ranges in gpuprof exec).
 * Not part of gpuprof: it keeps none of src/inject/'s rules (it writes a log of its own and
 * prints nothing to the program's streams, but that is all).
 *
 * One shared library, two entry points, so that one file can be named by both variables:
 *   - InitializeInjectionNvtx2: the NVTX v3 loader calls it (NVTX_INJECTION64_PATH) at the
 *     first NVTX call of each NVTX instance (every library compiled with the nvtx3 headers
 *     is an instance of its own). The tool fills the instance's function tables with its own
 *     handlers ("own" mode), or, with NVTX_PROBE_FORWARD=1, hands the instance on to the
 *     InitializeInjectionNvtx2 of the libcupti it is linked to, subscribes to CUPTI at once
 *     and takes NVTX from CUPTI's NVTX callbacks ("fwd" mode).
 *   - InitializeInjection: the CUDA driver calls it (CUDA_INJECTION64_PATH). It subscribes
 *     to CUPTI (if fwd mode did not already): kernel and graph launches, graph nodes created
 *     and cloned, stream capture, CUPTI_CB_DOMAIN_NVTX, and activity records of kernels and
 *     markers. With NVTX_INJECTION64_PATH naming libcupti itself ("cupti" mode), CUPTI is
 *     the NVTX tool and this library sees NVTX only through CUPTI_CB_DOMAIN_NVTX.
 *
 * Whatever the source, NVTX events feed one model: a push/pop stack per thread and per
 * domain, the open start/end ranges per domain (process-wide), domains, registered strings
 * and categories by domain. At each kernel launch's API entry the tool writes the launch's
 * range path (the format below); at each graph launch the path of the launching thread; at
 * each graph node created inside a captured launch the capture-time path, carried to the
 * executable graph's node by CUPTI's node-cloned callback and joined to the kernel activity
 * record's graphNodeId.
 *
 * A range path, as the probe's programs print their ground truth: fields joined by ';',
 * empty ones left out, "-" when all are empty:
 *   pp=a/b/c        the default domain's push/pop ranges of the launching thread, outermost
 *                   first;
 *   se=x,y          the default domain's open start/end ranges (any thread), in start order;
 *   D:pp=..., D:se=... the same for domain D, domains in creation order.
 * A range's label is its message (a registered string resolved) and, when it has a
 * category, "[name]" (the category's name in its domain) or "[#id]" (unnamed).
 *
 * Environment: NVTX_PROBE_LOG (the log's path; stderr if unset), NVTX_PROBE_FORWARD=1,
 * NVTX_PROBE_TRACE=1 (every NVTX event in the log), NVTX_PROBE_ALL_LAUNCHES=1 (a line for
 * every launch, not only the probe kernel's tagged ones), NVTX_PROBE_QUIET=1 (no line per
 * launch at all: for timing), NVTX_PROBE_SUBSCRIBE_AT_LOAD=1 (subscribe to CUPTI when the
 * library is loaded: a host-only program preloads it to see CUPTI's NVTX callbacks without
 * CUDA). The log's lines are described in bench/nvtx_probe/nvtx_check.py. */
#define _GNU_SOURCE
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define EXPORTED __attribute__((visibility("default")))

#define MAX_DOMAINS 32
#define MAX_DEPTH 128
#define LABEL 160
#define PATH_CAP 4096
#define MAX_STRINGS 8192   /* a power of two: open addressing */
#define MAX_CATEGORIES 1024
#define MAX_OPEN 1024
#define MAX_NODES 16384
#define GRAPH_LAUNCHES 4096 /* a ring by correlation id */
#define CORR_FLAGS (1u << 22)

enum { MODE_NONE, MODE_OWN, MODE_FWD };

/* ---- the log ----------------------------------------------------------------------------- */

static FILE *logf_;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static bool trace, all_launches, quiet;

static void finish(void);

static void open_log(void)
{
    const char *path = getenv("NVTX_PROBE_LOG");
    logf_ = path && *path ? fopen(path, "w") : NULL;
    if (!logf_)
        logf_ = stderr;
    else
        setvbuf(logf_, NULL, _IOFBF, 1 << 20);
    trace = getenv("NVTX_PROBE_TRACE") && atoi(getenv("NVTX_PROBE_TRACE"));
    all_launches = getenv("NVTX_PROBE_ALL_LAUNCHES") && atoi(getenv("NVTX_PROBE_ALL_LAUNCHES"));
    quiet = getenv("NVTX_PROBE_QUIET") && atoi(getenv("NVTX_PROBE_QUIET"));
    atexit(finish);
}

static FILE *lg(void)
{
    pthread_once(&log_once, open_log);
    return logf_;
}

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* ---- counters -------------------------------------------------------------------------------- */

/* The NVTX hot path counts per thread (thread_t); the rest are atomics. */
static atomic_int mode;
static atomic_long n_nvtx_inits, n_cuda_inits, n_cupti_nvtx, n_cupti_nvtx_ignored;
static atomic_long n_bad_pop, n_start, n_end, n_bad_end, n_start_no_id;
static atomic_long n_mark, n_truncated, n_deep, n_launch, n_launch_in_range, n_launch_captured;
static atomic_long n_graph_launch, n_node_created, n_node_in_launch, n_node_cloned;
static atomic_long n_node_clone_unknown, n_act_kernel, n_act_graph_kernel, n_act_graph_found;
static atomic_long n_act_graph_corr_found, n_marker_start, n_marker_end, n_marker_inst;
static atomic_long n_marker_data, n_marker_printed, n_dropped;
static atomic_long ns_kernel, ns_kernel_in_range, ns_graph_kernel, ns_graph_by_capture;
static atomic_long ns_graph_by_launch;

/* ---- domains, strings, categories --------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* all below but the threads' own */

typedef struct {
    const void *handle; /* the NVTX domain handle: ours (own) or CUPTI's (cupti, fwd) */
    char name[64];
} domain_t;
static domain_t domains[MAX_DOMAINS] = {{NULL, ""}}; /* 0: the default domain */
static atomic_int n_domains = 1;

static const char *domain_name(int d)
{
    return d ? domains[d].name : "-";
}

static int domain_index(const void *handle)
{
    if (!handle)
        return 0;
    const int n = atomic_load(&n_domains);
    for (int i = 1; i < n; i++)
        if (domains[i].handle == handle)
            return i;
    /* Unknown: CUPTI gave no return value for its creation. Named by its handle. */
    pthread_mutex_lock(&lock);
    int i = atomic_load(&n_domains);
    for (int j = 1; j < i; j++)
        if (domains[j].handle == handle) {
            pthread_mutex_unlock(&lock);
            return j;
        }
    if (i < MAX_DOMAINS) {
        domains[i].handle = handle;
        snprintf(domains[i].name, sizeof domains[i].name, "dom@%p", handle);
        atomic_store(&n_domains, i + 1);
        fprintf(lg(), "DOMAIN index=%d name=%s handle=%p unknown=1\n", i, domains[i].name, handle);
    } else
        i = 0;
    pthread_mutex_unlock(&lock);
    return i;
}

/* A domain created. By name in own mode, so that two NVTX instances creating "X" share it
 * (both get the same handle). */
static int domain_created(const void *handle, const char *name)
{
    if (!name)
        name = "";
    pthread_mutex_lock(&lock);
    const int n = atomic_load(&n_domains);
    int found = -1;
    for (int i = 1; i < n && found < 0; i++)
        if (handle ? domains[i].handle == handle : strcmp(domains[i].name, name) == 0)
            found = i;
    if (found < 0 && n < MAX_DOMAINS) {
        found = n;
        domains[n].handle = handle ? handle : (const void *)&domains[n];
        snprintf(domains[n].name, sizeof domains[n].name, "%s", name);
        atomic_store(&n_domains, n + 1);
    }
    pthread_mutex_unlock(&lock);
    if (found > 0)
        fprintf(lg(), "DOMAIN index=%d name=%s handle=%p\n", found, domains[found].name,
                domains[found].handle);
    return found < 0 ? 0 : found;
}

typedef struct {
    const void *handle;
    int domain;
    char *text;
} string_t;
static string_t strings[MAX_STRINGS];

static size_t slot_of(const void *h)
{
    uintptr_t x = (uintptr_t)h;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (MAX_STRINGS - 1);
}

static void string_registered(const void *handle, int domain, const char *text)
{
    if (!handle)
        return;
    pthread_mutex_lock(&lock);
    for (size_t k = 0, s = slot_of(handle); k < MAX_STRINGS; k++, s = (s + 1) & (MAX_STRINGS - 1))
        if (!strings[s].handle || strings[s].handle == handle) {
            if (!strings[s].handle) {
                strings[s].handle = handle;
                strings[s].domain = domain;
                strings[s].text = strdup(text ? text : "");
            }
            break;
        }
    pthread_mutex_unlock(&lock);
    fprintf(lg(), "STRING domain=%s handle=%p text=%s\n", domain_name(domain), handle,
            text ? text : "");
}

/* With `lock` held. */
static const char *string_of_locked(const void *handle)
{
    for (size_t k = 0, s = slot_of(handle); k < MAX_STRINGS && strings[s].handle;
         k++, s = (s + 1) & (MAX_STRINGS - 1))
        if (strings[s].handle == handle)
            return strings[s].text;
    return NULL;
}

typedef struct {
    int domain;
    uint32_t id;
    char name[64];
} category_t;
static category_t categories[MAX_CATEGORIES];
static int n_categories;

static void category_named(int domain, uint32_t id, const char *name)
{
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < n_categories && !(categories[i].domain == domain && categories[i].id == id))
        i++;
    if (i < MAX_CATEGORIES) {
        categories[i].domain = domain;
        categories[i].id = id;
        snprintf(categories[i].name, sizeof categories[i].name, "%s", name ? name : "");
        if (i == n_categories)
            n_categories++;
    }
    pthread_mutex_unlock(&lock);
    fprintf(lg(), "CATEGORY domain=%s id=%u name=%s\n", domain ? domains[domain].name : "(default)",
            id, name ? name : "");
}

/* With `lock` held. */
static const char *category_of_locked(int domain, uint32_t id)
{
    for (int i = 0; i < n_categories; i++)
        if (categories[i].domain == domain && categories[i].id == id)
            return categories[i].name;
    return NULL;
}

/* ---- labels: what a push or start keeps, resolved when a path is built -------------------- */

typedef struct {
    const void *reg;   /* a registered string's handle (text unused), or NULL */
    uint32_t category; /* 0: none */
    char text[LABEL];  /* the message, copied: the caller's may not outlive the call */
} label_t;

static void set_text(label_t *l, const char *m)
{
    l->reg = NULL;
    l->category = 0;
    const size_t n = m ? strlen(m) : 0;
    if (n >= LABEL) {
        atomic_fetch_add(&n_truncated, 1);
        memcpy(l->text, m, LABEL - 1);
        l->text[LABEL - 1] = 0;
    } else {
        memcpy(l->text, m ? m : "", n);
        l->text[n] = 0;
    }
}

static void set_wide(label_t *l, const wchar_t *w)
{
    l->reg = NULL;
    l->category = 0;
    size_t i = 0;
    for (; w && w[i] && i + 1 < LABEL; i++)
        l->text[i] = w[i] < 128 ? (char)w[i] : '?';
    l->text[i] = 0;
}

static void set_attr(label_t *l, const nvtxEventAttributes_t *a)
{
    if (!a) {
        set_text(l, "?");
        return;
    }
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: set_text(l, a->message.ascii); break;
    case NVTX_MESSAGE_TYPE_UNICODE: set_wide(l, a->message.unicode); break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        l->reg = a->message.registered;
        l->text[0] = 0;
        break;
    default: set_text(l, ""); break;
    }
    l->category = a->category;
}

/* The label as a path writes it; with `lock` held. */
static void format_locked(int domain, const label_t *l, char *out, size_t cap)
{
    const char *text = l->text;
    char unknown[40];
    if (l->reg) {
        text = string_of_locked(l->reg);
        if (!text) {
            snprintf(unknown, sizeof unknown, "?str@%p", l->reg);
            text = unknown;
        }
    }
    if (!l->category) {
        snprintf(out, cap, "%s", text);
        return;
    }
    const char *c = category_of_locked(domain, l->category);
    if (c)
        snprintf(out, cap, "%s[%s]", text, c);
    else
        snprintf(out, cap, "%s[#%u]", text, l->category);
}

static void format_label(int domain, const label_t *l, char *out, size_t cap)
{
    pthread_mutex_lock(&lock);
    format_locked(domain, l, out, cap);
    pthread_mutex_unlock(&lock);
}

/* ---- the model: per-thread stacks, open start/end ranges ----------------------------------- */

typedef struct {
    int depth;
    label_t label[MAX_DEPTH];
} stack_t_;

typedef struct thread_s {
    long tid;
    long pushes, pops, own_events; /* summed at exit */
    stack_t_ *stacks[MAX_DOMAINS];
    label_t deep;                  /* where a push deeper than MAX_DEPTH writes */
    /* The launch under way on this thread (API entry to exit): graph nodes created inside
     * it (stream capture) take its tag and path. */
    bool in_launch;
    int launch_tag;
    char launch_path[PATH_CAP];
    struct thread_s *next;
} thread_t;

static __attribute__((tls_model("initial-exec"))) _Thread_local thread_t *self;
static thread_t *threads; /* every thread's, never freed: the counters outlive the thread */
static long n_threads;

static thread_t *make_thread(void)
{
    thread_t *t = calloc(1, sizeof *t);
    if (!t)
        abort(); /* a probe */
    t->tid = syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    t->next = threads;
    threads = t;
    n_threads++;
    pthread_mutex_unlock(&lock);
    return self = t;
}

static inline thread_t *me(void)
{
    return self ? self : make_thread();
}

typedef struct {
    uint64_t id;
    int domain;
    label_t label;
} open_t;
static open_t open_ranges[MAX_OPEN];
static int n_open;
static atomic_ulong next_range_id = 1;

static void trace_label(const char *op, thread_t *t, int domain, long n, const label_t *l)
{
    char text[LABEL + 80];
    format_label(domain, l, text, sizeof text);
    fprintf(lg(), "EV op=%s tid=%ld domain=%s %s=%ld label=%s\n", op, t->tid,
            domain_name(domain), strcmp(op, "start") ? "depth" : "id", n, text);
}

/* The slot a push fills; its level in *level. */
static label_t *push_slot(thread_t *t, int domain, int *level)
{
    stack_t_ *s = t->stacks[domain];
    if (!s && !(s = t->stacks[domain] = calloc(1, sizeof *s)))
        abort();
    t->pushes++;
    *level = s->depth++;
    if (*level < MAX_DEPTH)
        return &s->label[*level];
    atomic_fetch_add(&n_deep, 1);
    return &t->deep;
}

static int push_text(int domain, const char *m)
{
    thread_t *t = me();
    int level;
    label_t *l = push_slot(t, domain, &level);
    set_text(l, m);
    if (trace)
        trace_label("push", t, domain, level, l);
    return level;
}

static int push_wide(int domain, const wchar_t *m)
{
    thread_t *t = me();
    int level;
    label_t *l = push_slot(t, domain, &level);
    set_wide(l, m);
    if (trace)
        trace_label("push", t, domain, level, l);
    return level;
}

static int push_attr(int domain, const nvtxEventAttributes_t *a)
{
    thread_t *t = me();
    int level;
    label_t *l = push_slot(t, domain, &level);
    set_attr(l, a);
    if (trace)
        trace_label("push", t, domain, level, l);
    return level;
}

static int pop(int domain)
{
    thread_t *t = me();
    stack_t_ *s = t->stacks[domain];
    t->pops++;
    if (!s || s->depth == 0) {
        atomic_fetch_add(&n_bad_pop, 1);
        if (trace)
            fprintf(lg(), "EV op=pop tid=%ld domain=%s depth=-1 unmatched=1\n", t->tid,
                    domain_name(domain));
        return -1;
    }
    const int level = --s->depth;
    if (trace)
        trace_label("pop", t, domain, level, level < MAX_DEPTH ? &s->label[level] : &t->deep);
    return level;
}

static void start(int domain, uint64_t id, const label_t *l)
{
    atomic_fetch_add(&n_start, 1);
    pthread_mutex_lock(&lock);
    if (n_open < MAX_OPEN) {
        open_ranges[n_open].id = id;
        open_ranges[n_open].domain = domain;
        open_ranges[n_open].label = *l;
        n_open++;
    }
    pthread_mutex_unlock(&lock);
    if (trace)
        trace_label("start", me(), domain, (long)id, l);
}

static void start_text(int domain, uint64_t id, const char *m)
{
    label_t l;
    set_text(&l, m);
    start(domain, id, &l);
}

static void start_attr(int domain, uint64_t id, const nvtxEventAttributes_t *a)
{
    label_t l;
    set_attr(&l, a);
    start(domain, id, &l);
}

static void end(int domain, uint64_t id)
{
    atomic_fetch_add(&n_end, 1);
    bool found = false;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n_open; i++)
        if (open_ranges[i].id == id) { /* ids are process-wide: the domain is not needed */
            memmove(&open_ranges[i], &open_ranges[i + 1],
                    (size_t)(n_open - i - 1) * sizeof *open_ranges);
            n_open--;
            found = true;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (!found)
        atomic_fetch_add(&n_bad_end, 1);
    if (trace)
        fprintf(lg(), "EV op=end tid=%ld domain=%s id=%llu found=%d\n", me()->tid,
                domain_name(domain), (unsigned long long)id, found);
}

/* ---- the range path of this thread, now --------------------------------------------------- */

static size_t put(char *buf, size_t at, const char *s)
{
    const size_t n = strlen(s);
    if (at + n + 1 >= PATH_CAP)
        return at;
    memcpy(buf + at, s, n + 1);
    return at + n;
}

static size_t field(char *buf, size_t at, int domain, const char *key)
{
    if (at)
        at = put(buf, at, ";");
    if (domain) {
        at = put(buf, at, domains[domain].name);
        at = put(buf, at, ":");
    }
    return put(buf, at, key);
}

static void build_path(char *buf)
{
    thread_t *t = me();
    char text[LABEL + 80];
    size_t at = 0;
    buf[0] = 0;
    const int nd = atomic_load(&n_domains);
    pthread_mutex_lock(&lock);
    for (int d = 0; d < nd; d++) {
        const stack_t_ *s = t->stacks[d];
        if (s && s->depth > 0) {
            at = field(buf, at, d, "pp=");
            for (int i = 0; i < s->depth; i++) {
                if (i)
                    at = put(buf, at, "/");
                if (i < MAX_DEPTH)
                    format_locked(d, &s->label[i], text, sizeof text);
                at = put(buf, at, i < MAX_DEPTH ? text : "(deep)");
            }
        }
        bool first = true;
        for (int i = 0; i < n_open; i++) {
            if (open_ranges[i].domain != d)
                continue;
            if (first)
                at = field(buf, at, d, "se=");
            else
                at = put(buf, at, ",");
            first = false;
            format_locked(d, &open_ranges[i].label, text, sizeof text);
            at = put(buf, at, text);
        }
    }
    pthread_mutex_unlock(&lock);
    if (!at)
        strcpy(buf, "-");
}

/* A mark whose message is "probe:tag=N" is a probe point: the host-only program's stand-in
 * for a kernel launch. */
static void mark(int domain, const label_t *l)
{
    atomic_fetch_add(&n_mark, 1);
    char text[LABEL + 80];
    format_label(domain, l, text, sizeof text);
    if (strncmp(text, "probe:tag=", 10) != 0)
        return;
    char path[PATH_CAP];
    build_path(path);
    fprintf(lg(), "LAUNCH tag=%d tid=%ld via=mark capture=0 corr=0 kernel=- path=%s\n",
            atoi(text + 10), me()->tid, path);
}

static void mark_text(int domain, const char *m)
{
    label_t l;
    set_text(&l, m);
    mark(domain, &l);
}

static void mark_attr(int domain, const nvtxEventAttributes_t *a)
{
    label_t l;
    set_attr(&l, a);
    mark(domain, &l);
}

/* ---- own mode: the NVTX handlers -------------------------------------------------------- */

#define OWN (me()->own_events++)

static void NVTX_API h_MarkEx(const nvtxEventAttributes_t *a)
{
    OWN;
    mark_attr(0, a);
}
static void NVTX_API h_MarkA(const char *m)
{
    OWN;
    mark_text(0, m);
}
static void NVTX_API h_MarkW(const wchar_t *m)
{
    OWN;
    label_t l;
    set_wide(&l, m);
    mark(0, &l);
}
static nvtxRangeId_t NVTX_API h_RangeStartEx(const nvtxEventAttributes_t *a)
{
    OWN;
    const nvtxRangeId_t id = atomic_fetch_add(&next_range_id, 1);
    start_attr(0, id, a);
    return id;
}
static nvtxRangeId_t NVTX_API h_RangeStartA(const char *m)
{
    OWN;
    const nvtxRangeId_t id = atomic_fetch_add(&next_range_id, 1);
    start_text(0, id, m);
    return id;
}
static nvtxRangeId_t NVTX_API h_RangeStartW(const wchar_t *m)
{
    OWN;
    label_t l;
    set_wide(&l, m);
    const nvtxRangeId_t id = atomic_fetch_add(&next_range_id, 1);
    start(0, id, &l);
    return id;
}
static void NVTX_API h_RangeEnd(nvtxRangeId_t id)
{
    OWN;
    end(0, id);
}
static int NVTX_API h_RangePushEx(const nvtxEventAttributes_t *a)
{
    OWN;
    return push_attr(0, a);
}
static int NVTX_API h_RangePushA(const char *m)
{
    OWN;
    return push_text(0, m);
}
static int NVTX_API h_RangePushW(const wchar_t *m)
{
    OWN;
    return push_wide(0, m);
}
static int NVTX_API h_RangePop(void)
{
    OWN;
    return pop(0);
}
static void NVTX_API h_NameCategoryA(uint32_t c, const char *n)
{
    OWN;
    category_named(0, c, n);
}
static void NVTX_API h_NameCategoryW(uint32_t c, const wchar_t *n)
{
    OWN;
    label_t l;
    set_wide(&l, n);
    category_named(0, c, l.text);
}
static void NVTX_API h_DomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    OWN;
    mark_attr(domain_index(d), a);
}
static nvtxRangeId_t NVTX_API h_DomainRangeStartEx(nvtxDomainHandle_t d,
                                                    const nvtxEventAttributes_t *a)
{
    OWN;
    const nvtxRangeId_t id = atomic_fetch_add(&next_range_id, 1);
    start_attr(domain_index(d), id, a);
    return id;
}
static void NVTX_API h_DomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    OWN;
    end(domain_index(d), id);
}
static int NVTX_API h_DomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    OWN;
    return push_attr(domain_index(d), a);
}
static int NVTX_API h_DomainRangePop(nvtxDomainHandle_t d)
{
    OWN;
    return pop(domain_index(d));
}
static void NVTX_API h_DomainNameCategoryA(nvtxDomainHandle_t d, uint32_t c, const char *n)
{
    OWN;
    category_named(domain_index(d), c, n);
}
static void NVTX_API h_DomainNameCategoryW(nvtxDomainHandle_t d, uint32_t c, const wchar_t *n)
{
    OWN;
    label_t l;
    set_wide(&l, n);
    category_named(domain_index(d), c, l.text);
}
/* The handle is this library's copy of the string: never freed (NVTX has no
 * unregistration). */
static nvtxStringHandle_t NVTX_API h_DomainRegisterStringA(nvtxDomainHandle_t d, const char *s)
{
    OWN;
    char *copy = strdup(s ? s : "");
    string_registered(copy, domain_index(d), copy);
    return (nvtxStringHandle_t)copy;
}
static nvtxStringHandle_t NVTX_API h_DomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t *s)
{
    OWN;
    label_t l;
    set_wide(&l, s);
    char *copy = strdup(l.text);
    string_registered(copy, domain_index(d), copy);
    return (nvtxStringHandle_t)copy;
}
static nvtxDomainHandle_t NVTX_API h_DomainCreateA(const char *name)
{
    OWN;
    return (nvtxDomainHandle_t)domains[domain_created(NULL, name)].handle;
}
static nvtxDomainHandle_t NVTX_API h_DomainCreateW(const wchar_t *name)
{
    OWN;
    label_t l;
    set_wide(&l, name);
    return (nvtxDomainHandle_t)domains[domain_created(NULL, l.text)].handle;
}
static void NVTX_API h_DomainDestroy(nvtxDomainHandle_t d)
{
    OWN;
    (void)d; /* kept: its ranges' labels stay resolvable */
}
static void NVTX_API h_Initialize(const void *reserved)
{
    (void)reserved;
}

static int install_own(NvtxGetExportTableFunc_t get)
{
    const NvtxExportTableCallbacks *cb = get(NVTX_ETID_CALLBACKS);
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable)
        return 0;
    NvtxFunctionTable t = NULL;
    unsigned n = 0;
#define SET(ID, F)                                                                          \
    do {                                                                                    \
        if ((unsigned)(ID) < n && t[ID])                                                    \
            *t[ID] = (NvtxFunctionPointer)(F);                                              \
    } while (0)
    if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) || !t)
        return 0;
    SET(NVTX_CBID_CORE_MarkEx, h_MarkEx);
    SET(NVTX_CBID_CORE_MarkA, h_MarkA);
    SET(NVTX_CBID_CORE_MarkW, h_MarkW);
    SET(NVTX_CBID_CORE_RangeStartEx, h_RangeStartEx);
    SET(NVTX_CBID_CORE_RangeStartA, h_RangeStartA);
    SET(NVTX_CBID_CORE_RangeStartW, h_RangeStartW);
    SET(NVTX_CBID_CORE_RangeEnd, h_RangeEnd);
    SET(NVTX_CBID_CORE_RangePushEx, h_RangePushEx);
    SET(NVTX_CBID_CORE_RangePushA, h_RangePushA);
    SET(NVTX_CBID_CORE_RangePushW, h_RangePushW);
    SET(NVTX_CBID_CORE_RangePop, h_RangePop);
    SET(NVTX_CBID_CORE_NameCategoryA, h_NameCategoryA);
    SET(NVTX_CBID_CORE_NameCategoryW, h_NameCategoryW);
    const unsigned n_core = n;
    t = NULL;
    n = 0;
    if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) || !t)
        return 0;
    SET(NVTX_CBID_CORE2_DomainMarkEx, h_DomainMarkEx);
    SET(NVTX_CBID_CORE2_DomainRangeStartEx, h_DomainRangeStartEx);
    SET(NVTX_CBID_CORE2_DomainRangeEnd, h_DomainRangeEnd);
    SET(NVTX_CBID_CORE2_DomainRangePushEx, h_DomainRangePushEx);
    SET(NVTX_CBID_CORE2_DomainRangePop, h_DomainRangePop);
    SET(NVTX_CBID_CORE2_DomainNameCategoryA, h_DomainNameCategoryA);
    SET(NVTX_CBID_CORE2_DomainNameCategoryW, h_DomainNameCategoryW);
    SET(NVTX_CBID_CORE2_DomainRegisterStringA, h_DomainRegisterStringA);
    SET(NVTX_CBID_CORE2_DomainRegisterStringW, h_DomainRegisterStringW);
    SET(NVTX_CBID_CORE2_DomainCreateA, h_DomainCreateA);
    SET(NVTX_CBID_CORE2_DomainCreateW, h_DomainCreateW);
    SET(NVTX_CBID_CORE2_DomainDestroy, h_DomainDestroy);
    SET(NVTX_CBID_CORE2_Initialize, h_Initialize);
#undef SET
    fprintf(lg(), "NVTX tables core=%u core2=%u\n", n_core, n);
    return 1;
}

/* ---- CUPTI --------------------------------------------------------------------------------- */

static CUpti_SubscriberHandle subscriber;
/* Around starting CUPTI; recursive, and a thread that re-enters (CUPTI starting the driver,
 * whose injection calls InitializeInjection inside) returns at once. */
static pthread_mutex_t cupti_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local bool starting_cupti;
static bool cupti_started;

static const char *cupti_text(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "?";
}

static const char *libcupti_path(void)
{
    Dl_info di;
    return dladdr((void *)cuptiSubscribe, &di) && di.dli_fname ? di.dli_fname : "?";
}

/* cuStreamIsCapturing, looked up once libcuda is loaded (the tool does not link it). */
typedef int (*is_capturing_fn)(CUstream, CUstreamCaptureStatus *);
static is_capturing_fn is_capturing;
static pthread_once_t capturing_once = PTHREAD_ONCE_INIT;
static void find_is_capturing(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h)
        is_capturing = (is_capturing_fn)dlsym(h, "cuStreamIsCapturing");
}

typedef struct {
    uint32_t corr;
    char path[PATH_CAP];
} graph_launch_t;
static graph_launch_t *graph_launches; /* GRAPH_LAUNCHES, by corr % GRAPH_LAUNCHES */

typedef struct {
    CUgraphNode handle;
    uint64_t id;
    int tag;
    char path[PATH_CAP];
} node_t;
static node_t *nodes;
static int n_nodes;

static unsigned char *corr_in_range; /* CORR_FLAGS: 1 out of any range, 2 in one */

static node_t *node_by_id(uint64_t id)
{
    for (int i = n_nodes - 1; i >= 0; i--)
        if (nodes[i].id == id)
            return &nodes[i];
    return NULL;
}

static node_t *node_by_handle(CUgraphNode h)
{
    for (int i = n_nodes - 1; i >= 0; i--)
        if (nodes[i].handle == h)
            return &nodes[i];
    return NULL;
}

static void add_node(CUgraphNode h, uint64_t id, int tag, const char *path)
{
    if (n_nodes >= MAX_NODES)
        return;
    nodes[n_nodes].handle = h;
    nodes[n_nodes].id = id;
    nodes[n_nodes].tag = tag;
    snprintf(nodes[n_nodes].path, PATH_CAP, "%s", path);
    n_nodes++;
}

#define LAUNCH_OF(T, STREAM)                                                                \
    do {                                                                                    \
        const T *p = d->functionParams;                                                     \
        args = p->kernelParams;                                                             \
        stream = (STREAM);                                                                  \
    } while (0)

static bool is_launch(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: return true;
    default: return false;
    }
}

static void on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    thread_t *t = me();
    if (d->callbackSite == CUPTI_API_EXIT) {
        t->in_launch = false;
        return;
    }
    void **args = NULL;
    CUstream stream = NULL;
    bool ptsz = false;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        LAUNCH_OF(cuLaunchKernel_params, p->hStream);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        LAUNCH_OF(cuLaunchKernel_ptsz_params, p->hStream);
        ptsz = true;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
        LAUNCH_OF(cuLaunchKernelEx_params, p->config ? p->config->hStream : NULL);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        LAUNCH_OF(cuLaunchKernelEx_ptsz_params, p->config ? p->config->hStream : NULL);
        ptsz = true;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        LAUNCH_OF(cuLaunchCooperativeKernel_params, p->hStream);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        LAUNCH_OF(cuLaunchCooperativeKernel_ptsz_params, p->hStream);
        ptsz = true;
        break;
    default: return;
    }
    int tag = -1;
    const char *name = d->symbolName ? d->symbolName : "?";
    if (strstr(name, "nvtx_probe_kernel") && args && args[0])
        tag = *(const int *)args[0];
    int capture = -1;
    pthread_once(&capturing_once, find_is_capturing);
    if (is_capturing) {
        CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
        CUstream s = stream ? stream : ptsz ? CU_STREAM_PER_THREAD : NULL;
        capture = is_capturing(s, &st) == 0 ? st != CU_STREAM_CAPTURE_STATUS_NONE : -1;
    }
    build_path(t->launch_path);
    t->in_launch = true;
    t->launch_tag = tag;
    const bool in_range = t->launch_path[0] != '-';
    atomic_fetch_add(&n_launch, 1);
    if (in_range)
        atomic_fetch_add(&n_launch_in_range, 1);
    if (capture == 1)
        atomic_fetch_add(&n_launch_captured, 1);
    if (corr_in_range)
        corr_in_range[d->correlationId & (CORR_FLAGS - 1)] = in_range ? 2 : 1;
    if (!quiet && (tag >= 0 || all_launches))
        fprintf(lg(), "LAUNCH tag=%d tid=%ld via=%s capture=%d corr=%u kernel=%.160s path=%s\n",
                tag, t->tid, d->functionName, capture, d->correlationId, name, t->launch_path);
}

static void on_graph_launch(const CUpti_CallbackData *d)
{
    if (d->callbackSite != CUPTI_API_ENTER)
        return;
    char path[PATH_CAP];
    build_path(path);
    atomic_fetch_add(&n_graph_launch, 1);
    pthread_mutex_lock(&lock);
    graph_launch_t *g = &graph_launches[d->correlationId % GRAPH_LAUNCHES];
    g->corr = d->correlationId;
    snprintf(g->path, PATH_CAP, "%s", path);
    pthread_mutex_unlock(&lock);
    if (corr_in_range)
        corr_in_range[d->correlationId & (CORR_FLAGS - 1)] = path[0] != '-' ? 2 : 1;
    if (!quiet)
        fprintf(lg(), "GRAPHLAUNCH corr=%u tid=%ld path=%s\n", d->correlationId, me()->tid, path);
}

static void on_capture(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    if (d->callbackSite != CUPTI_API_EXIT || quiet)
        return;
    char path[PATH_CAP];
    build_path(path);
    fprintf(lg(), "CAPTURE call=%s cbid=%u tid=%ld path=%s\n", d->functionName, (unsigned)cbid,
            me()->tid, path);
}

static void on_node(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    const CUpti_GraphData *g = r->resourceDescriptor;
    if (!g || !g->node)
        return;
    uint64_t id = 0;
    uint32_t gid = 0;
    cuptiGetGraphNodeId(g->node, &id);
    if (g->graph)
        cuptiGetGraphId(g->graph, &gid);
    thread_t *t = me();
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) {
        atomic_fetch_add(&n_node_created, 1);
        char path[PATH_CAP];
        int tag = -1;
        if (t->in_launch) {
            atomic_fetch_add(&n_node_in_launch, 1);
            tag = t->launch_tag;
            snprintf(path, sizeof path, "%s", t->launch_path);
        } else
            build_path(path);
        pthread_mutex_lock(&lock);
        add_node(g->node, id, tag, path);
        pthread_mutex_unlock(&lock);
        if (!quiet)
            fprintf(lg(), "NODE created id=%llu graph=%u type=%d tid=%ld in_launch=%d tag=%d "
                    "path=%s\n",
                    (unsigned long long)id, gid, (int)g->nodeType, t->tid, t->in_launch, tag, path);
    } else { /* cloned: at instantiation (or cudaGraphClone) */
        atomic_fetch_add(&n_node_cloned, 1);
        pthread_mutex_lock(&lock);
        node_t *o = node_by_handle(g->originalNode);
        int tag = -1;
        uint64_t oid = 0;
        char path[PATH_CAP] = "?";
        if (o) {
            tag = o->tag;
            oid = o->id;
            snprintf(path, sizeof path, "%s", o->path);
            add_node(g->node, id, tag, path);
        } else
            atomic_fetch_add(&n_node_clone_unknown, 1);
        pthread_mutex_unlock(&lock);
        if (!quiet)
            fprintf(lg(), "NODE cloned id=%llu graph=%u from=%llu known=%d tag=%d path=%s\n",
                    (unsigned long long)id, gid, (unsigned long long)oid, o != NULL, tag, path);
    }
}

/* CUPTI's NVTX callbacks: the same events as own mode's handlers. Their params are
 * generated_nvtx_meta.h's; DomainNameCategoryA has no struct there: its layout is taken to
 * be the call's arguments in order (domain, category, name), as every other struct is
 * (and {domain, {category, name}} would lay out the same). */
typedef struct {
    nvtxDomainHandle_t domain;
    uint32_t category;
    const char *name;
} domain_name_category_params;

static uint64_t returned_id(const CUpti_NvtxData *d)
{
    if (!d->functionReturnValue) {
        atomic_fetch_add(&n_start_no_id, 1);
        return 0;
    }
    return *(const nvtxRangeId_t *)d->functionReturnValue;
}

static void on_cupti_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    atomic_fetch_add(&n_cupti_nvtx, 1);
    if (atomic_load(&mode) == MODE_OWN) {
        atomic_fetch_add(&n_cupti_nvtx_ignored, 1);
        return;
    }
    const void *p = d->functionParams;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxMarkA: mark_text(0, ((const nvtxMarkA_params *)p)->message); break;
    case CUPTI_CBID_NVTX_nvtxMarkEx:
        mark_attr(0, ((const nvtxMarkEx_params *)p)->eventAttrib);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushA:
        push_text(0, ((const nvtxRangePushA_params *)p)->message);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushW:
        push_wide(0, ((const nvtxRangePushW_params *)p)->message);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        push_attr(0, ((const nvtxRangePushEx_params *)p)->eventAttrib);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePop: pop(0); break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
        start_text(0, returned_id(d), ((const nvtxRangeStartA_params *)p)->message);
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartW: {
        label_t l;
        set_wide(&l, ((const nvtxRangeStartW_params *)p)->message);
        start(0, returned_id(d), &l);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
        start_attr(0, returned_id(d), ((const nvtxRangeStartEx_params *)p)->eventAttrib);
        break;
    case CUPTI_CBID_NVTX_nvtxRangeEnd: end(0, ((const nvtxRangeEnd_params *)p)->id); break;
    case CUPTI_CBID_NVTX_nvtxNameCategoryA: {
        const nvtxNameCategoryA_params *q = p;
        category_named(0, q->category, q->name);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
        const nvtxDomainCreateA_params *q = p;
        const void *h = d->functionReturnValue ? *(const nvtxDomainHandle_t *)d->functionReturnValue
                                               : NULL;
        if (!h)
            fprintf(lg(), "NOTE cupti gave no domain handle for %s\n", q->name ? q->name : "");
        else
            domain_created(h, q->name);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainMarkEx: {
        const nvtxDomainMarkEx_params *q = p;
        mark_attr(domain_index(q->domain), q->core.eventAttrib);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
        const nvtxDomainRangePushEx_params *q = p;
        push_attr(domain_index(q->domain), q->core.eventAttrib);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        pop(domain_index(((const nvtxDomainRangePop_params *)p)->domain));
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
        const nvtxDomainRangeStartEx_params *q = p;
        start_attr(domain_index(q->domain), returned_id(d), q->core.eventAttrib);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd: {
        const nvtxDomainRangeEnd_params *q = p;
        end(domain_index(q->domain), q->core.id);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainNameCategoryA: {
        const domain_name_category_params *q = p;
        category_named(domain_index(q->domain), q->category, q->name);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
        const nvtxDomainRegisterStringA_params *q = p;
        const void *h = d->functionReturnValue ? *(const nvtxStringHandle_t *)d->functionReturnValue
                                               : NULL;
        if (!h)
            fprintf(lg(), "NOTE cupti gave no string handle for %s\n", q->string ? q->string : "");
        string_registered(h, domain_index(q->domain), q->string);
        break;
    }
    default:
        if (trace)
            fprintf(lg(), "EV op=other cbid=%u name=%s\n", (unsigned)cbid,
                    d->functionName ? d->functionName : "?");
        break;
    }
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain,
                                 CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        on_cupti_nvtx(cbid, data);
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        const CUpti_CallbackData *d = data;
        if (is_launch(cbid))
            on_launch(cbid, d);
        else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
                 cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
            on_graph_launch(d);
        else
            on_capture(cbid, d);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        const CUpti_ResourceData *r = data;
        if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED ||
            cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED)
            on_node(cbid, r);
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
            fprintf(lg(), "CONTEXT created tid=%ld\n", me()->tid);
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
            /* while its records can still be read */
            const CUptiResult f = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            fprintf(lg(), "CONTEXT destroy_starting tid=%ld flush=%s\n", me()->tid, cupti_text(f));
        }
    }
}

/* ---- activity records ------------------------------------------------------------------- */

#define BUFFER_BYTES (8u << 20)

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    void *p = NULL;
    *buffer = posix_memalign(&p, 8, BUFFER_BYTES) == 0 ? p : NULL;
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void on_kernel(const CUpti_ActivityKernel10 *k)
{
    atomic_fetch_add(&n_act_kernel, 1);
    const long ns = (long)(k->end - k->start);
    atomic_fetch_add(&ns_kernel, ns);
    if (!k->graphNodeId) {
        if (corr_in_range && corr_in_range[k->correlationId & (CORR_FLAGS - 1)] == 2)
            atomic_fetch_add(&ns_kernel_in_range, ns);
        return;
    }
    atomic_fetch_add(&n_act_graph_kernel, 1);
    atomic_fetch_add(&ns_graph_kernel, ns);
    char cap[PATH_CAP] = "?", launch[PATH_CAP] = "?";
    int tag = -1;
    pthread_mutex_lock(&lock);
    const node_t *n = node_by_id(k->graphNodeId);
    if (n) {
        tag = n->tag;
        snprintf(cap, sizeof cap, "%s", n->path);
    }
    const graph_launch_t *g = &graph_launches[k->correlationId % GRAPH_LAUNCHES];
    const bool corr_found = g->corr == k->correlationId;
    if (corr_found)
        snprintf(launch, sizeof launch, "%s", g->path);
    pthread_mutex_unlock(&lock);
    if (n)
        atomic_fetch_add(&n_act_graph_found, 1);
    if (corr_found)
        atomic_fetch_add(&n_act_graph_corr_found, 1);
    const bool by_launch = corr_found && launch[0] != '-';
    if (by_launch || (n && cap[0] != '-'))
        atomic_fetch_add(&ns_kernel_in_range, ns);
    if (by_launch)
        atomic_fetch_add(&ns_graph_by_launch, ns);
    if (n && cap[0] != '-')
        atomic_fetch_add(&ns_graph_by_capture, ns);
    if (!quiet)
        fprintf(lg(), "GKERNEL tag=%d node=%llu graph=%u corr=%u ns=%ld node_known=%d "
                "launch_known=%d kernel=%.120s launch_path=%s\tcapture_path=%s\n",
                tag, (unsigned long long)k->graphNodeId, k->graphId, k->correlationId, ns,
                n != NULL, corr_found, k->name ? k->name : "?", launch, cap);
}

static void on_marker(const CUpti_ActivityMarker2 *m)
{
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
        atomic_fetch_add(&n_marker_start, 1);
    else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
        atomic_fetch_add(&n_marker_end, 1);
    else
        atomic_fetch_add(&n_marker_inst, 1);
    if (atomic_fetch_add(&n_marker_printed, 1) < 40 && !quiet)
        fprintf(lg(), "MARKER flags=0x%x id=%u object_kind=%d tid=%u name=%s domain=%s\n",
                (unsigned)m->flags, m->id, (int)m->objectKind,
                m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0,
                m->name ? m->name : "(null)", m->domain ? m->domain : "(null)");
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)size;
    CUpti_Activity *rec = NULL;
    while (buffer && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        switch (rec->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        case CUPTI_ACTIVITY_KIND_KERNEL: on_kernel((const CUpti_ActivityKernel10 *)rec); break;
        case CUPTI_ACTIVITY_KIND_MARKER: on_marker((const CUpti_ActivityMarker2 *)rec); break;
        case CUPTI_ACTIVITY_KIND_MARKER_DATA: atomic_fetch_add(&n_marker_data, 1); break;
        default: break;
        }
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        atomic_fetch_add(&n_dropped, (long)dropped);
    free(buffer);
}

static void enable_cb(CUpti_CallbackDomain dom, CUpti_CallbackId cbid)
{
    CUptiResult r = cuptiEnableCallback(1, subscriber, dom, cbid);
    if (r != CUPTI_SUCCESS)
        fprintf(lg(), "NOTE cuptiEnableCallback(%d, %u): %s\n", (int)dom, (unsigned)cbid,
                cupti_text(r));
}

/* With cupti_lock held; tried again at the next entry point if the subscription failed (fwd
 * mode subscribes at the first NVTX call, which may come before CUDA is there). */
static void start_cupti_locked(const char *when)
{
    if (!nodes)
        nodes = calloc(MAX_NODES, sizeof *nodes);
    if (!graph_launches)
        graph_launches = calloc(GRAPH_LAUNCHES, sizeof *graph_launches);
    if (!corr_in_range)
        corr_in_range = calloc(CORR_FLAGS, 1);
    if (!nodes || !graph_launches)
        return;
    fprintf(lg(), "CUPTI start when=%s\n", when);
    const long t0 = now_ns();
    CUptiResult r = cuptiSubscribe(&subscriber, on_callback, NULL);
    fprintf(lg(), "CUPTI subscribe=%s libcupti=%s tid=%ld\n", cupti_text(r), libcupti_path(),
            me()->tid);
    if (r != CUPTI_SUCCESS)
        return;
    static const CUpti_CallbackId driver[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
        CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams,
        CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2,
    };
    for (size_t i = 0; i < sizeof driver / sizeof driver[0]; i++)
        enable_cb(CUPTI_CB_DOMAIN_DRIVER_API, driver[i]);
    enable_cb(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    enable_cb(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    enable_cb(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED);
    enable_cb(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
    r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
    fprintf(lg(), "CUPTI nvtx_domain=%s\n", cupti_text(r));
    r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    fprintf(lg(), "CUPTI activity_callbacks=%s\n", cupti_text(r));
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    fprintf(lg(), "CUPTI activity_kernel=%s\n", cupti_text(r));
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
    fprintf(lg(), "CUPTI activity_marker=%s\n", cupti_text(r));
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER_DATA);
    fprintf(lg(), "CUPTI activity_marker_data=%s start_ms=%.3f\n", cupti_text(r),
            (now_ns() - t0) / 1e6);
    cupti_started = true;
}

static void start_cupti(const char *when)
{
    pthread_mutex_lock(&cupti_lock);
    if (starting_cupti)
        fprintf(lg(), "NOTE CUPTI start re-entered when=%s (inside the start under way)\n", when);
    else if (!cupti_started) {
        starting_cupti = true;
        start_cupti_locked(when);
        starting_cupti = false;
    }
    pthread_mutex_unlock(&cupti_lock);
}

/* ---- entry points --------------------------------------------------------------------------- */

static const char *mode_name(int m)
{
    return m == MODE_OWN ? "own" : m == MODE_FWD ? "fwd" : "none";
}

/* The NVTX instances seen (fwd mode): where each one's RangePushA points, as CUPTI may fill
 * the tables at its init or later (when the NVTX domain or marker records are enabled). */
#define MAX_INSTANCES 16
static NvtxGetExportTableFunc_t instances[MAX_INSTANCES];
static atomic_int n_instances;

static void remember_instance(NvtxGetExportTableFunc_t get)
{
    const int i = atomic_fetch_add(&n_instances, 1);
    if (i < MAX_INSTANCES)
        instances[i] = get;
}

static void log_handlers(const char *when)
{
    const int n_inst = atomic_load(&n_instances);
    for (int i = 0; i < n_inst && i < MAX_INSTANCES; i++) {
        const NvtxExportTableCallbacks *cb = instances[i](NVTX_ETID_CALLBACKS);
        NvtxFunctionTable t = NULL;
        unsigned n = 0;
        Dl_info di = {0};
        const char *where = "(null: a no-op)";
        if (cb && cb->GetModuleFunctionTable &&
            cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) && t &&
            NVTX_CBID_CORE_RangePushA < n && t[NVTX_CBID_CORE_RangePushA] &&
            *t[NVTX_CBID_CORE_RangePushA])
            where = dladdr((void *)*t[NVTX_CBID_CORE_RangePushA], &di) && di.dli_fname
                        ? di.dli_fname : "?";
        fprintf(lg(), "NVTX instance=%d when=%s RangePushA_handler_in=%s\n", i + 1, when, where);
    }
}

/* NVTX's entry: once per NVTX instance. Every instance of a process gets the same answer. */
EXPORTED int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    const long k = atomic_fetch_add(&n_nvtx_inits, 1) + 1;
    const NvtxExportTableVersionInfo *v = get ? get(NVTX_ETID_VERSIONINFO) : NULL;
    const unsigned version = v && v->struct_size >= sizeof *v ? v->version : 0;
    const char *fwd = getenv("NVTX_PROBE_FORWARD");
    if (fwd && atoi(fwd)) {
        atomic_store(&mode, MODE_FWD);
        /* CUPTI's entry point, of the very libcupti this library is bound to (a second copy
         * loaded from another path would not call this library's subscriber). */
        void *h = dlopen(libcupti_path(), RTLD_NOW | RTLD_NOLOAD);
        NvtxInitializeInjectionNvtxFunc_t init =
            h ? (NvtxInitializeInjectionNvtxFunc_t)dlsym(h, "InitializeInjectionNvtx2") : NULL;
        const long t0 = now_ns();
        start_cupti("nvtx"); /* before CUPTI's NVTX init: no event of this instance is missed */
        const int rc = init ? init(get) : 0;
        remember_instance(get);
        log_handlers("after CUPTI's init");
        fprintf(lg(), "INIT nvtx instance=%ld version=%u mode=fwd cupti_init=%p rc=%d ms=%.3f "
                "libcupti=%s\n", k, version, (void *)init, rc, (now_ns() - t0) / 1e6,
                libcupti_path());
        return rc;
    }
    atomic_store(&mode, MODE_OWN);
    const int rc = install_own(get);
    if (v && v->struct_size >= sizeof *v && v->SetInjectionNvtxVersion)
        v->SetInjectionNvtxVersion(NVTX_VERSION);
    fprintf(lg(), "INIT nvtx instance=%ld version=%u mode=own rc=%d tid=%ld\n", k, version, rc,
            me()->tid);
    return rc;
}

/* The CUDA driver's entry. */
EXPORTED int InitializeInjection(void)
{
    atomic_fetch_add(&n_cuda_inits, 1);
    const long t0 = now_ns();
    lg();
    atexit(finish); /* again: registered after the runtime's own, it runs before it (once) */
    start_cupti("cuda");
    log_handlers("at CUDA's init");
    fprintf(lg(), "INIT cuda mode=%s nvtx_inits=%ld nvtx_injection=%s ms=%.3f tid=%ld\n",
            mode_name(atomic_load(&mode)), atomic_load(&n_nvtx_inits),
            getenv("NVTX_INJECTION64_PATH") ? getenv("NVTX_INJECTION64_PATH") : "(unset)",
            (now_ns() - t0) / 1e6, me()->tid);
    return 1;
}

__attribute__((constructor)) static void on_load(void)
{
    const char *s = getenv("NVTX_PROBE_SUBSCRIBE_AT_LOAD");
    if (s && atoi(s)) {
        fprintf(lg(), "INIT load subscribe_at_load=1\n");
        start_cupti("load");
    }
}

static void finish(void)
{
    static atomic_int done;
    if (atomic_exchange(&done, 1))
        return;
    if (cupti_started) {
        CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        if (r != CUPTI_SUCCESS)
            fprintf(lg(), "NOTE cuptiActivityFlushAll: %s\n", cupti_text(r));
    }
    log_handlers("at exit");
    FILE *f = logf_ ? logf_ : stderr;
    long pushes = 0, pops = 0, own_events = 0, n_thr = 0;
    pthread_mutex_lock(&lock);
    for (const thread_t *t = threads; t; t = t->next) {
        pushes += t->pushes; /* a thread still running may add to these: a probe's sum */
        pops += t->pops;
        own_events += t->own_events;
    }
    n_thr = n_threads;
    const int open_at_exit = n_open, n_cat = n_categories;
    pthread_mutex_unlock(&lock);
    fprintf(f, "SUMMARY mode=%s nvtx_inits=%ld cuda_inits=%ld own_events=%ld cupti_nvtx=%ld "
            "cupti_nvtx_ignored=%ld threads=%ld\n",
            mode_name(atomic_load(&mode)), atomic_load(&n_nvtx_inits), atomic_load(&n_cuda_inits),
            own_events, atomic_load(&n_cupti_nvtx), atomic_load(&n_cupti_nvtx_ignored), n_thr);
    fprintf(f, "SUMMARY push=%ld pop=%ld unmatched_pop=%ld start=%ld end=%ld unmatched_end=%ld "
            "start_without_id=%ld mark=%ld truncated=%ld deeper_than_%d=%ld domains=%d "
            "categories=%d open_at_exit=%d\n",
            pushes, pops, atomic_load(&n_bad_pop), atomic_load(&n_start), atomic_load(&n_end),
            atomic_load(&n_bad_end), atomic_load(&n_start_no_id), atomic_load(&n_mark),
            atomic_load(&n_truncated), MAX_DEPTH, atomic_load(&n_deep),
            atomic_load(&n_domains) - 1, n_cat, open_at_exit);
    fprintf(f, "SUMMARY launches=%ld in_range=%ld captured=%ld graph_launches=%ld "
            "nodes_created=%ld nodes_created_in_launch=%ld nodes_cloned=%ld "
            "clones_of_unknown=%ld\n",
            atomic_load(&n_launch), atomic_load(&n_launch_in_range),
            atomic_load(&n_launch_captured), atomic_load(&n_graph_launch),
            atomic_load(&n_node_created), atomic_load(&n_node_in_launch),
            atomic_load(&n_node_cloned), atomic_load(&n_node_clone_unknown));
    fprintf(f, "SUMMARY kernels=%ld graph_kernels=%ld graph_kernels_node_known=%ld "
            "graph_kernels_launch_known=%ld kernel_ns=%ld kernel_ns_in_range=%ld "
            "graph_kernel_ns=%ld graph_ns_by_launch_range=%ld graph_ns_by_capture_range=%ld "
            "dropped=%ld\n",
            atomic_load(&n_act_kernel), atomic_load(&n_act_graph_kernel),
            atomic_load(&n_act_graph_found), atomic_load(&n_act_graph_corr_found),
            atomic_load(&ns_kernel), atomic_load(&ns_kernel_in_range),
            atomic_load(&ns_graph_kernel), atomic_load(&ns_graph_by_launch),
            atomic_load(&ns_graph_by_capture), atomic_load(&n_dropped));
    fprintf(f, "SUMMARY markers_start=%ld markers_end=%ld markers_instant=%ld marker_data=%ld\n",
            atomic_load(&n_marker_start), atomic_load(&n_marker_end),
            atomic_load(&n_marker_inst), atomic_load(&n_marker_data));
    fflush(f);
}
