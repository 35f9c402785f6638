/* The injected library's NVTX range model (src/inject/nvtx_ranges.c), without NVTX or a
 * GPU: the paths a launch would get, the cases of bench/nvtx_probe/ (nesting, a second
 * thread as autograd's backward, start/end ranges ended on another thread, domains with
 * registered strings and categories), the numbering, and what is cut or unmatched. The
 * model is process-wide: the cases run in order and leave nothing open. */
#include "tap.h"

#include "inject/nvtx_ranges.h"

#include "gpuprof/status.h"

#include <pthread.h>
#include <string.h>

static gp_range_label text(const char *t)
{
    return (gp_range_label){.text = t};
}

static void path_is(const char *want, const char *what)
{
    char got[GP_RANGE_PATH_MAX + 1];
    gp_ranges_path(got, sizeof got);
    tap_str_eq(got, want, what);
}

static uint32_t seen_number;
static char seen_path[GP_RANGE_PATH_MAX + 1];
static int seen_calls;

static void first_seen(uint32_t number, const char *path)
{
    seen_number = number;
    snprintf(seen_path, sizeof seen_path, "%s", path);
    seen_calls++;
}

static void nesting_and_numbers(void)
{
    path_is("", "no range open: the empty path");
    tap_ok(gp_ranges_current(first_seen) == 0 && seen_calls == 0,
           "no range open: number 0, nothing written");
    gp_range_label step = text("step"), fwd = text("forward");
    tap_ok(gp_ranges_push(0, &step) == 0 && gp_ranges_push(0, &fwd) == 1,
           "push returns NVTX's 0-based level");
    path_is("step/forward", "nested pushes: outer first");
    const uint32_t n = gp_ranges_current(first_seen);
    tap_ok(n >= 1 && seen_calls == 1 && seen_number == n && !strcmp(seen_path, "step/forward"),
           "a new path: numbered, told once (%u, %s)", n, seen_path);
    tap_ok(gp_ranges_current(first_seen) == n && seen_calls == 1,
           "the same path again: the same number, told no more");
    tap_ok(gp_ranges_pop(0) == 1, "pop returns the level ended");
    path_is("step", "after a pop: the outer range");
    const uint32_t outer = gp_ranges_current(first_seen);
    tap_ok(outer != n && seen_calls == 2, "another path, another number");
    gp_ranges_push(0, &fwd);
    tap_ok(gp_ranges_current(first_seen) == n && seen_calls == 2,
           "back to step/forward: its number again");
    gp_ranges_pop(0);
    gp_ranges_pop(0);
    const gp_ranges_counts before = gp_ranges_counted();
    tap_ok(gp_ranges_pop(0) == -1 && gp_ranges_counted().unmatched_pops ==
                                         before.unmatched_pops + 1,
           "a pop with nothing pushed: -1, counted");
    path_is("", "all popped: the empty path");
}

/* A thread of its own, as autograd's backward: it sees its own pushes, not main's. */
static void *backward(void *arg)
{
    char *out = arg;
    gp_range_label b = text("MulBackward0, seq = 7");
    gp_ranges_push(0, &b);
    gp_ranges_path(out, GP_RANGE_PATH_MAX + 1);
    gp_ranges_pop(0);
    return NULL;
}

/* A thread that ends a range another started. */
static void *ender(void *arg)
{
    gp_ranges_end(*(uint64_t *)arg);
    return NULL;
}

static void threads_and_start_end(void)
{
    gp_range_label main_range = text("main"), phase = text("prefill");
    gp_ranges_push(0, &main_range);
    char other[GP_RANGE_PATH_MAX + 1] = "unset";
    pthread_t t;
    tap_ok(pthread_create(&t, NULL, backward, other) == 0 && pthread_join(t, NULL) == 0,
           "a second thread ran");
    tap_str_eq(other, "MulBackward0", "push/pop ranges are per thread");
    const uint64_t id = gp_ranges_start(0, &phase);
    tap_ok(id != 0, "a start/end range gets an id");
    path_is("prefill/main", "start/end ranges come first, then this thread's push/pop");
    const uint32_t with_phase = gp_ranges_current(first_seen);
    tap_ok(pthread_create(&t, NULL, ender, (void *)&id) == 0 && pthread_join(t, NULL) == 0,
           "another thread ended it");
    path_is("main", "ended on another thread: gone for every thread");
    tap_ok(gp_ranges_current(first_seen) != with_phase,
           "the cached number follows an end on another thread");
    const gp_ranges_counts before = gp_ranges_counted();
    gp_ranges_end(id);
    tap_ok(gp_ranges_counted().unmatched_ends == before.unmatched_ends + 1,
           "ending it twice: counted, ignored");
    gp_ranges_pop(0);
}

