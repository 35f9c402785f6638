/* The names of how an exec launch's metrics were obtained, held to the GP_ORIGIN_* bits. */
#include "tap.h"

#include "gpuprof/origin_names.h"

#include <string.h>

static const struct {
    unsigned bit;
    const char *name;
} expected[] = {
    {GP_ORIGIN_RANGE, "range"},
    {GP_ORIGIN_SHADOW, "shadow"},
    {GP_ORIGIN_SAMPLED, "sampled"},
    {GP_ORIGIN_GRAPH, "graph"},
};

static void table_holds_the_bits(void)
{
    tap_ok(sizeof expected / sizeof expected[0] == GP_ORIGINS,
           "origin names: one per GP_ORIGIN_* bit");
    for (size_t i = 0; i < GP_ORIGINS; i++) {
        unsigned bit = 0;
        const char *names[GP_ORIGINS];
        tap_ok(gp_origin_from_name(expected[i].name, &bit) && bit == expected[i].bit,
               "origin names: '%s' is its bit", expected[i].name);
        tap_ok(gp_origins_to_list(expected[i].bit, names) == 1 &&
               strcmp(names[0], expected[i].name) == 0,
               "origin names: bit %#x lists '%s'", expected[i].bit, expected[i].name);
    }
    unsigned bit = 7;
    tap_ok(!gp_origin_from_name("Shadow", &bit) && !gp_origin_from_name("", &bit) && bit == 7,
           "origin names: another name is refused and leaves the bit alone");
}

static void lists_and_joins(void)
{
    const char *names[GP_ORIGINS];
    tap_ok(gp_origins_to_list(0, names) == 0, "origin names: none lists nothing");
    const size_t n = gp_origins_to_list(GP_ORIGIN_SAMPLED | GP_ORIGIN_SHADOW | (1u << 9), names);
    tap_ok(n == 2 && strcmp(names[0], "shadow") == 0 && strcmp(names[1], "sampled") == 0,
           "origin names: lowest bit first, bits beyond the table passed over");
    char buf[64];
    gp_origins_join(GP_ORIGIN_SHADOW | GP_ORIGIN_SAMPLED, "+", buf, sizeof buf);
    tap_str_eq(buf, "shadow+sampled", "origin names: joined with '+'");
    gp_origins_join(0, "+", buf, sizeof buf);
    tap_str_eq(buf, "", "origin names: none joins to \"\"");
    char small[8];
    gp_origins_join(GP_ORIGIN_RANGE | GP_ORIGIN_GRAPH, ", ", small, sizeof small);
    tap_str_eq(small, "range, ", "origin names: a short buffer is cut, not overrun");
}

void test_origin_names(void)
{
    table_holds_the_bits();
    lists_and_joins();
}
