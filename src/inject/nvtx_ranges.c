/* The NVTX range model of nvtx_ranges.h: per-thread stacks, the process's open start/end
 * ranges, the names that labels resolve through, and the numbering of paths. */
#include "inject/nvtx_ranges.h"

#include "inject/forward_ops.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/range_fold.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOMAINS 32
#define MAX_DEPTH 64
#define DOMAIN_NAME_MAX 64

typedef struct {
    char text[GP_RANGE_LABEL_MAX + 1];
    const void *registered;    /* the text is the registered string's when not NULL */
    uint32_t category;
    int domain;
    uint64_t id;               /* a start/end range's */
    unsigned long long seq;    /* emit_nvtx's "seq = N" (forward_ops.h), when has_seq */
    bool has_seq, backward;    /* backward: an autograd node's range ("AddmmBackward0") */
} stored_label;

/* A thread's own ranges: only it reads or writes them (NVTX's push/pop are per thread). */
typedef struct {
    int depth[MAX_DOMAINS];
    stored_label *stack[MAX_DOMAINS]; /* MAX_DEPTH labels each, made at the first push */
    uint64_t changes;                 /* pushes and pops so far */
    uint64_t seen_changes, seen_global;
    uint32_t number;                  /* the path's number at those counts */
    bool known;
    uint64_t chosen_changes, chosen_global;
    bool chosen;                      /* the filters' choice at those counts */
    bool chosen_known;
} thread_ranges;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
/* The domains (0: the default, named ""), the registered strings (handle ->
 * text), the category names ((domain, id) -> name), the open start/end ranges in the order
 * they started, and the paths' numbers. Guard: lock. */
static struct {
    char name[DOMAIN_NAME_MAX];
} domains[MAX_DOMAINS];                     /* Guard: lock */
static int n_domains = 1;                   /* Guard: lock */
static gp_hashmap strings;                  /* Guard: lock; values: char[LABEL_MAX + 1] */
static gp_hashmap categories;               /* Guard: lock; values: char[LABEL_MAX + 1] */
static stored_label *open_ranges;           /* Guard: lock */
static size_t n_open, open_cap;             /* Guard: lock */
static gp_hashmap numbers;                  /* Guard: lock; path -> uint32_t */
static uint32_t next_number = 1;            /* Guard: lock */
static uintptr_t next_string = 1;           /* Guard: lock; a registered string's handle */
static bool maps_ready;                     /* Guard: lock */
/* What changes every thread's path: a start, an end, a name given to a category or a
 * string. Read without the lock by gp_ranges_current (a thread's cached number). */
static atomic_uint_fast64_t global_changes; /* Guard: atomic */
static atomic_uint_fast64_t next_start_id = 1;                     /* Guard: atomic */
static atomic_uint_fast64_t n_unmatched_pops, n_unmatched_ends, n_cut; /* Guard: atomic */

/* Each thread's model, freed with the thread (the key's destructor). */
static pthread_key_t thread_key;                   /* Guard: thread_key_once */
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT; /* Guard: none, pthread_once */
static _Thread_local thread_ranges *self;          /* Guard: none, the thread's own */

static void free_thread(void *p)
{
    thread_ranges *t = p;
    for (int d = 0; d < MAX_DOMAINS; d++)
        free(t->stack[d]);
    free(t);
}

static void make_thread_key(void)
{
    (void)pthread_key_create(&thread_key, free_thread);
}

/* This thread's model; NULL when memory ran out (its ranges are then left out). */
static thread_ranges *me(void)
{
    if (self)
        return self;
    pthread_once(&thread_key_once, make_thread_key);
    self = calloc(1, sizeof *self);
    if (self)
        (void)pthread_setspecific(thread_key, self);
    return self;
}

static void prepare_maps_locked(void)
{
    if (maps_ready)
        return;
    gp_hashmap_init(&strings, GP_RANGE_LABEL_MAX + 1);
    gp_hashmap_init(&categories, GP_RANGE_LABEL_MAX + 1);
    gp_hashmap_init(&numbers, sizeof(uint32_t));
    maps_ready = true;
}

