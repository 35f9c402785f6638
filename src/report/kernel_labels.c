/* Kernel numbers and styled names of an exec report (gpuprof/kernel_labels.h). */
#include "gpuprof/kernel_labels.h"

#include "gpuprof/status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kernel's number by its variant and full name (the numbers' keys). */
static void *number_of(const gp_hashmap *numbers, const char *kernel, unsigned variant,
                       bool add, gp_hashmap *into)
{
    return add ? gp_hashmap_add_named(into, &variant, sizeof variant, kernel, NULL)
               : gp_hashmap_find_named(numbers, &variant, sizeof variant, kernel);
}

/* " [variant 2 of 3]" after a variant's name. */
static void add_variant(char *name, const gp_label_variant *v)
{
    const size_t used = strlen(name);
    if (v->variants && used < GP_LABEL_LEN)
        snprintf(name + used, GP_LABEL_LEN - used, " [variant %u of %u]", v->variant,
                 v->variants);
}

/* The labels of kernels named in order, each with its variant (k NULL: none). */
static int init_labels(gp_kernel_labels *kl, const char *const *fulls,
                       const gp_label_variant *k, size_t nk, gp_kernel_name_style style)
{
    *kl = (gp_kernel_labels){.n = nk};
    gp_hashmap_init(&kl->numbers, sizeof(size_t));
    kl->names = malloc((nk ? nk : 1) * GP_LABEL_LEN);
    int rc = kl->names ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < nk; i++) {
        size_t *number = number_of(NULL, fulls[i], k ? k[i].variant : 0, true, &kl->numbers);
        if (!number)
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
        else
            *number = i + 1;
    }
    if (rc == GP_OK)
        rc = gp_kernel_names_format(fulls, nk, style, kl->names, GP_LABEL_LEN);
    for (size_t i = 0; rc == GP_OK && k && i < nk; i++)
        add_variant(kl->names + i * GP_LABEL_LEN, &k[i]);
    /* Control characters would move the terminal's cursor: shown as '?'. */
    for (size_t i = 0; rc == GP_OK && i < nk; i++)
        for (char *c = kl->names + i * GP_LABEL_LEN; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    if (rc != GP_OK)
        gp_kernel_labels_free(kl);
    return rc;
}

int gp_kernel_labels_init_names(gp_kernel_labels *kl, const char *const *fulls,
                                const gp_label_variant *variants, size_t nk,
                                gp_kernel_name_style style)
{
    return init_labels(kl, fulls, variants, nk, style);
}

int gp_kernel_labels_init(gp_kernel_labels *kl, const gp_exec_kernel *k, size_t nk,
                          gp_kernel_name_style style)
{
    const char **fulls = malloc((nk ? nk : 1) * sizeof *fulls);
    gp_label_variant *variants = malloc((nk ? nk : 1) * sizeof *variants);
    int rc = fulls && variants ? GP_OK : gp_fail(GP_ERR_RUNTIME, "out of host memory");
    for (size_t i = 0; rc == GP_OK && i < nk; i++) {
        fulls[i] = k[i].kernel;
        variants[i] = (gp_label_variant){k[i].variant, k[i].variants};
    }
    if (rc == GP_OK)
        rc = init_labels(kl, fulls, variants, nk, style);
    else
        *kl = (gp_kernel_labels){.n = 0};
    free(fulls);
    free(variants);
    return rc;
}

const char *gp_kernel_labels_label(const gp_kernel_labels *kl, size_t number)
{
    return kl->names + (number - 1) * GP_LABEL_LEN;
}

/* Whether the launches of kernel `number` came from source s: a bit per source, up to 64. */
static void add_source(uint64_t *seen, size_t number, size_t source)
{
    if (source < 64)
        seen[number - 1] |= 1ull << source;
}

int gp_kernel_labels_sources(gp_kernel_labels *kl, const gp_report *r)
{
    if (r->n_sources < 2)
        return GP_OK;
    uint64_t *seen = calloc(kl->n + 1, sizeof *seen);
    kl->sources = calloc(kl->n + 1, sizeof *kl->sources);
    if (!seen || !kl->sources) {
        free(seen);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    for (size_t i = 0; i < r->exec.n_launches; i++) {
        const gp_exec_launch *l = &r->exec.launches[i];
        const size_t number = gp_kernel_labels_number(kl, l->kernel, l->variant);
        if (number && l->input < r->n_sources)
            add_source(seen, number, l->input);
    }
    for (size_t k = 0; k < kl->n; k++) {
        size_t used = 0;
        for (size_t s = 0; s < 64 && used < GP_SOURCES_LEN; s++)
            if (seen[k] & (1ull << s))
                used += (size_t)snprintf(kl->sources[k] + used, GP_SOURCES_LEN - used, "%s%zu",
                                         used ? "," : "[", s + 1);
        if (used && used < GP_SOURCES_LEN)
            snprintf(kl->sources[k] + used, GP_SOURCES_LEN - used, "]");
    }
    free(seen);
    return GP_OK;
}

const char *gp_kernel_labels_from(const gp_kernel_labels *kl, const char *kernel,
                                  unsigned variant)
{
    return gp_kernel_labels_from_number(kl, gp_kernel_labels_number(kl, kernel, variant));
}

const char *gp_kernel_labels_from_number(const gp_kernel_labels *kl, size_t number)
{
    return kl->sources && number && number <= kl->n ? kl->sources[number - 1] : "";
}

void gp_launch_source_tag(const gp_report *r, const gp_exec_launch *l, char *buf, size_t len)
{
    if (r->n_sources > 1 && l->input < r->n_sources)
        snprintf(buf, len, "[%zu]", l->input + 1);
    else
        snprintf(buf, len, "%s", "");
}

void gp_kernel_labels_free(gp_kernel_labels *kl)
{
    gp_hashmap_free(&kl->numbers);
    free(kl->names);
    free(kl->sources);
    kl->sources = NULL;
    kl->names = NULL;
    kl->n = 0;
}

size_t gp_kernel_labels_number(const gp_kernel_labels *kl, const char *kernel, unsigned variant)
{
    const size_t *number = number_of(&kl->numbers, kernel, variant, false, NULL);
    return number ? *number : 0;
}

const char *gp_kernel_labels_name(const gp_kernel_labels *kl, const char *kernel,
                                  unsigned variant)
{
    const size_t number = gp_kernel_labels_number(kl, kernel, variant);
    return number ? kl->names + (number - 1) * GP_LABEL_LEN : kernel;
}
