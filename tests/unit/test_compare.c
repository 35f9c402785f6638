/* compare's matching and verdicts on reports built in memory (long exec kernel names too), the
 * noise statistic, and the --kernel expansion bound. */
#include "tap.h"

#include "gpuprof/compare.h"
#include "gpuprof/regex_bracket.h"
#include "gpuprof/regex_size.h"
#include "gpuprof/stats.h"
#include "gpuprof/status.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void add(gp_report *r, const char *variant, unsigned block, double ms, double noise)
{
    gp_result *res;
    if (gp_report_add_result(r, &res) != GP_OK)
        return;
    snprintf(res->family, sizeof res->family, "reduce");
    snprintf(res->variant, sizeof res->variant, "%s", variant);
    snprintf(res->type, sizeof res->type, "int32");
    res->n = 1u << 24;
    res->block = (gp_dim3){block, 1, 1};
    res->timing.median_ms = ms;
    res->timing.noise_pct = noise;
    res->gbps = 1.0 / ms;
}

static const gp_compare_row *row_of(const gp_comparison *c, const char *variant,
                                    const char *block)
{
    for (size_t i = 0; i < c->n_rows; i++) {
        const gp_compare_row *row = &c->rows[i];
        bool v = false, b = false;
        for (size_t k = 0; k < row->n_keys; k++) {
            v |= strcmp(row->keys[k].name, "variant") == 0 &&
                 strcmp(row->keys[k].value, variant) == 0;
            b |= strcmp(row->keys[k].name, "block") == 0 &&
                 strcmp(row->keys[k].value, block) == 0;
        }
        if (v && b)
            return row;
    }
    return NULL;
}

static void test_verdicts(void)
{
    gp_report base, next;
    gp_report_init(&base);
    gp_report_init(&next);
    add(&base, "shfl", 512, 1.00, 1.0);      /* 20 % slower, small noise: slower */
    add(&base, "cub", 512, 1.00, 30.0);      /* 20 % slower inside the base's noise */
    add(&base, "interleaved", 512, 1.00, 1.0); /* twice as fast */
    add(&base, "shfl", 256, 1.00, 1.0);      /* only in base */
    add(&next, "interleaved", 512, 0.50, 1.0);
    add(&next, "cub", 512, 1.20, 1.0);
    add(&next, "shfl", 512, 1.20, 1.0);
    add(&next, "shfl", 1024, 1.00, 1.0);     /* only in new */
    gp_comparison c;
    tap_ok(gp_compare_reports(&base, "a", &next, "b", 5.0, &c) == GP_OK, "compare runs");
    const gp_compare_row *shfl = row_of(&c, "shfl", "512x1x1");
    const gp_compare_row *cub = row_of(&c, "cub", "512x1x1");
    const gp_compare_row *fast = row_of(&c, "interleaved", "512x1x1");
    const gp_compare_row *gone = row_of(&c, "shfl", "256x1x1");
    const gp_compare_row *added = row_of(&c, "shfl", "1024x1x1");
    tap_ok(shfl && shfl->verdict == GP_CHANGE_SLOWER, "matched by key, not position: slower");
    tap_near(shfl ? shfl->change_pct : NAN, 20.0, 1e-9, "change of the slower row, in %");
    tap_ok(cub && cub->verdict == GP_CHANGE_SAME && cub->bound_pct == 30.0,
           "a change inside the noise is not significant; the bound is the noise");
    tap_ok(fast && fast->verdict == GP_CHANGE_FASTER, "twice as fast: faster");
    tap_ok(gone && gone->verdict == GP_CHANGE_ONLY_BASE && !gone->next.present,
           "a result only in base");
    tap_ok(added && added->verdict == GP_CHANGE_ONLY_NEW && !added->base.present,
           "a result only in new");
    tap_ok(c.n_rows == 5 && c.n_slower == 1 && c.n_faster == 1 && c.n_same == 1 &&
               c.n_only_base == 1 && c.n_only_new == 1, "the counts");
    gp_comparison_free(&c);
    tap_ok(gp_compare_reports(&base, "a", &next, "b", 25.0, &c) == GP_OK && c.n_slower == 0,
           "a threshold above the change: nothing slower");
    gp_comparison_free(&c);
    next.is_exec = true;
    tap_ok(gp_compare_reports(&base, "a", &next, "b", 5.0, &c) == GP_ERR_USAGE,
           "an exec report against a kernel report: a usage error");
    gp_comparison_free(&c);
    gp_clear_error();
    next.is_exec = false;
    gp_report_free(&base);
    gp_report_free(&next);
}