/* `src` into `dst` (GP_RANGE_LABEL_MAX characters at most, then "..."). */
static void copy_text(char *dst, const char *src)
{
    size_t n = 0;
    while (src[n] && n < GP_RANGE_LABEL_MAX)
        n++;
    memcpy(dst, src, n);
    dst[n] = 0;
    if (src[n]) {
        memcpy(dst + GP_RANGE_LABEL_MAX - 3, "...", 4);
        atomic_fetch_add(&n_cut, 1);
    }
}

/* A message into a label, without emit_nvtx's per-call parts (gpuprof/range_fold.h):
 * "aten::linear, seq = 0, op_id = 2" is "aten::linear", so that the path table and the
 * range records do not grow with every op call. Folded within its first 384 characters (no
 * allocation on a push): a longer message's later parts stay, cut to the label's length. */
static void copy_folded(char *dst, const char *src)
{
    char folded[4 * GP_RANGE_LABEL_MAX + 1];
    size_t n = 0;
    while (src[n] && n < sizeof folded - 1)
        n++;
    gp_range_fold_label(src, n, folded);
    copy_text(dst, folded);
}

/* The message's sequence number, read before the folding drops it (within the bytes the
 * folding reads). */
static void read_seq(stored_label *s, const char *message)
{
    size_t n = 0;
    while (message[n] && n < 4 * GP_RANGE_LABEL_MAX)
        n++;
    s->has_seq = gp_range_label_seq(message, n, &s->seq);
    s->backward = gp_range_label_backward(s->text);
}

/* autograd's engine wraps a node's range ("AddmmBackward0, seq = 4") in one without a
 * number ("autograd::engine::evaluate_function: AddmmBackward0"), in which more of the node's
 * kernels run after the inner range ends (a bias gradient's sum): the outer range takes the
 * inner's number. */
static void inherit_seq(stored_label *outer, const stored_label *inner)
{
    if (!inner->backward || !inner->has_seq || !outer->backward || outer->has_seq)
        return;
    const size_t o = strlen(outer->text), i = strlen(inner->text);
    if (o > i && !strcmp(outer->text + o - i, inner->text)) {
        outer->seq = inner->seq;
        outer->has_seq = true;
    }
}

static void store(stored_label *s, int domain, const gp_range_label *l)
{
    s->domain = domain;
    s->category = l->category;
    s->registered = l->registered;
    s->text[0] = 0;
    s->has_seq = s->backward = false;
    if (l->text) {
        copy_folded(s->text, l->text);
        read_seq(s, l->text);
    } else if (l->wide) {
        char ascii[4 * GP_RANGE_LABEL_MAX];
        gp_ranges_ascii(l->wide, ascii, sizeof ascii);
        copy_folded(s->text, ascii);
        read_seq(s, ascii);
    }
}

/* ---- names ------------------------------------------------------------------------------ */

const char *gp_ranges_ascii(const wchar_t *w, char *buf, size_t cap)
{
    size_t n = 0;
    for (; w && w[n] && n + 1 < cap; n++)
        buf[n] = w[n] > 0 && w[n] < 128 ? (char)w[n] : '?';
    buf[n] = 0;
    return buf;
}

int gp_ranges_domain(const char *name)
{
    const bool named = name && name[0];
    pthread_mutex_lock(&lock);
    int d = 1;
    while (named && d < n_domains && strcmp(domains[d].name, name) != 0)
        d++;
    if (!named)
        d = n_domains;
    if (d == n_domains && n_domains < MAX_DOMAINS) {
        if (named)
            snprintf(domains[d].name, sizeof domains[d].name, "%s", name);
        else
            snprintf(domains[d].name, sizeof domains[d].name, "domain %d", d);
        n_domains++;
    }
    pthread_mutex_unlock(&lock);
    return d < MAX_DOMAINS ? d : -1;
}

