/* exec's NVTX filters (src/base/nvtx_filter.c): every form of ncu's grammar parsed, every
 * usage error refused with its reason, and the matcher against views of ranges: nesting,
 * the anchors, '*', domains, start/end ranges, the regex form, escapes, and labels as the
 * report shows them (PyTorch's per-call parts folded away before they reach the view). */
#include "tap.h"

#include "gpuprof/nvtx_filter.h"
#include "gpuprof/range_fold.h"
#include "gpuprof/status.h"

#include <string.h>

static gp_nvtx_filter f;

static const char *name(unsigned i)
{
    return f.text + f.name_at[i];
}

/* ---- the parser ----------------------------------------------------------------------- */

static void push_pop_forms(void)
{
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "A/", &f) == GP_OK && f.push_pop &&
               !f.has_domain && !f.bottom && !f.top && f.n_names == 1 &&
               strcmp(name(0), "A") == 0,
           "parse: A/ is one push/pop name, unanchored");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "A/B/", &f) == GP_OK && f.n_names == 2 &&
               strcmp(name(0), "A") == 0 && strcmp(name(1), "B") == 0,
           "parse: A/B/ is two names, outermost first");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "A/*/B/", &f) == GP_OK && f.n_names == 3 &&
               !f.any[0] && f.any[1] && !f.any[2],
           "parse: A/*/B/ has '*' between its names");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "[A/", &f) == GP_OK && f.bottom && !f.top,
           "parse: [A/ anchors at the bottom");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "A]/", &f) == GP_OK && f.top && !f.bottom &&
               strcmp(name(0), "A") == 0,
           "parse: A]/ anchors at the top");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "[A/B]/", &f) == GP_OK && f.top && f.bottom &&
               f.n_names == 2,
           "parse: [A/B]/ is the whole stack");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "dom@A/B/", &f) == GP_OK && f.has_domain &&
               strcmp(f.text + f.domain_at, "dom") == 0 && f.n_names == 2 && f.push_pop,
           "parse: dom@A/B/ names its domain");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "step, 3/", &f) == GP_OK && f.n_names == 1 &&
               strcmp(name(0), "step, 3") == 0,
           "parse: a ',' is part of a push/pop name");
}

static void start_end_forms(void)
{
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "A", &f) == GP_OK && !f.push_pop &&
               f.n_names == 1 && strcmp(name(0), "A") == 0,
           "parse: A (no trailing '/') is a start/end range");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "d@A,B,C", &f) == GP_OK && !f.push_pop &&
               f.has_domain && f.n_names == 3 && strcmp(name(2), "C") == 0,
           "parse: d@A,B,C is three start/end ranges of a domain");
}

static void regex_and_escapes(void)
{
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "regex:lay.*[0-9]/", &f) == GP_OK && f.regex &&
               f.push_pop && f.n_names == 1 && !f.top && strcmp(name(0), "lay.*[0-9]") == 0,
           "parse: regex: a bracket expression before the last '/' is the regex's, not ']'");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "regex:[[a-c]x/y[^/]]/", &f) == GP_OK &&
               f.bottom && f.top && f.n_names == 2 && strcmp(name(0), "[a-c]x") == 0 &&
               strcmp(name(1), "y[^/]") == 0,
           "parse: regex: the anchors around bracket expressions, a '/' inside one");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "regex:d.*@a\\.b,c+", &f) == GP_OK &&
               !f.push_pop && strcmp(f.text + f.domain_at, "d.*") == 0 &&
               strcmp(name(0), "a\\.b") == 0 && strcmp(name(1), "c+") == 0,
           "parse: regex: a regex's own escape stays for regcomp");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "a\\/b\\@c\\,d\\[e\\]f\\*\\\\/", &f) == GP_OK &&
               f.n_names == 1 && strcmp(name(0), "a/b@c,d[e]f*\\") == 0 && !f.bottom,
           "parse: escapes make / @ , [ ] * \\ characters of a name");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "\\*/", &f) == GP_OK && !f.any[0] &&
               strcmp(name(0), "*") == 0,
           "parse: \\* is a range named '*'");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", "regex:*/", &f) == GP_OK && f.any[0],
           "parse: regex: '*' alone is any ranges too");
}

static void refused(const char *expr, const char *why)
{
    const int rc = gp_nvtx_filter_parse("nvtx-exclude", expr, &f);
    const bool mentions = strstr(gp_error(), why) && strstr(gp_error(), "--nvtx-exclude");
    if (!mentions)
        tap_diag("message was: %s", gp_error());
    tap_ok(rc == GP_ERR_USAGE && mentions && !strchr(gp_error(), '\n'),
           "parse: '%s' refused: %s", expr, why);
}

