/* The names of how an exec launch's metrics were obtained (gpuprof/origin_names.h), by bit. */
#include "gpuprof/origin_names.h"

#include <stdio.h>
#include <string.h>

const char *const gp_origin_names[GP_ORIGINS] = {
    "range",     /* GP_ORIGIN_RANGE */
    "shadow",    /* GP_ORIGIN_SHADOW */
    "sampled",   /* GP_ORIGIN_SAMPLED */
    "graph",     /* GP_ORIGIN_GRAPH */
};

size_t gp_origins_to_list(unsigned origins, const char *names[GP_ORIGINS])
{
    size_t n = 0;
    for (unsigned i = 0; i < GP_ORIGINS; i++)
        if (origins & (1u << i))
            names[n++] = gp_origin_names[i];
    return n;
}

bool gp_origin_from_name(const char *name, unsigned *bit)
{
    for (unsigned i = 0; i < GP_ORIGINS; i++)
        if (strcmp(name, gp_origin_names[i]) == 0) {
            *bit = 1u << i;
            return true;
        }
    return false;
}

void gp_origins_join(unsigned origins, const char *sep, char *buf, size_t len)
{
    const char *names[GP_ORIGINS];
    const size_t n = gp_origins_to_list(origins, names);
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", names[i]);
}
