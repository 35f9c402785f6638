/* --chip's names: the chips CUPTI's range profiler takes (those of CUDA 13's libcupti, Turing
 * onwards) and the products people know them by, so that `--chip=H100` or `--chip=gh100` is
 * answered with GH100 rather than with CUPTI's "invalid chip name". A name missing here is
 * still passed to CUPTI: the table refuses only what it can name a chip for. */
#include "cli/chips.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* The chips, each with the products built on it, written as a user might (compared by their
 * letters and digits). */
#define MOST_PRODUCTS 5
static const struct {
    const char *chip;
    const char *products[MOST_PRODUCTS];
} chips[] = {
    {"TU102", {"RTX 2080 Ti", "Titan RTX", "Quadro RTX 8000"}},
    {"TU104", {"T4", "RTX 2080"}},
    {"TU106", {"RTX 2070", "RTX 2060"}},
    {"TU116", {"GTX 1660"}},
    {"TU117", {"GTX 1650"}},
    {"GV100", {"V100", "Titan V"}},
    {"GA100", {"A100", "A800", "A30"}},
    {"GA102", {"A10", "A40", "RTX A6000", "RTX 3090", "RTX 3080"}},
    {"GA103", {NULL}},
    {"GA104", {"RTX 3070"}},
    {"GA106", {"RTX 3060"}},
    {"GA107", {"A16", "A2"}},
    {"GA10B", {NULL}},
    {"AD102", {"L40", "L40S", "RTX 4090", "RTX 6000 Ada"}},
    {"AD103", {"RTX 4080"}},
    {"AD104", {"L4", "RTX 4070"}},
    {"AD106", {"RTX 4060 Ti"}},
    {"AD107", {"RTX 4060"}},
    {"GH100", {"H100", "H200", "H800", "H20", "GH200"}},
    {"GB100", {"B100", "B200", "GB200"}},
    {"GB102", {NULL}}, {"GB10B", {NULL}}, {"GB110", {NULL}},
    {"GB202", {"RTX 5090"}},
    {"GB203", {"RTX 5080"}},
    {"GB205", {NULL}}, {"GB206", {NULL}}, {"GB207", {NULL}}, {"GB20B", {NULL}},
};

#define N_CHIPS (sizeof chips / sizeof chips[0])

/* The name's letters and digits in lower case, without a leading brand ("NVIDIA GeForce"). */
static void squeeze(const char *name, char *out, size_t len)
{
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < len; p++)
        if (isalnum((unsigned char)*p))
            out[n++] = (char)tolower((unsigned char)*p);
    out[n] = '\0';
    static const char *const brands[] = {"nvidia", "geforce", "tesla", "quadro"};
    for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++) {
        const size_t b = strlen(brands[i]);
        if (strncmp(out, brands[i], b) == 0)
            memmove(out, out + b, strlen(out + b) + 1);
    }
}

const char *gp_chip_meant(const char *name)
{
    for (size_t i = 0; i < N_CHIPS; i++)
        if (strcmp(name, chips[i].chip) == 0)
            return NULL;
    for (size_t i = 0; i < N_CHIPS; i++)
        if (strcasecmp(name, chips[i].chip) == 0)
            return chips[i].chip;
    char want[64], product[64];
    squeeze(name, want, sizeof want);
    for (size_t i = 0; want[0] && i < N_CHIPS; i++)
        for (size_t p = 0; p < MOST_PRODUCTS && chips[i].products[p]; p++) {
            squeeze(chips[i].products[p], product, sizeof product);
            if (strcmp(want, product) == 0)
                return chips[i].chip;
        }
    return NULL;
}