static void errors(void)
{
    refused("", "an empty expression");
    refused("regex:", "an empty expression");
    refused("A//", "an empty name");
    refused("/", "an empty name");
    refused("[/", "an empty name");
    refused("A,,B", "an empty name");
    refused("A/[B/", "'[' anchors only the first name");
    refused("A]/B/", "'[' anchors only the first name");
    refused("[A", "'[' anchors only the first name");
    refused("@A/", "'@' without a domain");
    refused("d@", "'@' without a range");
    refused("a@b@c/", "more than one '@'");
    refused("d/x@A/", "the domain holds");
    refused("regex:(/", "the regex '('");
    refused("regex:d[@A", "the regex 'd[@A'");
    refused("la*yer/", "'*' stands alone");
    refused("*", "'*' (any ranges) applies to push/pop");
    refused("A/B", "'/' in a start/end expression");
    refused("A\\", "it ends with '\\'");
    refused("A\x1f/", "0x1F");
    char longest[GP_NVTX_FILTER_LEN + 1];
    memset(longest, 'a', GP_NVTX_FILTER_LEN - 2);
    strcpy(longest + GP_NVTX_FILTER_LEN - 2, "/");
    tap_ok(gp_nvtx_filter_parse("nvtx-include", longest, &f) == GP_OK,
           "parse: an expression of 255 characters");
    memset(longest, 'a', GP_NVTX_FILTER_LEN - 1);
    strcpy(longest + GP_NVTX_FILTER_LEN - 1, "/");
    refused(longest, "longer than 255 characters");
}

/* ---- the matcher ------------------------------------------------------------------------ */

static const char *const outer[] = {"train", "step", "layer1", "attn"};
static const char *const dom[] = {"prefill", "gemm"};
static const gp_nvtx_stack stacks[] = {{"", outer, 4}, {"serve", dom, 2}};
static const gp_nvtx_open_range open_ranges[] = {{"", "epoch 1"}, {"serve", "request 7"},
                                                 {"", "warmup"}};
static const gp_nvtx_view view = {stacks, 2, open_ranges, 3};

static bool hit(const char *expr, const gp_nvtx_view *v)
{
    gp_nvtx_filters s;
    char names[1][GP_NVTX_FILTER_LEN];
    snprintf(names[0], GP_NVTX_FILTER_LEN, "%s", expr);
    if (gp_nvtx_filters_open(&s, (const char(*)[GP_NVTX_FILTER_LEN])names, 1, NULL, 0) !=
        GP_OK) {
        tap_diag("'%s' did not open: %s", expr, gp_error());
        return false;
    }
    const bool chosen = gp_nvtx_filters_choose(&s, v);
    gp_nvtx_filters_close(&s);
    return chosen;
}

static void expect(const char *expr, bool want, const char *what)
{
    tap_ok(hit(expr, &view) == want, "match: %s %s: %s", expr, want ? "takes" : "leaves", what);
}

static void nesting_and_anchors(void)
{
    expect("train/", true, "the outermost range, with ranges inside it");
    expect("layer1/", true, "a range in the middle of the stack");
    expect("step/layer1/", true, "consecutive ranges");
    expect("train/layer1/", false, "ranges that are not consecutive");
    expect("layer1/step/", false, "consecutive ranges in the wrong order");
    expect("train/*/layer1/", true, "'*' for one range between");
    expect("train/*/step/", true, "'*' for no range between");
    expect("train/*/attn/", true, "'*' for two ranges between");
    expect("attn/*/train/", false, "'*' in the wrong order");
    expect("[train/", true, "the bottom anchor on the outermost");
    expect("[step/", false, "the bottom anchor on an inner range");
    expect("attn]/", true, "the top anchor on the innermost");
    expect("layer1]/", false, "the top anchor on an outer range");
    expect("[train/*/attn]/", true, "both anchors around '*'");
    expect("[train/step]/", false, "both anchors on part of the stack");
    expect("[*]/", true, "any stack at all");
    expect("other/", false, "a range not open");
    expect("gemm/", false, "a domain's range without its domain");
}

static void domains_and_start_end(void)
{
    expect("serve@gemm/", true, "a domain's push/pop range");
    expect("serve@[prefill/gemm]/", true, "a domain's whole stack");
    expect("serve@train/", false, "the default domain's range under a domain");
    expect("other@gemm/", false, "another domain");
    expect("epoch 1", true, "a start/end range open");
    expect("epoch 1,warmup", true, "two start/end ranges open");
    expect("epoch 1,request 7", false, "a start/end range of another domain");
    expect("serve@request 7", true, "a domain's start/end range");
    expect("train", false, "a push/pop range is no start/end range");
    expect("serve@epoch 1", false, "a start/end range of the default domain, not the named");
}

