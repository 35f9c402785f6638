/* Demangling through __cxa_demangle, looked up at run time: in the process when libstdc++ is
 * loaded (nvcc links it into CUDA programs), else from libstdc++.so.6 opened here. Its
 * output is then written the way Nsight Compute prints kernel names ("const float *", not
 * "float const*"; "<unnamed>::" for an anonymous namespace), so a name reads the same in
 * gpuprof's and ncu's reports. One difference stays: ncu writes a function template's
 * parameters as declared (T1 *), gpuprof as instantiated (int *).
 * Base layer: never prints, never exits, never links cudart. */
#define _GNU_SOURCE
#include "gpuprof/demangle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static cxa_demangle_fn demangler;   /* Guard: found_once (written once, read after it) */
static pthread_once_t found_once = PTHREAD_ONCE_INIT; /* Guard: none, it is the guard */

static void find_demangler(void)
{
    demangler = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (demangler)
        return;
    void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (lib)
        demangler = (cxa_demangle_fn)dlsym(lib, "__cxa_demangle");
}

/* ---- ncu's spelling ------------------------------------------------------------------------- */

static bool is_delimiter(char c)
{
    return c == '(' || c == ',' || c == '<';
}

/* Where the type that ends just before `end` begins: after the delimiter at its own nesting
 * depth (a template's '<...>' and a namespace's '(...)' inside it are skipped). */
static size_t type_start(const char *s, size_t end)
{
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        if (s[i] == ')' || s[i] == '>')
            depth++;
        else if ((s[i] == '(' || s[i] == '<') && depth > 0)
            depth--;
        else if (depth == 0 && is_delimiter(s[i]))
            return i + 1 + (s[i + 1] == ' ');
    }
    return 0;
}

/* "T const" before a pointer or reference becomes "const T": ncu puts the qualifier first. */
static void const_first(char *s)
{
    static const char suffix[] = " const";
    const size_t k = sizeof suffix - 1;
    for (char *p = strstr(s, suffix); p; p = strstr(p + 1, suffix)) {
        const char next = p[k];
        if (next != '*' && next != '&')
            continue;
        const size_t end = (size_t)(p - s), start = type_start(s, end);
        if (start >= end || s[end - 1] == '*' || s[end - 1] == '&')
            continue; /* a const pointer ("T* const"): it stays where it is */
        memmove(s + start + k, s + start, end - start);
        memcpy(s + start, "const ", k);
    }
}

/* A space before each run of '*' or '&': "float *", "int **". */
static char *space_pointers(const char *s)
{
    char *out = malloc(2 * strlen(s) + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; s[i]; i++) {
        const bool pointer = s[i] == '*' || s[i] == '&';
        if (pointer && i > 0 && s[i - 1] != ' ' && s[i - 1] != '*' && s[i - 1] != '&' &&
            s[i - 1] != '(')
            out[n++] = ' ';
        out[n++] = s[i];
    }
    out[n] = '\0';
    return out;
}

char *gp_demangle(const char *mangled)
{
    if (!mangled || mangled[0] != '_' || mangled[1] != 'Z')
        return NULL;
    pthread_once(&found_once, find_demangler);
    int status = -1;
    char *plain = demangler ? demangler(mangled, NULL, NULL, &status) : NULL;
    if (status != 0) {
        free(plain);
        return NULL;
    }
    const_first(plain);
    char *spaced = space_pointers(plain);
    free(plain);
    /* A const pointer: "char *const". */
    for (char *p = spaced ? strstr(spaced, "* const") : NULL; p; p = strstr(p, "* const"))
        memmove(p + 1, p + 2, strlen(p + 2) + 1);
    /* An anonymous namespace: "<unnamed>" (shorter than what it replaces). */
    static const char anonymous[] = "(anonymous namespace)", unnamed[] = "<unnamed>";
    for (char *p = spaced ? strstr(spaced, anonymous) : NULL; p; p = strstr(p, anonymous)) {
        memcpy(p, unnamed, sizeof unnamed - 1);
        memmove(p + sizeof unnamed - 1, p + sizeof anonymous - 1,
                strlen(p + sizeof anonymous - 1) + 1);
    }
    return spaced;
}
