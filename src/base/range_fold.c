/* The folding of gpuprof/range_fold.h. Base layer: never prints, never exits. */
#include "gpuprof/range_fold.h"

#include <stdbool.h>
#include <string.h>

/* The bytes of "[...]" at s (brackets balanced, within n bytes); 0 when it is not one. */
static size_t bracketed(const char *s, size_t n)
{
    if (!n || s[0] != '[')
        return 0;
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        depth += s[i] == '[';
        if (s[i] == ']' && --depth == 0)
            return i + 1;
    }
    return 0;
}

/* The bytes of one or more digits at s, within n; 0 when none. */
static size_t digits(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

/* The bytes of a per-call part at s (", seq = 12" with its leading ", "), within n, ending at
 * the label's end or before the next ", "; 0 when s holds none. */
static size_t per_call_part(const char *s, size_t n)
{
    static const char *const keys[] = {", seq = ", ", op_id = ", ", sizes = ",
                                        ", input_op_ids = "};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const size_t key = strlen(keys[k]);
        if (n < key || memcmp(s, keys[k], key) != 0)
            continue;
        const size_t value = k < 2 ? digits(s + key, n - key) : bracketed(s + key, n - key);
        const size_t end = key + value;
        if (value && (end == n || (end + 1 < n && s[end] == ',' && s[end + 1] == ' ')))
            return end;
    }
    return 0;
}

size_t gp_range_fold_label(const char *label, size_t n, char *out)
{
    size_t used = 0;
    for (size_t i = 0; i < n;) {
        const size_t skip = label[i] == ',' ? per_call_part(label + i, n - i) : 0;
        if (skip)
            i += skip;
        else
            out[used++] = label[i++];
    }
    out[used] = '\0';
    return used;
}

void gp_range_fold(const char *path, char *out)
{
    size_t used = 0;
    for (const char *s = path;;) {
        const char *slash = strchr(s, '/');
        const size_t n = slash ? (size_t)(slash - s) : strlen(s);
        used += gp_range_fold_label(s, n, out + used);
        if (!slash)
            break;
        out[used++] = '/';
        s = slash + 1;
    }
    out[used] = '\0';
}

bool gp_range_label_seq(const char *label, size_t n, unsigned long long *seq)
{
    static const char key[] = ", seq = ";
    const size_t k = sizeof key - 1;
    for (size_t i = 0; i + k < n; i++) {
        const size_t d = memcmp(label + i, key, k) == 0 ? digits(label + i + k, n - i - k) : 0;
        if (d && d <= 18) { /* 18 digits: no overflow, and far past any real count */
            unsigned long long v = 0;
            for (size_t j = 0; j < d; j++)
                v = v * 10 + (unsigned long long)(label[i + k + j] - '0');
            *seq = v;
            return true;
        }
    }
    return false;
}

bool gp_range_label_backward(const char *label)
{
    static const char word[] = "Backward";
    size_t n = strlen(label);
    while (n && label[n - 1] >= '0' && label[n - 1] <= '9')
        n--;
    const size_t w = sizeof word - 1;
    return n >= w && memcmp(label + n - w, word, w) == 0;
}
