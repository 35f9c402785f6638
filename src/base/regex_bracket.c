/* A POSIX bracket expression's length (gpuprof/regex_bracket.h). Base layer. */
#include "gpuprof/regex_bracket.h"

#include <string.h>

size_t gp_regex_bracket_length(const char *s)
{
    size_t i = 1;
    if (s[i] == '^')
        i++;
    if (s[i] == ']')
        i++;
    while (s[i] && s[i] != ']') {
        if (s[i] == '[' && (s[i + 1] == ':' || s[i + 1] == '.' || s[i + 1] == '=')) {
            const char close[3] = {s[i + 1], ']', 0};
            const char *end = strstr(s + i + 2, close);
            i = end ? (size_t)(end - s) + 2 : strlen(s);
        } else {
            i++;
        }
    }
    return s[i] ? i + 1 : i;
}