static void regex_forms(void)
{
    expect("regex:lay.*/", true, "a regex over one name");
    expect("regex:lay/", false, "a regex matched against the whole name");
    expect("regex:t.*/s.*/", true, "regexes over consecutive names");
    expect("regex:[st.*/", false, "a regex anchored at the bottom");
    expect("regex:ser.*@gem[a-z]/", true, "a regex domain");
    expect("regex:epoch [0-9]+,warm.*", true, "regex start/end ranges");
    expect("regex:(x|serve)@req.*", true, "an alternation as the domain");
}

static void escapes_and_folded_labels(void)
{
    static const char *const odd[] = {"a/b", "x*y", "[z]"};
    static const gp_nvtx_stack odd_stack[] = {{"", odd, 3}};
    const gp_nvtx_view v = {odd_stack, 1, NULL, 0};
    tap_ok(hit("a\\/b/x\\*y/", &v), "match: an escaped '/' and '*' name ranges");
    tap_ok(hit("\\[z\\]]/", &v), "match: escaped brackets name a range, then the top anchor");
    tap_ok(!hit("a/", &v), "match: a/ does not take part of the name a/b");
    tap_ok(hit("regex:a/b/x\\*y/", &v) == false && hit("regex:a\\/b/x\\*y/", &v),
           "match: regex: an escaped '/' inside a name, an escaped '*' literal");
    /* PyTorch's emit_nvtx label, as the library keeps it (folded at the push) */
    const char *raw = "aten::linear, seq = 12, op_id = 40";
    char folded[64];
    gp_range_fold_label(raw, strlen(raw), folded);
    const char *const torch[] = {"forward", folded};
    const gp_nvtx_stack torch_stack[] = {{"", torch, 2}};
    const gp_nvtx_view t = {torch_stack, 1, NULL, 0};
    tap_ok(hit("forward/aten::linear/", &t), "match: an emit_nvtx range by its op's name");
    tap_ok(!hit("aten::linear, seq = 12, op_id = 40/", &t),
           "match: not by its raw message (ncu's), whose per-call parts the report drops");
}

static void include_and_exclude(void)
{
    gp_nvtx_filters s;
    const char inc[2][GP_NVTX_FILTER_LEN] = {"other/", "step/"};
    const char exc[1][GP_NVTX_FILTER_LEN] = {"attn/"};
    const gp_nvtx_stack shallow[] = {{"", outer, 3}};
    const gp_nvtx_view up_to_layer = {shallow, 1, NULL, 0};
    const gp_nvtx_view none = {NULL, 0, NULL, 0};
    tap_ok(gp_nvtx_filters_open(&s, inc, 2, exc, 1) == GP_OK && s.n == 3 && s.n_include == 2,
           "filters: two includes and an exclude open");
    tap_ok(gp_nvtx_filters_choose(&s, &up_to_layer), "filters: one include of two takes it");
    tap_ok(!gp_nvtx_filters_choose(&s, &view), "filters: the exclude leaves it");
    tap_ok(!gp_nvtx_filters_choose(&s, &none), "filters: no range open, no include matches");
    gp_nvtx_filters_close(&s);
    tap_ok(gp_nvtx_filters_open(&s, NULL, 0, exc, 1) == GP_OK &&
               gp_nvtx_filters_choose(&s, &none) && gp_nvtx_filters_choose(&s, &up_to_layer) &&
               !gp_nvtx_filters_choose(&s, &view),
           "filters: an exclude alone takes everything else");
    gp_nvtx_filters_close(&s);
    const char bad[1][GP_NVTX_FILTER_LEN] = {"A//"};
    tap_ok(gp_nvtx_filters_open(&s, inc, 2, bad, 1) == GP_ERR_USAGE && s.n == 0 &&
               strstr(gp_error(), "--nvtx-exclude"),
           "filters: a bad expression opens nothing, its option named");
    char many[GP_NVTX_FILTERS_MAX + 1][GP_NVTX_FILTER_LEN] = {{0}};
    for (int i = 0; i <= GP_NVTX_FILTERS_MAX; i++)
        strcpy(many[i], "A/");
    tap_ok(gp_nvtx_filters_open(&s, (const char(*)[GP_NVTX_FILTER_LEN])many,
                                GP_NVTX_FILTERS_MAX + 1, NULL, 0) == GP_ERR_USAGE,
           "filters: more than 16 refused");
}

void test_nvtx_filter(void)
{
    push_pop_forms();
    start_end_forms();
    regex_and_escapes();
    errors();
    nesting_and_anchors();
    domains_and_start_end();
    regex_forms();
    escapes_and_folded_labels();
    include_and_exclude();
    gp_clear_error();
}