static void domains_strings_categories(void)
{
    const int a = gp_ranges_domain("cuDNN");
    tap_ok(a > 0 && gp_ranges_domain("cuDNN") == a,
           "a domain: an index of its own, the same for its name again (another NVTX instance)");
    const int unnamed = gp_ranges_domain(NULL);
    tap_ok(unnamed > a && gp_ranges_domain("") > unnamed, "an unnamed domain is new each time");
    const void *conv = gp_ranges_register_string(a, "conv2d");
    tap_ok(conv && conv != gp_ranges_register_string(a, "other"), "each string its own handle");
    gp_ranges_name_category(a, 5, "layer");
    gp_ranges_name_category(0, 5, "global");
    gp_range_label reg = {.registered = conv, .category = 5};
    gp_range_label mine = {.text = "mine", .category = 5};
    gp_range_label wide = {.wide = L"w\u00e9de"};
    gp_ranges_push(0, &mine);
    gp_ranges_push(a, &reg);
    gp_ranges_push(0, &wide);
    path_is("mine [global]/w?de/cuDNN@conv2d [layer]",
            "default domain first, then each domain's as DOMAIN@label; strings, categories and "
            "wide text resolved");
    gp_ranges_name_category(0, 5, "renamed");
    path_is("mine [renamed]/w?de/cuDNN@conv2d [layer]", "names resolve when the path is built");
    gp_ranges_pop(0);
    gp_ranges_pop(a);
    gp_ranges_pop(0);
    path_is("", "domains popped: the empty path");
}

static void cut_short(void)
{
    char longer[GP_RANGE_LABEL_MAX + 40];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    gp_range_label l = text(longer);
    gp_ranges_push(0, &l);
    char got[GP_RANGE_PATH_MAX + 1];
    gp_ranges_path(got, sizeof got);
    tap_ok(strlen(got) == GP_RANGE_LABEL_MAX && !strcmp(got + GP_RANGE_LABEL_MAX - 3, "..."),
           "a long label keeps %d characters, the last three dots", GP_RANGE_LABEL_MAX);
    for (int i = 0; i < 20; i++)
        gp_ranges_push(0, &l);
    const size_t n = gp_ranges_path(got, sizeof got);
    tap_ok(n <= GP_RANGE_PATH_MAX && n >= 4 && !strcmp(got + n - 4, "/..."),
           "a path past %d characters ends in /... (%zu)", GP_RANGE_PATH_MAX, n);
    for (int i = 0; i < 21; i++)
        gp_ranges_pop(0);
    for (int i = 0; i < 70; i++)
        gp_ranges_push(0, &(gp_range_label){.text = "d"});
    gp_ranges_path(got, sizeof got);
    tap_ok(strlen(got) > 4 && !strcmp(got + strlen(got) - 4, "/..."),
           "deeper than the model keeps: the path says so");
    for (int i = 0; i < 70; i++)
        gp_ranges_pop(0);
    path_is("", "all popped again");
}

/* emit_nvtx's per-call parts are folded out of messages, ASCII and wide; other text stays. */
static void folding(void)
{
    gp_range_label a = text("aten::linear, seq = 0, op_id = 2");
    gp_range_label b = text("aten::addmm, op_id = 6, sizes = [[256, 1024], [4096, 1024], []]");
    gp_range_label c = text("mine, seq = abc");
    gp_range_label w = {.wide = L"MulBackward0, seq = 7, op_id = 31"};
    gp_ranges_push(0, &a);
    gp_ranges_push(0, &b);
    gp_ranges_push(0, &c);
    gp_ranges_push(0, &w);
    path_is("aten::linear/aten::addmm/mine, seq = abc/MulBackward0",
            "emit_nvtx's seq, op_id and sizes folded out of each label; other text kept");
    for (int i = 0; i < 4; i++)
        gp_ranges_pop(0);
}