/* An exec launch of `kernel` (grid 4096, block 256) that took `ms`. */
static void add_launch(gp_report *r, const char *kernel, double ms)
{
    gp_exec_launch *l;
    if (gp_exec_add_launch(&r->exec, &l) != GP_OK)
        return;
    l->kernel = strdup(kernel);
    l->grid = (gp_dim3){4096, 1, 1};
    l->block = (gp_dim3){256, 1, 1};
    l->duration_ms = ms;
}

static const gp_compare_row *kernel_row(const gp_comparison *c, const char *value)
{
    for (size_t i = 0; i < c->n_rows; i++)
        if (c->rows[i].n_keys && strcmp(c->rows[i].keys[0].name, "kernel") == 0 &&
            strcmp(c->rows[i].keys[0].value, value) == 0)
            return &c->rows[i];
    return NULL;
}

/* Demangled template names share long starts: each row keeps its own kernel, named in full,
 * and one too long for a key is cut in the middle, its start and end kept. */
static void test_long_kernel_names(void)
{
    char start[1600], a[1700], b[1700], huge_a[1700], huge_b[1700];
    memset(start, 'n', sizeof start - 1);
    start[sizeof start - 1] = '\0';
    snprintf(a, sizeof a, "void ns::%.200s::kernel<float>(float *)", start);
    snprintf(b, sizeof b, "void ns::%.200s::kernel<double>(double *)", start);
    snprintf(huge_a, sizeof huge_a, "void ns::%s::kernel<int>(int *)", start);
    snprintf(huge_b, sizeof huge_b, "void ns::%s::kernel<long>(long *)", start);
    gp_report base, next;
    gp_report_init(&base);
    gp_report_init(&next);
    base.is_exec = next.is_exec = true;
    const char *names[] = {a, b, huge_a, huge_b};
    for (size_t i = 0; i < 4; i++) {
        add_launch(&base, names[i], 1.0);
        add_launch(&next, names[i], i == 1 ? 2.0 : 1.0);
    }
    gp_comparison c;
    tap_ok(gp_compare_reports(&base, "a", &next, "b", 5.0, &c) == GP_OK, "exec compare runs");
    tap_ok(c.n_rows == 4 && c.n_same == 3 && c.n_slower == 1,
           "four kernels sharing their first 200 characters: four matched rows");
    const gp_compare_row *ra = kernel_row(&c, a), *rb = kernel_row(&c, b);
    tap_ok(ra && ra->verdict == GP_CHANGE_SAME, "a %zu-character name is a key in full",
           strlen(a));
    tap_ok(rb && rb->verdict == GP_CHANGE_SLOWER, "and the other keeps its own times");
    char label[GP_COMPARE_LABEL_LEN];
    if (rb)
        gp_compare_label(rb, label, sizeof label);
    tap_ok(rb && strncmp(label, b, strlen(b)) == 0 &&
               strcmp(label + strlen(b), " grid=4096x1x1 block=256x1x1") == 0,
           "the label holds the whole name");
    const char *cut = c.n_rows == 4 ? c.rows[2].keys[0].value : "", *end = "::kernel<int>(int *)";
    const size_t n = strlen(cut);
    tap_ok(n < GP_COMPARE_VALUE_LEN && strncmp(cut, huge_a, 600) == 0 &&
               strstr(cut, "n\xe2\x80\xa6n") && n > strlen(end) &&
               strcmp(cut + n - strlen(end), end) == 0,
           "a name longer than a key: cut in the middle, its start and end kept");
    tap_ok(c.n_rows == 4 && strcmp(c.rows[2].keys[0].value, c.rows[3].keys[0].value) != 0,
           "two such names, differing at their end, still differ");
    gp_comparison_free(&c);
    gp_report_free(&base);
    gp_report_free(&next);
}

