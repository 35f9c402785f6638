/* The variants of an exec report's kernels (gpuprof/exec_summary.h): a kernel whose launches
 * ran several codes (JIT compilation, autotuning) has one variant per code, numbered by
 * calls, the most first. */
#include "gpuprof/exec_summary.h"

#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <stdlib.h>
#include <string.h>

/* One code of a kernel: its calls, and its first launch's index (ties keep launch order). */
typedef struct {
    uint64_t code;
    size_t calls, first;
    unsigned number;
} code_count;

/* A kernel's codes, as they are met. */
typedef struct {
    code_count *codes;
    size_t n, capacity;
} kernel_codes;

static const char *identity(const gp_exec_launch *l)
{
    return l->mangled ? l->mangled : l->kernel ? l->kernel : "";
}

static code_count *count_of(kernel_codes *k, uint64_t code, size_t first)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->codes[i].code == code)
            return &k->codes[i];
    code_count *c = gp_append_zeroed(&k->codes, &k->n, &k->capacity, sizeof *c);
    if (c)
        *c = (code_count){.code = code, .first = first};
    return c;
}

static int by_calls(const void *a, const void *b)
{
    const code_count *x = a, *y = b;
    if (x->calls != y->calls)
        return x->calls > y->calls ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

/* Each kernel's codes counted, then numbered where there are several. */
static int count_codes(const gp_exec_info *e, gp_hashmap *kernels)
{
    for (size_t i = 0; i < e->n_launches; i++) {
        kernel_codes *k = gp_hashmap_add_str(kernels, identity(&e->launches[i]), NULL);
        code_count *c = k ? count_of(k, e->launches[i].code, i) : NULL;
        if (!c)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        c->calls++;
    }
    size_t cursor = 0;
    for (kernel_codes *k; (k = gp_hashmap_next(kernels, &cursor, NULL, NULL)) != NULL;) {
        qsort(k->codes, k->n, sizeof *k->codes, by_calls);
        for (size_t v = 0; k->n > 1 && v < k->n; v++)
            k->codes[v].number = (unsigned)v + 1;
    }
    return GP_OK;
}

/* A code of 0 (not known) beside one known code is that code's launch (a library the driver
 * loaded before gpuprof saw it, a launch after --launch-count ended the callbacks): it is
 * no variant of its own. */
static void merge_unknown(kernel_codes *k)
{
    size_t unknown = k->n;
    for (size_t i = 0; i < k->n; i++)
        if (k->codes[i].code == 0)
            unknown = i;
    if (k->n != 2 || unknown == k->n)
        return;
    k->codes[1 - unknown].calls += k->codes[unknown].calls;
    k->n = 1;
    k->codes[0] = k->codes[1 - unknown];
}

bool gp_exec_describe_variants(const gp_exec_kernel *k, size_t n, char *buf, size_t len)
{
    size_t kernels = 0, variants = 0;
    for (size_t i = 0; i < n; i++) {
        variants += k[i].variants > 0;
        kernels += k[i].variant == 1;
    }
    if (!variants)
        return false;
    char who[96];
    if (kernels == 1)
        snprintf(who, sizeof who, "1 kernel ran %zu codes", variants);
    else
        snprintf(who, sizeof who, "%zu kernels ran several codes (%zu variants)", kernels,
                 variants);
    snprintf(buf, len, "variants: %s: JIT compilation or autotuning (Triton, NVRTC) made one "
             "kernel name and launch shape run different code; each code is a variant with "
             "its own row, counters and time, \"[variant 1 of N]\" the one with the most calls",
             who);
    return true;
}

int gp_exec_number_variants(gp_exec_info *e)
{
    gp_hashmap kernels;
    gp_hashmap_init(&kernels, sizeof(kernel_codes));
    int rc = count_codes(e, &kernels);
    size_t cursor = 0;
    for (kernel_codes *k; rc == GP_OK && (k = gp_hashmap_next(&kernels, &cursor, NULL, NULL));)
        merge_unknown(k);
    for (size_t i = 0; rc == GP_OK && i < e->n_launches; i++) {
        gp_exec_launch *l = &e->launches[i];
        const kernel_codes *k = gp_hashmap_find_str(&kernels, identity(l));
        l->variant = l->variants = 0;
        for (size_t v = 0; k && k->n > 1 && v < k->n; v++)
            if (k->codes[v].code == l->code) {
                l->variant = k->codes[v].number;
                l->variants = (unsigned)k->n;
            }
    }
    cursor = 0;
    for (kernel_codes *k; (k = gp_hashmap_next(&kernels, &cursor, NULL, NULL)) != NULL;)
        free(k->codes);
    gp_hashmap_free(&kernels);
    return rc;
}