/* autograd's thread: a backward node's range and the op inside it. */
static void *backward_pass(void *arg)
{
    char *out = arg;
    gp_range_label node = text("AddmmBackward0, seq = 41, op_id = 7");
    gp_range_label op = text("aten::mm, seq = 12, op_id = 8");
    gp_ranges_push(0, &node);
    gp_ranges_push(0, &op);
    gp_ranges_current(first_seen); /* a launch in it */
    gp_ranges_path(out, GP_RANGE_PATH_MAX + 1);
    gp_ranges_pop(0);
    gp_ranges_pop(0);
    gp_range_label engine = text("autograd::engine::evaluate_function: AddmmBackward0, op_id = 6");
    gp_ranges_push(0, &engine);
    gp_ranges_push(0, &node);
    gp_ranges_pop(0);
    gp_ranges_path(out + 3 * (GP_RANGE_PATH_MAX + 1), GP_RANGE_PATH_MAX + 1);
    gp_ranges_pop(0);
    gp_range_label after = text("MmBackward0, seq = 12"), unknown = text("XBackward0, seq = 99");
    gp_ranges_push(0, &after);
    gp_ranges_path(out + GP_RANGE_PATH_MAX + 1, GP_RANGE_PATH_MAX + 1);
    gp_ranges_pop(0);
    gp_ranges_push(0, &unknown);
    gp_ranges_path(out + 2 * (GP_RANGE_PATH_MAX + 1), GP_RANGE_PATH_MAX + 1);
    gp_ranges_pop(0);
    return NULL;
}

/* emit_nvtx's forward-backward correlation: a backward node's range names the forward op
 * whose range said the same sequence number when a kernel launched in it (the innermost);
 * ops inside a backward range are not forward ops; an unknown number leaves the label. */
static void backward_pairing(void)
{
    gp_range_label step = text("step"), linear = text("aten::linear, seq = 41, op_id = 1"),
                   addmm = text("aten::addmm, seq = 41, op_id = 2");
    gp_ranges_push(0, &step);
    gp_ranges_push(0, &linear);
    gp_ranges_push(0, &addmm);
    gp_ranges_current(first_seen); /* the forward op's kernel */
    for (int i = 0; i < 3; i++)
        gp_ranges_pop(0);
    char out[4][GP_RANGE_PATH_MAX + 1];
    pthread_t t;
    tap_ok(pthread_create(&t, NULL, backward_pass, out) == 0 && pthread_join(t, NULL) == 0,
           "backward: autograd's thread ran");
    tap_str_eq(out[0], "AddmmBackward0 (forward: step > aten::linear > aten::addmm)/aten::mm",
               "backward: the node's range names its forward op, the innermost of its seq");
    tap_str_eq(out[1], "MmBackward0", "backward: an op inside a backward range is no forward op");
    tap_str_eq(out[2], "XBackward0", "backward: an unknown seq leaves the label");
    tap_str_eq(out[3], "autograd::engine::evaluate_function: AddmmBackward0 (forward: step > "
                       "aten::linear > aten::addmm)",
               "backward: the engine's range around the node's takes its number, and keeps it "
               "after the node's range ends");
}

/* Past GP_RANGE_PATHS_MAX distinct paths, one more number, told once, for every new path. */
static void bounded(void)
{
    char label[32];
    uint32_t overflow = 0, after = 0;
    int told = 0;
    seen_calls = 0;
    for (int i = 0; i <= GP_RANGE_PATHS_MAX; i++) {
        snprintf(label, sizeof label, "many %d", i);
        gp_ranges_push(0, &(gp_range_label){.text = label});
        const uint32_t n = gp_ranges_current(first_seen);
        if (!strcmp(seen_path, GP_RANGE_OVERFLOW) && !overflow) {
            overflow = n;
            told = seen_calls;
        }
        gp_ranges_pop(0);
    }
    gp_ranges_push(0, &(gp_range_label){.text = "one more"});
    after = gp_ranges_current(first_seen);
    gp_ranges_pop(0);
    tap_ok(overflow && after == overflow && seen_calls == told,
           "past %d paths: every new path gets one number, its path saying so, told once",
           GP_RANGE_PATHS_MAX);
}

