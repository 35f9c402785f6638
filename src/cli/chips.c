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

static const char *const chips[] = {
    "TU102", "TU104", "TU106", "TU116", "TU117", "GV100",
    "GA100", "GA102", "GA103", "GA104", "GA106", "GA107", "GA10B",
    "AD102", "AD103", "AD104", "AD106", "AD107",
    "GH100",
    "GB100", "GB102", "GB10B", "GB110", "GB202", "GB203", "GB205", "GB206", "GB207", "GB20B",
};

/* Products by their chip, written as a user might (compared by their letters and digits). */
static const struct {
    const char *product;
    const char *chip;
} products[] = {
    {"T4", "TU104"},         {"RTX 2080", "TU104"},     {"RTX 2080 Ti", "TU102"},
    {"Titan RTX", "TU102"},  {"Quadro RTX 8000", "TU102"},
    {"RTX 2070", "TU106"},   {"RTX 2060", "TU106"},     {"GTX 1660", "TU116"},
    {"GTX 1650", "TU117"},   {"V100", "GV100"},         {"Titan V", "GV100"},
    {"A100", "GA100"},       {"A800", "GA100"},         {"A30", "GA100"},
    {"A10", "GA102"},        {"A40", "GA102"},          {"RTX A6000", "GA102"},
    {"RTX 3090", "GA102"},   {"RTX 3080", "GA102"},     {"RTX 3070", "GA104"},
    {"RTX 3060", "GA106"},   {"A16", "GA107"},          {"A2", "GA107"},
    {"L40", "AD102"},        {"L40S", "AD102"},         {"RTX 4090", "AD102"},
    {"RTX 6000 Ada", "AD102"}, {"RTX 4080", "AD103"},   {"L4", "AD104"},
    {"RTX 4070", "AD104"},   {"RTX 4060 Ti", "AD106"},  {"RTX 4060", "AD107"},
    {"H100", "GH100"},       {"H200", "GH100"},         {"H800", "GH100"},
    {"H20", "GH100"},        {"GH200", "GH100"},        {"B100", "GB100"},
    {"B200", "GB100"},       {"GB200", "GB100"},        {"RTX 5090", "GB202"},
    {"RTX 5080", "GB203"},
};

#define N_CHIPS (sizeof chips / sizeof chips[0])
#define N_PRODUCTS (sizeof products / sizeof products[0])

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
        if (strcmp(name, chips[i]) == 0)
            return NULL;
    for (size_t i = 0; i < N_CHIPS; i++)
        if (strcasecmp(name, chips[i]) == 0)
            return chips[i];
    char want[64], product[64];
    squeeze(name, want, sizeof want);
    for (size_t i = 0; want[0] && i < N_PRODUCTS; i++) {
        squeeze(products[i].product, product, sizeof product);
        if (strcmp(want, product) == 0)
            return products[i].chip;
    }
    return NULL;
}