/* A name under a key of the strings or categories map; every path may read differently. */
static void name_locked(gp_hashmap *m, const void *key, size_t key_len, const char *text)
{
    prepare_maps_locked();
    char *value = gp_hashmap_add(m, key, key_len, NULL);
    if (value)
        copy_text(value, text ? text : "");
    atomic_fetch_add(&global_changes, 1);
}

const void *gp_ranges_register_string(int domain, const char *text)
{
    (void)domain; /* a handle is the process's: the domain is not needed to find it */
    pthread_mutex_lock(&lock);
    const void *handle = (const void *)(uintptr_t)next_string++;
    name_locked(&strings, &handle, sizeof handle, text);
    pthread_mutex_unlock(&lock);
    return handle;
}

void gp_ranges_name_category(int domain, uint32_t category, const char *name)
{
    const struct {
        int domain;
        uint32_t category;
    } key = {domain, category};
    pthread_mutex_lock(&lock);
    name_locked(&categories, &key, sizeof key, name);
    pthread_mutex_unlock(&lock);
}

/* ---- push/pop, start/end ---------------------------------------------------------------- */

int gp_ranges_push(int domain, const gp_range_label *label)
{
    thread_ranges *t = me();
    if (!t || domain < 0 || domain >= MAX_DOMAINS)
        return -1;
    if (!t->stack[domain] && !(t->stack[domain] = malloc(MAX_DEPTH * sizeof(stored_label))))
        return -1;
    const int level = t->depth[domain]++;
    if (level < MAX_DEPTH)
        store(&t->stack[domain][level], domain, label);
    if (level > 0 && level < MAX_DEPTH)
        inherit_seq(&t->stack[domain][level - 1], &t->stack[domain][level]);
    t->changes++;
    return level; /* NVTX's: the 0-based level of the range started */
}

int gp_ranges_pop(int domain)
{
    thread_ranges *t = me();
    if (!t || domain < 0 || domain >= MAX_DOMAINS || t->depth[domain] == 0) {
        atomic_fetch_add(&n_unmatched_pops, 1);
        return -1;
    }
    t->changes++;
    return --t->depth[domain]; /* the 0-based level of the range ended */
}