/* --nvtx-include and --nvtx-exclude against the model: the choice of the launching thread's
 * view, recomputed when its ranges or the process's change. */
static gp_nvtx_filters filters;

static bool open_filters(const char *include, const char *exclude)
{
    char inc[1][GP_NVTX_FILTER_LEN], exc[1][GP_NVTX_FILTER_LEN];
    snprintf(inc[0], sizeof inc[0], "%s", include ? include : "");
    snprintf(exc[0], sizeof exc[0], "%s", exclude ? exclude : "");
    gp_nvtx_filters_close(&filters);
    const bool ok = gp_nvtx_filters_open(&filters, (const char(*)[GP_NVTX_FILTER_LEN])inc,
                                         include != NULL,
                                         (const char(*)[GP_NVTX_FILTER_LEN])exc,
                                         exclude != NULL) == GP_OK;
    gp_ranges_filter(&filters);
    return ok;
}

static void *chosen_elsewhere(void *arg)
{
    *(bool *)arg = gp_ranges_chosen();
    return NULL;
}

static void filtered_push_pop(void)
{
    gp_range_label outer = text("outer"), inner = text("inner"), skip = text("skip me");
    tap_ok(open_filters("outer/inner]/", "regex:.*skip.*/"), "filters: opened");
    tap_ok(!gp_ranges_chosen(), "filters: no range open, not chosen");
    gp_ranges_push(0, &outer);
    tap_ok(!gp_ranges_chosen(), "filters: outer alone, not chosen");
    gp_ranges_push(0, &inner);
    tap_ok(gp_ranges_chosen(), "filters: inner innermost in outer, chosen");
    bool other = true;
    pthread_t t;
    tap_ok(pthread_create(&t, NULL, chosen_elsewhere, &other) == 0 &&
               pthread_join(t, NULL) == 0 && !other,
           "filters: another thread's launch has its own stack: not chosen");
    gp_ranges_push(0, &skip);
    tap_ok(!gp_ranges_chosen(), "filters: a push inside: no longer innermost, and excluded");
    gp_ranges_pop(0);
    tap_ok(gp_ranges_chosen(), "filters: the cached choice follows the pop");
    gp_ranges_pop(0);
    gp_ranges_pop(0);
}

static void filtered_start_end_and_labels(void)
{
    gp_range_label phase = text("decode"), op = text("aten::mm, seq = 3, op_id = 9");
    tap_ok(open_filters("decode", NULL), "filters: a start/end range opened");
    tap_ok(!gp_ranges_chosen(), "filters: decode not started, not chosen");
    uint64_t id = gp_ranges_start(0, &phase);
    tap_ok(gp_ranges_chosen(), "filters: decode started, chosen");
    pthread_t t;
    tap_ok(pthread_create(&t, NULL, ender, &id) == 0 && pthread_join(t, NULL) == 0 &&
               !gp_ranges_chosen(),
           "filters: ended on another thread: the cached choice follows");
    const int a = gp_ranges_domain("cuDNN");
    const void *conv = gp_ranges_register_string(a, "conv2d");
    gp_range_label reg = {.registered = conv, .category = 5};
    tap_ok(open_filters("cuDNN@conv2d/", NULL), "filters: a domain's range opened");
    gp_ranges_push(a, &reg);
    tap_ok(gp_ranges_chosen(), "filters: a registered string, its category aside, matches");
    gp_ranges_pop(a);
    tap_ok(open_filters("aten::mm]/", NULL), "filters: an op's range opened");
    gp_ranges_push(0, &op);
    tap_ok(gp_ranges_chosen(), "filters: emit_nvtx's label matches folded");
    gp_ranges_pop(0);
    gp_nvtx_filters_close(&filters);
    gp_ranges_filter(NULL);
    tap_ok(gp_ranges_chosen(), "filters: none, every launch chosen");
}

void test_nvtx_ranges(void)
{
    nesting_and_numbers();
    threads_and_start_end();
    domains_strings_categories();
    cut_short();
    folding();
    backward_pairing();
    bounded();
    filtered_push_pop();
    filtered_start_end_and_labels();
}
