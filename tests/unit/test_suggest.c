/* "Did you mean": gp_suggest against the real tables (commands, options, variants,
 * metrics) and its rule's edges: ties, prefixes, case, long words. */
#include "tap.h"

#include "gpuprof/cli.h"
#include "cli/command_table.h"
#include "gpuprof/metrics.h"
#include "gpuprof/registry.h"
#include "gpuprof/suggest.h"

#include <string.h>

static const char *names[256];
static size_t n_names;

/* The kernel commands (one per family), then the others. */
static void command_names(void)
{
    size_t families, commands;
    const gp_family *f = gp_family_table(&families);
    const gp_command_def *t = gp_command_table(&commands);
    n_names = 0;
    for (size_t i = 0; i < families && n_names < 256; i++)
        names[n_names++] = f[i].name;
    for (size_t i = 0; i < commands && n_names < 256; i++)
        names[n_names++] = t[i].name;
}

static void option_names(void)
{
    for (n_names = 0; n_names < OPT_COUNT; n_names++)
        names[n_names] = gp_option((gp_option_id)n_names)->name;
}

static void variant_names(const char *family)
{
    const gp_family *f = gp_find_family(family);
    for (n_names = 0; f && n_names < f->n_variants && n_names < 256; n_names++)
        names[n_names] = f->variants[n_names].name;
}

static void metric_names(void)
{
    size_t count;
    const gp_metric_def *m = gp_metric_catalogue(&count);
    for (n_names = 0; n_names < count && n_names < 256; n_names++)
        names[n_names] = m[n_names].key;
}

static void suggests(const char *word, const char *want)
{
    const char *got = gp_suggest(word, names, n_names);
    if (want)
        tap_ok(got && strcmp(got, want) == 0, "'%s' -> '%s' (got '%s')", word, want,
               got ? got : "(none)");
    else
        tap_ok(got == NULL, "'%s' -> nothing (got '%s')", word, got ? got : "(none)");
}

void test_suggest(void)
{
    variant_names("reduce");
    suggests("unrolwarps8", "unrollwarps8");        /* a deletion */
    suggests("unrolling", NULL);                    /* as close to unrolling2, 4 and 8 */
    suggests("unrolling3", NULL);                   /* ... and so is this */
    suggests("neighbroed", "neighbored");           /* two swapped neighbours cost 1 */
    suggests("shlf", "shfl");
    suggests("Shfl", "shfl");                       /* case aside ... */
    suggests("SHFL", "shfl");                       /* ... however many letters */
    suggests("SHLF", "shfl");                       /* a swap, case aside */
    suggests("threadfenc", "threadfence");
    suggests("complete", NULL);                     /* begins two variants */
    suggests("completeunrol", "completeunroll");
    suggests("xyz", NULL);

    command_names();
    suggests("reduse", "reduce");
    suggests("transpos", "transpose");
    suggests("trans", "transpose");                 /* far, but begins only transpose */
    suggests("TRANS", "transpose");                 /* ... case aside */
    suggests("REDUCE", "reduce");
    suggests("reduce2", "reduce2d");
    suggests("sxapy", "saxpy");
    suggests("lits", "list");
    suggests("xyz", NULL);
    suggests("r", NULL);                            /* too short for a prefix */

    option_names();                                 /* the caller strips the dashes */
    suggests("blok", "block");
    suggests("varient", "variant");
    suggests("no-heder", "no-header");
    suggests("metrics-detial", "metrics-detail");
    suggests("jsno", "json");
    suggests("Block", "block");
    suggests("VARIANT", "variant");
    suggests("xyz", NULL);

    metric_names();
    suggests("gld_efficency", "gld_efficiency");
    suggests("gst_efficienyc", "gst_efficiency");
    suggests("gld_transactions_per_reqest", "gld_transactions_per_request");
    suggests("xyz", NULL);

    /* Edges. */
    static const char *const few[] = {"alpha", NULL, "beta", "alpha"};
    tap_ok(gp_suggest("alpah", few, 4) == few[0], "a NULL entry and a repeated name are no tie");
    tap_ok(gp_suggest("alpha", few, 4) == few[0], "an exact match is returned");
    tap_ok(gp_suggest("", few, 4) == NULL, "an empty word: nothing");
    tap_ok(gp_suggest(NULL, few, 4) == NULL && gp_suggest("beta", NULL, 4) == NULL &&
               gp_suggest("beta", few, 0) == NULL, "NULL word, NULL or empty list: nothing");
    static const char *const short_ones[] = {"ab", "xy"};
    tap_ok(gp_suggest("a", short_ones, 2) == short_ones[0], "one letter: distance 1 allowed");
    tap_ok(gp_suggest("q", short_ones, 2) == NULL, "one letter, two letters off: nothing");

    char longest[GP_SUGGEST_MAX_LEN + 2];
    memset(longest, 'a', sizeof longest - 1);
    longest[GP_SUGGEST_MAX_LEN] = '\0';            /* 64 characters */
    const char *one[] = {longest};
    char word[GP_SUGGEST_MAX_LEN + 2];
    memcpy(word, longest, sizeof word);
    word[10] = 'b';
    tap_ok(gp_suggest(word, one, 1) == one[0], "a 64-character word is compared");
    memset(word, 'a', sizeof word - 1);
    word[GP_SUGGEST_MAX_LEN + 1] = '\0';            /* 65 characters */
    tap_ok(gp_suggest(word, one, 1) == NULL, "a 65-character word: nothing");
    memset(longest, 'a', sizeof longest - 1);
    longest[GP_SUGGEST_MAX_LEN + 1] = '\0';         /* a 65-character candidate */
    tap_ok(gp_suggest("aaaa", one, 1) == NULL, "a 65-character candidate is never suggested");
}
