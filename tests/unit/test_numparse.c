/* Number and shape parsing: what the command line accepts and what it refuses. */
#include "tap.h"

#include "gpuprof/numparse.h"
#include "gpuprof/status.h"

#include <stddef.h>
#include <stdint.h>

static void accepts_u64(const char *text, uint64_t want)
{
    uint64_t v = 0;
    int rc = gp_parse_u64(text, &v);
    tap_ok(rc == GP_OK && v == want, "'%s' parses as %llu (got %llu, rc %d)", text,
           (unsigned long long)want, (unsigned long long)v, rc);
}

static void refuses_u64(const char *text)
{
    uint64_t v;
    tap_ok(gp_parse_u64(text, &v) == GP_ERR_USAGE, "'%s' is refused", text);
}

void test_numparse(void)
{
    accepts_u64("16777216", 16777216u);
    accepts_u64("2^24", 16777216u);
    accepts_u64("2^24+7", 16777223u);
    accepts_u64("2^24-1", 16777215u);
    accepts_u64("2^0", 1u);
    accepts_u64("0", 0u);
    accepts_u64("18446744073709551615", UINT64_MAX);
    refuses_u64("");
    refuses_u64("abc");
    refuses_u64("-5");
    refuses_u64("+5");
    refuses_u64("1e6");
    refuses_u64("12 ");
    refuses_u64("2^");
    refuses_u64("3^4");
    refuses_u64("2^63");
    refuses_u64("2^4-17");
    refuses_u64("18446744073709551616");
    refuses_u64("2^62+18446744073709551615");

    uint64_t n;
    tap_ok(gp_parse_size_1d("2^24+7", &n) == GP_OK && n == 16777223u, "1-D size 2^24+7");
    tap_ok(gp_parse_size_1d("0", &n) == GP_ERR_USAGE, "1-D size 0 is refused");
    tap_ok(gp_parse_size_1d("2^37", &n) == GP_ERR_USAGE, "1-D size above 2^36 is refused");

    unsigned nx = 0, ny = 0;
    tap_ok(gp_parse_size_2d("4097x33", &nx, &ny) == GP_OK && nx == 4097 && ny == 33,
           "2-D size 4097x33");
    tap_ok(gp_parse_size_2d("2^12x2^12", &nx, &ny) == GP_OK && nx == 4096 && ny == 4096,
           "2-D size 2^12x2^12");
    tap_ok(gp_parse_size_2d("1x1", &nx, &ny) == GP_OK && nx == 1 && ny == 1, "2-D size 1x1");
    const char *bad2d[] = {"4096", "0x5", "5x0", "axb", "4x4x4", "x4", "4x", "-1x4"};
    for (size_t i = 0; i < sizeof bad2d / sizeof bad2d[0]; i++)
        tap_ok(gp_parse_size_2d(bad2d[i], &nx, &ny) == GP_ERR_USAGE, "2-D size '%s' is refused",
               bad2d[i]);

    gp_dim3 b;
    tap_ok(gp_parse_block("512", false, &b) == GP_OK && b.x == 512 && b.y == 1 && b.z == 1,
           "1-D block 512");
    tap_ok(gp_parse_block("32x16", true, &b) == GP_OK && b.x == 32 && b.y == 16, "block 32x16");
    tap_ok(gp_parse_block("2048", false, &b) == GP_ERR_USAGE, "block 2048 is refused");
    tap_ok(gp_parse_block("64x32", true, &b) == GP_ERR_USAGE, "block 64x32 (2048) is refused");
    tap_ok(gp_parse_block("32", true, &b) == GP_ERR_USAGE, "2-D block without x is refused");
    tap_ok(gp_parse_block("0", false, &b) == GP_ERR_USAGE, "block 0 is refused");
}
