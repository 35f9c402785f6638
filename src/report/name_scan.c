/* Scanning a demangled kernel name (report/name_scan.h): nesting over <> and (), so that
 * commas, "::" and parentheses inside template arguments or parameter lists are not taken for
 * the name's own. */
#include "report/name_scan.h"

#include <ctype.h>

bool gp_name_identifier_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* The nesting depth change of one character: template arguments and parentheses. */
int gp_name_depth_step(char c)
{
    return (c == '<' || c == '(') - (c == '>' || c == ')');
}

/* Where the parameter list begins: the first "(" outside any nesting that follows a name
 * (not "(anonymous namespace)"); len when there is none. */
size_t gp_name_parameter_list(const char *s, size_t len)
{
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '(' && depth == 0 && i > 0 &&
            (gp_name_identifier_char(s[i - 1]) || s[i - 1] == '>'))
            return i;
        depth += gp_name_depth_step(s[i]);
        if (depth < 0)
            depth = 0;
    }
    return len;
}

/* The end of the function's name once its template arguments are dropped: before the
 * "<" that opens the group ending at `end`. */
size_t gp_name_without_template(const char *s, size_t end)
{
    if (end == 0 || s[end - 1] != '>')
        return end;
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        depth -= gp_name_depth_step(s[i]);
        if (depth == 0)
            return i;
    }
    return end;
}

/* Where the function's own name begins: after the last "::" or space outside any nesting
 * (the return type, the namespaces and classes). */
size_t gp_name_own_name_start(const char *s, size_t end)
{
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < end; i++) {
        if (depth == 0 && s[i] == ' ')
            start = i + 1;
        else if (depth == 0 && s[i] == ':' && i + 1 < end && s[i + 1] == ':')
            start = i + 2;
        depth += gp_name_depth_step(s[i]);
        if (depth < 0)
            depth = 0;
    }
    return start;
}

/* Whether the name may be cut just before position i. */
bool gp_name_readable_boundary(const char *s, size_t i)
{
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':')
        return true;
    if (i >= 2 && s[i - 1] == ' ' && s[i - 2] == ',')
        return true;
    return i > 0 && (s[i] == '(' || s[i] == '<') && s[i - 1] != ' ';
}