uint64_t gp_ranges_start(int domain, const gp_range_label *label)
{
    const uint64_t id = atomic_fetch_add(&next_start_id, 1);
    if (domain < 0 || domain >= MAX_DOMAINS)
        return id;
    pthread_mutex_lock(&lock);
    if (n_open == open_cap) {
        const size_t cap = open_cap ? 2 * open_cap : 16;
        stored_label *more = realloc(open_ranges, cap * sizeof *more);
        if (more) {
            open_ranges = more;
            open_cap = cap;
        }
    }
    if (n_open < open_cap) {
        store(&open_ranges[n_open], domain, label);
        open_ranges[n_open++].id = id;
        atomic_fetch_add(&global_changes, 1);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

void gp_ranges_end(uint64_t id)
{
    pthread_mutex_lock(&lock);
    size_t i = 0;
    while (i < n_open && open_ranges[i].id != id)
        i++;
    if (i < n_open) {
        memmove(&open_ranges[i], &open_ranges[i + 1], (n_open - i - 1) * sizeof *open_ranges);
        n_open--;
        atomic_fetch_add(&global_changes, 1);
    } else {
        atomic_fetch_add(&n_unmatched_ends, 1);
    }
    pthread_mutex_unlock(&lock);
}

/* ---- paths ------------------------------------------------------------------------------ */

typedef struct {
    char *buf;
    size_t cap, len;
    bool full;
    bool in_backward;          /* a backward node's range is below: its ops are not forward */
    bool named;                /* a backward node's label named its forward op */
} path_builder;

/* A label's text: its message, or its registered string's. */
static const char *text_locked(const stored_label *s)
{
    if (!s->registered || !maps_ready)
        return s->text;
    const char *found = gp_hashmap_find(&strings, &s->registered, sizeof s->registered);
    return found ? found : "(unregistered string)";
}

/* A backward node's label with the forward op it belongs to: "AddmmBackward0 (forward:
 * step > forward > aten::linear > aten::addmm)", '>' between the forward path's labels so
 * that the label stays one level of the path. Unchanged when the op is not known. */
static void name_forward_locked(char *label, size_t cap, const stored_label *s)
{
    const char *forward = gp_forward_ops_find(s->seq);
    size_t n = strlen(label);
    if (!forward || n + 12 >= cap)
        return;
    n += (size_t)snprintf(label + n, cap - n, " (forward: ");
    for (const char *c = forward; *c && n + 4 < cap; c++) {
        if (*c == '/')
            n += (size_t)snprintf(label + n, cap - n, " > ");
        else
            label[n++] = *c;
    }
    snprintf(label + n, cap - n, ")");
}

/* One label, with its separator, or nothing when it does not fit (the path then ends in
 * "/..."). A forward op's sequence number is noted with the path up to its label; the first
 * backward node's label of the path names its forward op. */
static void add_label_locked(path_builder *p, const stored_label *s)
{
    char label[GP_RANGE_PATH_MAX + DOMAIN_NAME_MAX + 2 * GP_RANGE_LABEL_MAX + 32];
    const char *text = text_locked(s);
    const char *category = NULL;
    if (s->category && maps_ready) {
        const struct {
            int domain;
            uint32_t category;
        } key = {s->domain, s->category};
        category = gp_hashmap_find(&categories, &key, sizeof key);
    }
    int n = snprintf(label, sizeof label, "%s%s%s%s%s%s", s->domain ? domains[s->domain].name : "",
                     s->domain ? "@" : "", text, category ? " [" : "", category ? category : "",
                     category ? "]" : "");
    if (n < 0 || p->full)
        return;
    if (s->backward && s->has_seq && !p->named) {
        name_forward_locked(label, sizeof label, s);
        n = (int)strlen(label);
        p->named = true;
    }
    p->in_backward = p->in_backward || s->backward;
    const size_t need = (size_t)n + (p->len ? 1 : 0);
    if (p->len + need + 4 >= p->cap) {
        if (p->len + 4 < p->cap)
            p->len += (size_t)snprintf(p->buf + p->len, p->cap - p->len, "%s...",
                                       p->len ? "/" : "");
        p->full = true;
        atomic_fetch_add(&n_cut, 1);
        return;
    }
    p->len += (size_t)snprintf(p->buf + p->len, p->cap - p->len, "%s%s", p->len ? "/" : "",
                               label);
    if (s->has_seq && !p->in_backward)
        (void)gp_forward_ops_note(s->seq, p->buf); /* unknown when out of memory: unpaired */
}

static void build_locked(const thread_ranges *t, char *buf, size_t cap)
{
    path_builder p = {buf, cap, 0, false, false, false};
    buf[0] = 0;
    for (size_t i = 0; i < n_open; i++)
        add_label_locked(&p, &open_ranges[i]);
    for (int d = 0; t && d < n_domains; d++) {
        const int depth = t->depth[d] < MAX_DEPTH ? t->depth[d] : MAX_DEPTH;
        for (int i = 0; i < depth; i++)
            add_label_locked(&p, &t->stack[d][i]);
        if (t->depth[d] > MAX_DEPTH) {
            const stored_label deep = {.text = "...", .domain = d};
            add_label_locked(&p, &deep);
        }
    }
}

size_t gp_ranges_path(char *buf, size_t cap)
{
    if (cap == 0)
        return 0;
    pthread_mutex_lock(&lock);
    build_locked(self, buf, cap);
    pthread_mutex_unlock(&lock);
    return strlen(buf);
}

/* Past GP_RANGE_PATHS_MAX distinct paths, a new one gets this number, its path saying so:
 * the table lives in the program's process. */
static uint32_t overflow_number;             /* Guard: lock */

static uint32_t number_locked(const char *path, gp_ranges_first_seen_fn first_seen)
{
    if (!path[0])
        return 0;
    prepare_maps_locked();
    const uint32_t *known = gp_hashmap_find_str(&numbers, path);
    if (known)
        return *known;
    if (numbers.count >= GP_RANGE_PATHS_MAX) {
        if (!overflow_number) {
            overflow_number = next_number++;
            if (first_seen)
                first_seen(overflow_number, GP_RANGE_OVERFLOW);
        }
        return overflow_number;
    }
    bool added = false;
    uint32_t *n = gp_hashmap_add_str(&numbers, path, &added);
    if (!n)
        return 0;
    if (added) {
        *n = next_number++;
        if (first_seen)
            first_seen(*n, path);
    }
    return *n;
}

uint32_t gp_ranges_current(gp_ranges_first_seen_fn first_seen)
{
    thread_ranges *t = self;
    const uint64_t global = atomic_load(&global_changes);
    if (t && t->known && t->seen_changes == t->changes && t->seen_global == global)
        return t->number;
    char path[GP_RANGE_PATH_MAX + 1];
    pthread_mutex_lock(&lock);
    build_locked(t, path, sizeof path);
    const uint32_t number = number_locked(path, first_seen);
    pthread_mutex_unlock(&lock);
    if (t) {
        t->known = true;
        t->number = number;
        t->seen_changes = t->changes;
        t->seen_global = global;
    }
    return number;
}

gp_ranges_counts gp_ranges_counted(void)
{
    return (gp_ranges_counts){atomic_load(&n_unmatched_pops), atomic_load(&n_unmatched_ends),
                              atomic_load(&n_cut)};
}

/* ---- the filters ------------------------------------------------------------------------ */

/* Guard: none, set by gp_ranges_filter before any callback, read-only after. */
static const gp_nvtx_filters *filters;
/* A view's arrays, filled and matched under the lock. */
static const char *view_names[MAX_DOMAINS][MAX_DEPTH]; /* Guard: lock */
static gp_nvtx_stack view_stacks[MAX_DOMAINS];         /* Guard: lock */
static gp_nvtx_open_range *view_open;                  /* Guard: lock */
static size_t view_open_cap;                           /* Guard: lock */

void gp_ranges_filter(const gp_nvtx_filters *f)
{
    filters = f && f->n ? f : NULL;
}

/* The thread's view: each domain's stack (its first MAX_DEPTH ranges), and the open
 * start/end ranges (those past a view array that could not grow are left out). */
static gp_nvtx_view view_locked(const thread_ranges *t)
{
    gp_nvtx_view v = {view_stacks, 0, view_open, 0};
    for (int d = 0; t && d < n_domains; d++) {
        const int depth = t->depth[d] < MAX_DEPTH ? t->depth[d] : MAX_DEPTH;
        for (int i = 0; i < depth; i++)
            view_names[d][i] = text_locked(&t->stack[d][i]);
        view_stacks[v.n_stacks++] = (gp_nvtx_stack){domains[d].name, view_names[d],
                                                    (size_t)depth};
    }
    if (n_open > view_open_cap) {
        gp_nvtx_open_range *more = realloc(view_open, open_cap * sizeof *more);
        if (more) {
            view_open = more;
            view_open_cap = open_cap;
            v.open = more;
        }
    }
    for (size_t i = 0; i < n_open && i < view_open_cap; i++)
        view_open[v.n_open++] = (gp_nvtx_open_range){domains[open_ranges[i].domain].name,
                                                     text_locked(&open_ranges[i])};
    return v;
}

bool gp_ranges_chosen(void)
{
    if (!filters)
        return true;
    thread_ranges *t = self;
    const uint64_t global = atomic_load(&global_changes);
    if (t && t->chosen_known && t->chosen_changes == t->changes && t->chosen_global == global)
        return t->chosen;
    pthread_mutex_lock(&lock);
    const gp_nvtx_view v = view_locked(t);
    const bool chosen = gp_nvtx_filters_choose(filters, &v);
    pthread_mutex_unlock(&lock);
    if (t) {
        t->chosen_known = true;
        t->chosen = chosen;
        t->chosen_changes = t->changes;
        t->chosen_global = global;
    }
    return chosen;
}
