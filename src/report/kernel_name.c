/* Kernel names in ncu's styles and cut at readable boundaries (gpuprof/kernel_name.h). The
 * demangled names are C++ as the demangler writes them: "void ns::k<T, 4>(float *, int)".
 * Nesting is counted over <> and (), so commas, "::" and parentheses inside template
 * arguments or parameter lists are not taken for the name's own. */
#include "gpuprof/kernel_name.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *const gp_kernel_name_styles[GP_KERNEL_NAME_STYLES] = {
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

static bool is_identifier_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* The nesting depth change of one character: template arguments and parentheses. */
static int depth_step(char c)
{
    return (c == '<' || c == '(') - (c == '>' || c == ')');
}

/* Where the parameter list begins: the first "(" outside any nesting that follows a name
 * (not "(anonymous namespace)"); len when there is none. */
static size_t parameter_list(const char *s, size_t len)
{
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '(' && depth == 0 && i > 0 &&
            (is_identifier_char(s[i - 1]) || s[i - 1] == '>'))
            return i;
        depth += depth_step(s[i]);
        if (depth < 0)
            depth = 0;
    }
    return len;
}

/* The end of the function's name once its template arguments are dropped: before the
 * "<" that opens the group ending at `end`. */
static size_t without_template(const char *s, size_t end)
{
    if (end == 0 || s[end - 1] != '>')
        return end;
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        depth -= depth_step(s[i]);
        if (depth == 0)
            return i;
    }
    return end;
}

/* Where the function's own name begins: after the last "::" or space outside any nesting
 * (the return type, the namespaces and classes). */
static size_t own_name_start(const char *s, size_t end)
{
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < end; i++) {
        if (depth == 0 && s[i] == ' ')
            start = i + 1;
        else if (depth == 0 && s[i] == ':' && i + 1 < end && s[i + 1] == ':')
            start = i + 2;
        depth += depth_step(s[i]);
        if (depth < 0)
            depth = 0;
    }
    return start;
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
    if (style == GP_KERNEL_NAME_FULL) {
        snprintf(buf, len, "%s", name);
        return;
    }
    const size_t params = parameter_list(name, n);
    if (style == GP_KERNEL_NAME_FUNCTION) {
        copy_span(name, 0, params, buf, len);
        return;
    }
    const size_t end = without_template(name, params);
    const size_t start = own_name_start(name, end);
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

/* Whether the name may be cut just before position i. */
static bool readable_boundary(const char *s, size_t i)
{
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':')
        return true;
    if (i >= 2 && s[i - 1] == ' ' && s[i - 2] == ',')
        return true;
    return i > 0 && (s[i] == '(' || s[i] == '<') && s[i - 1] != ' ';
}

/* Whether cutting before position i splits no identifier (and no UTF-8 sequence). */
static bool outside_identifier(const char *s, size_t i)
{
    if (((unsigned char)s[i] & 0xC0) == 0x80)
        return false;
    return !(is_identifier_char(s[i - 1]) && is_identifier_char(s[i]));
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
        if (readable_boundary(name, i))
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
