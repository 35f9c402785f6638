/* Numbers on the command line: plain decimal, 2^K, and 2^K+C / 2^K-C (sizes such as
 * 2^24+7 are how awkward sizes are written), and the NXxNY / XxY shapes. */
#include "gpuprof/numparse.h"

#include "gpuprof/limits.h"
#include "gpuprof/status.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Strict decimal: digits only, no sign, no overflow. */
static bool parse_decimal(const char *s, const char **end, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    uint64_t v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *end = s;
    *out = v;
    return true;
}

int gp_parse_u64(const char *text, uint64_t *out)
{
    const char *s = text, *end;
    uint64_t base;
    if (!parse_decimal(s, &end, &base))
        return GP_ERR_USAGE;
    if (*end == '^') {
        uint64_t exp;
        if (base != 2 || !parse_decimal(end + 1, &end, &exp) || exp > 62)
            return GP_ERR_USAGE;
        base = (uint64_t)1 << exp;
        if (*end == '+' || *end == '-') {
            char op = *end;
            uint64_t c;
            if (!parse_decimal(end + 1, &end, &c))
                return GP_ERR_USAGE;
            if (op == '+') {
                if (base > UINT64_MAX - c)
                    return GP_ERR_USAGE;
                base += c;
            } else {
                if (c > base)
                    return GP_ERR_USAGE;
                base -= c;
            }
        }
    }
    if (*end != '\0')
        return GP_ERR_USAGE;
    *out = base;
    return GP_OK;
}

int gp_parse_size_1d(const char *text, uint64_t *out)
{
    uint64_t v;
    if (gp_parse_u64(text, &v) != GP_OK)
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': expected a count such as 16777216, "
                                     "2^24 or 2^24+7", text);
    if (v == 0)
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': must be at least 1", text);
    if (v > GP_MAX_ELEMENTS)
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': at most 2^36 elements", text);
    *out = v;
    return GP_OK;
}

/* Split "AxB" at the 'x' into two parsed numbers. */
static bool parse_pair(const char *text, uint64_t *a, uint64_t *b)
{
    const char *x = strchr(text, 'x');
    if (!x || strchr(x + 1, 'x'))
        return false;
    char first[64];
    size_t len = (size_t)(x - text);
    if (len == 0 || len >= sizeof first)
        return false;
    memcpy(first, text, len);
    first[len] = '\0';
    return gp_parse_u64(first, a) == GP_OK && gp_parse_u64(x + 1, b) == GP_OK;
}

int gp_parse_size_2d(const char *text, unsigned *nx, unsigned *ny)
{
    uint64_t a, b;
    if (!parse_pair(text, &a, &b))
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': expected NXxNY such as 4096x4096",
                       text);
    if (a == 0 || b == 0)
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': both sides must be at least 1", text);
    if (a > GP_MAX_MATRIX_SIDE || b > GP_MAX_MATRIX_SIDE || a * b > GP_MAX_ELEMENTS)
        return gp_fail(GP_ERR_USAGE, "invalid size '%s': too large (sides up to 2^30, at "
                                     "most 2^36 elements)", text);
    *nx = (unsigned)a;
    *ny = (unsigned)b;
    return GP_OK;
}

int gp_parse_block(const char *text, bool two_d, gp_dim3 *out)
{
    uint64_t a, b = 1;
    bool ok = two_d ? parse_pair(text, &a, &b) : gp_parse_u64(text, &a) == GP_OK;
    if (!ok)
        return gp_fail(GP_ERR_USAGE, "invalid block '%s': expected %s", text,
                       two_d ? "XxY such as 32x16" : "a thread count such as 512");
    if (a == 0 || b == 0 || a > GP_MAX_THREADS_PER_BLOCK || b > GP_MAX_THREADS_PER_BLOCK ||
        a * b > GP_MAX_THREADS_PER_BLOCK)
        return gp_fail(GP_ERR_USAGE, "invalid block '%s': 1 to %u threads in all", text,
                       GP_MAX_THREADS_PER_BLOCK);
    out->x = (unsigned)a;
    out->y = (unsigned)b;
    out->z = 1;
    return GP_OK;
}