static void test_noise(void)
{
    double v[] = {1.0, 1.0, 1.0, 1.0, 100.0}, scratch[5];
    tap_near(gp_relative_spread(v, 5, scratch), 0.0, 0, "one outlier of five: no noise");
    double w[] = {0.9, 1.0, 1.1}, s3[3];
    tap_near(gp_relative_spread(w, 3, s3), 14.826, 1e-9, "1.4826 x MAD / median, in %");
    tap_near(w[0], 0.9, 0, "the samples are left as they were");
}

static void test_regex_bound(void)
{
    tap_ok(gp_regex_expansion("copy.*") < 10, "a plain pattern is small");
    tap_ok(gp_regex_expansion("^(reduce|copy)[A-Z]+$") < 100, "groups and classes are small");
    char plus[80] = "a";
    memset(plus + 1, '+', 66);
    plus[67] = '\0';
    tap_ok(gp_regex_expansion(plus) > GP_REGEX_MAX_NODES, "66 repeated + are refused");
    tap_ok(gp_regex_expansion("((a{255}){255}){255}") > GP_REGEX_MAX_NODES,
           "nested counted repeats multiply");
    tap_ok(gp_regex_expansion("(a{30}){30}") <= GP_REGEX_MAX_NODES,
           "one level of nesting is allowed");
    tap_ok(gp_regex_expansion("((a{00}){99}){99}") > GP_REGEX_MAX_NODES,
           "empty-matching nested repeats are refused (CI fuzz finding)");
    tap_ok(gp_regex_expansion("[]+]+") < 10, "a ] first in a bracket is literal");
    tap_ok(gp_regex_expansion("[[:alpha:]{255}{255}]") < 10,
           "a class's ] inside a bracket does not close it: one atom, no copies");
    tap_ok(gp_regex_bracket_length("[]a]b") == 4 && gp_regex_bracket_length("[^]a]b") == 5 &&
               gp_regex_bracket_length("[[:digit:]x]y") == 12 &&
               gp_regex_bracket_length("[[.-.]]") == 7 && gp_regex_bracket_length("[ab") == 3 &&
               gp_regex_bracket_length("[[:alpha") == 8,
           "a bracket's length: a ] first, classes and collating elements inside; unclosed: the rest");
    char plus_bad[80];
    snprintf(plus_bad, sizeof plus_bad, "(%s){-1}", plus);
    tap_ok(gp_regex_expansion(plus_bad) > GP_REGEX_MAX_NODES, "a bad interval after copies");
    snprintf(plus_bad, sizeof plus_bad, "%s{nan}", plus);
    tap_ok(gp_regex_expansion(plus_bad) > GP_REGEX_MAX_NODES, "{nan} after copies");
    char deep[300];
    memset(deep, '(', sizeof deep - 1);
    deep[sizeof deep - 1] = '\0';
    tap_ok(gp_regex_expansion(deep) > GP_REGEX_MAX_NODES, "groups nested 299 deep");
}

/* Repeats of what can match nothing (regcomp's time grows exponentially with them after an
 * anchor), and the repeats and empty matches that are fine. */
static void test_regex_empty_repeats(void)
{
    static const char *const refused[] = {
        "IWWr^r?++++++fl,cub",   /* a fuzz finding: over 10 s in regcomp */
        "^r?+", "(a|)*", "(a|b*)+", "^(.*)*", "()*", "(\\b)+", "(^)*", "(x)(\\1)*",
        "(a?b?){2,}", "((a?)(b*))+", "a**", "(((a?)))+", "(b|(a|()))+", "(a|b)?+",
    };
    static const char *const allowed[] = {
        "^(reduce|copy)[A-Z]+$", "^.*foo.*$", "(a?b)+", "(a|b)*", "(^a)+", "(\\ba)*",
        "a?{3}", "(a?){0,4}", "a*?", "(*a)", "[?*]+", "\\?+", "(a?)|b+", "(a|b+)+",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        tap_ok(gp_regex_repeats_empty(refused[i]), "%s repeats what can match nothing",
               refused[i]);
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        tap_ok(!gp_regex_repeats_empty(allowed[i]), "%s does not", allowed[i]);
}

void test_compare(void)
{
    test_verdicts();
    test_long_kernel_names();
    test_noise();
    test_regex_bound();
    test_regex_empty_repeats();
}
