/* Kernel names in ncu's styles, and a kernel command's name cut at its end at a readable
 * boundary (gpuprof/kernel_name.h); exec's cuts in the middle and names told apart are
 * kernel_name_fit.c's. The names are scanned by report/name_scan.c. */
#include "gpuprof/kernel_name.h"

#include "gpuprof/short_names.h"
#include "gpuprof/status.h"
#include "report/name_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gp_kernel_name_styles[GP_KERNEL_NAME_STYLES] = {
    [GP_KERNEL_NAME_SHORT] = "short",
    [GP_KERNEL_NAME_FULL] = "full",
    [GP_KERNEL_NAME_FUNCTION] = "function",
    [GP_KERNEL_NAME_BASE] = "base",
};

bool gp_kernel_name_style_from_name(const char *name, gp_kernel_name_style *style)
{
    for (int i = 0; i < GP_KERNEL_NAME_STYLES; i++)
        if (strcmp(name, gp_kernel_name_styles[i]) == 0) {
            *style = (gp_kernel_name_style)i;
            return true;
        }
    return false;
}

static void copy_span(const char *s, size_t from, size_t to, char *buf, size_t len)
{
    while (to > from && s[to - 1] == ' ')
        to--;
    snprintf(buf, len, "%.*s", (int)(to - from), s + from);
}

void gp_kernel_name_format(const char *name, gp_kernel_name_style style, char *buf,
                           size_t len)
{
    const size_t n = strlen(name);
    if (style == GP_KERNEL_NAME_SHORT) {
        gp_kernel_short_name(name, buf, len);
        return;
    }
    if (style == GP_KERNEL_NAME_FULL) {
        snprintf(buf, len, "%s", name);
        return;
    }
    const size_t params = gp_name_parameter_list(name, n);
    if (style == GP_KERNEL_NAME_FUNCTION) {
        copy_span(name, 0, params, buf, len);
        return;
    }
    const size_t end = gp_name_without_template(name, params);
    const size_t start = gp_name_own_name_start(name, end);
    if (start < end)
        copy_span(name, start, end, buf, len);
    else
        copy_span(name, 0, params, buf, len);
}

size_t gp_text_columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Whether cutting before position i splits no identifier (and no UTF-8 sequence). */
static bool outside_identifier(const char *s, size_t i)
{
    if (((unsigned char)s[i] & 0xC0) == 0x80)
        return false;
    return !(gp_name_identifier_char(s[i - 1]) && gp_name_identifier_char(s[i]));
}

void gp_kernel_name_cut(const char *name, size_t width, char *buf, size_t len)
{
    if (gp_text_columns(name) <= width || width < 2) {
        snprintf(buf, len, "%s", name);
        return;
    }
    /* The longest prefix of width - 1 columns (the rest is for "…"). */
    size_t most = 0;
    for (size_t cols = 0; name[most] && cols < width - 1; cols++) {
        most++;
        while (((unsigned char)name[most] & 0xC0) == 0x80)
            most++;
    }
    size_t cut = 0;
    for (size_t i = most; i > 0 && !cut; i--)
        if (gp_name_readable_boundary(name, i))
            cut = i;
    for (size_t i = most; i > 0 && !cut; i--)
        if (outside_identifier(name, i))
            cut = i;
    if (!cut)
        cut = most;
    while (cut > 1 && name[cut - 1] == ' ')
        cut--;
    snprintf(buf, len, "%.*s…", (int)cut, name);
}
