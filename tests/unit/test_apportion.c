/* A sampled graph launch's DRAM samples shared among its kernel nodes (records/dram_shares.h):
 * the bytes, the quality and its note, and the overlaps that make a node's share n/a. */
#include "tap.h"

#include "records/dram_shares.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Four 1 µs samples from 10 000 ns: 1000, 2000, 3000, 4000 bytes read, a tenth as many
 * written. */
static const gp_dram_sample four[] = {
    {10000, 11000, 1000, 100}, {11000, 12000, 2000, 200},
    {12000, 13000, 3000, 300}, {13000, 14000, 4000, 400},
};

static gp_dram_sampling sampling_of(bool complete)
{
    return (gp_dram_sampling){10000, 14000, 1000, complete, four, 4};
}

static void shares(void)
{
    const gp_dram_sampling s = sampling_of(true);
    /* [10 500, 13 250]: half of the first, the second and third whole, a quarter of the
     * fourth: 500 + 2000 + 3000 + 1000 read; 50 + 200 + 300 + 100 written. */
    gp_dram_share share = gp_dram_apportion(&s, 10500, 13250, false);
    tap_near(share.read_bytes, 6500.0, 1e-9, "apportion: each sample weighted by the part of "
                                             "it the node covers (reads)");
    tap_near(share.write_bytes, 650.0, 1e-9, "apportion: the same for writes");
    tap_ok(share.quality == GP_DRAM_APPROXIMATE, "apportion: 2.75 µs is approximate");
    share = gp_dram_apportion(&s, 10000, 14000, false);
    tap_near(share.read_bytes, 10000.0, 1e-9, "apportion: the whole window, every byte");
    tap_ok(share.quality == GP_DRAM_APPROXIMATE, "apportion: 4 µs is still approximate");

    /* A window of 1 µs samples over 6 µs: a node of exactly 5 µs is sampled. */
    static const gp_dram_sample six[] = {{0, 1000, 10, 1}, {1000, 2000, 10, 1},
                                         {2000, 3000, 10, 1}, {3000, 4000, 10, 1},
                                         {4000, 5000, 10, 1}, {5000, 6000, 10, 1}};
    const gp_dram_sampling long_window = {0, 6000, 1000, true, six, 6};
    share = gp_dram_apportion(&long_window, 500, 5500, false);
    tap_ok(share.quality == GP_DRAM_SAMPLED && share.read_bytes == 50.0 &&
               share.write_bytes == 5.0,
           "apportion: a node of 5 µs is sampled, 50 bytes read and 5 written");
    share = gp_dram_apportion(&long_window, 500, 5499, false);
    tap_ok(share.quality == GP_DRAM_APPROXIMATE, "apportion: 4.999 µs is approximate");
}

static void not_known(void)
{
    const gp_dram_sampling s = sampling_of(true), lost = sampling_of(false);
    static const struct {
        const char *what;
        uint64_t start, end;
        bool overlapped, lost;
        gp_dram_quality want;
    } cases[] = {
        {"a node that starts before the window", 9999, 13000, false, false, GP_DRAM_NA_OUTSIDE},
        {"a node that ends after the window", 11000, 14001, false, false, GP_DRAM_NA_OUTSIDE},
        {"a node without a known time", 12000, 11000, false, false, GP_DRAM_NA_OUTSIDE},
        {"samples lost", 10000, 14000, false, true, GP_DRAM_NA_LOST},
        {"a node under 2 intervals", 10000, 11999, false, false, GP_DRAM_NA_SHORT},
        {"a node overlapped", 10000, 14000, true, false, GP_DRAM_NA_OVERLAP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gp_dram_share share = gp_dram_apportion(cases[i].lost ? &lost : &s,
                                                      cases[i].start, cases[i].end,
                                                      cases[i].overlapped);
        tap_ok(share.quality == cases[i].want && isnan(share.read_bytes) &&
                   isnan(share.write_bytes) && !gp_dram_is_known(share.quality),
               "apportion: %s: n/a, no bytes", cases[i].what);
    }
    tap_ok(gp_dram_apportion(&s, 10000, 12000, false).quality == GP_DRAM_APPROXIMATE,
           "apportion: exactly 2 intervals is enough");
}

static void notes(void)
{
    static const struct {
        gp_dram_quality q;
        uint64_t ns;
        const char *want;
    } cases[] = {
        {GP_DRAM_SAMPLED, 8000, "DRAM sampled (1 µs): writes approximate (L2 write-back lands "
                                "later)"},
        {GP_DRAM_APPROXIMATE, 3100, "DRAM approximate: 3.1 µs is under 5 µs"},
        {GP_DRAM_NA_OUTSIDE, 3100, "DRAM n/a: it ran outside the sampling window"},
        {GP_DRAM_NA_LOST, 3100, "DRAM n/a: samples were lost"},
        {GP_DRAM_NA_SHORT, 1200, "DRAM n/a: 1.2 µs is under 2 sampling intervals"},
        {GP_DRAM_NA_OVERLAP, 3100, "DRAM n/a: overlaps other work on the device"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char note[256];
        gp_dram_note(cases[i].q, cases[i].ns, 1000, note, sizeof note);
        tap_str_eq(note, cases[i].want, "apportion: each quality's note");
    }
}

/* The flags of the intervals tagged 0 .. n-1, in tag order, as "0110". */
static void flags_by_tag(const gp_busy_interval *v, size_t n, char *flags)
{
    for (size_t i = 0; i < n; i++)
        flags[v[i].tag] = v[i].overlapped ? '1' : '0';
    flags[n] = '\0';
}

static void overlaps(void)
{
    /* A diamond's branches on device 0 (1 and 2 at once), its head and tail touching them;
     * a long copy on device 1 holding two later kernels that do not touch each other; a
     * kernel without a known time beside them; one alone on device 2. */
    gp_busy_interval v[] = {
        {0, 100000, 200000, 0, false}, {0, 200000, 400000, 1, false},
        {0, 250000, 300000, 2, false}, {0, 400000, 500000, 3, false},
        {1, 100000, 1000000, 4, false}, {1, 300000, 400000, 5, false},
        {1, 500000, 600000, 6, false}, {1, 550000, 50000, 7, false},
        {2, 120000, 130000, 8, true},
    };
    const size_t n = sizeof v / sizeof v[0];
    gp_mark_overlaps(v, n);
    char flags[16];
    flags_by_tag(v, n, flags);
    tap_str_eq(flags, "011011100", "overlaps: concurrent branches, intervals inside a longer "
                                   "one; not touching ends, other devices, unknown times");
    /* Consecutive graph nodes whose recorded times share less than the slack. */
    gp_busy_interval near[] = {{0, 100000, 200500, 0, true}, {0, 200000, 300000, 1, true},
                               {0, 300000 - GP_OVERLAP_SLACK_NS - 1, 400000, 2, false}};
    gp_mark_overlaps(near, 3);
    flags_by_tag(near, 3, flags);
    tap_str_eq(flags, "011", "overlaps: a sharing of up to GP_OVERLAP_SLACK_NS is not one, "
                             "a longer one is");
    gp_busy_interval one = {0, 1, 2, 0, true};
    gp_mark_overlaps(&one, 1);
    tap_ok(!one.overlapped, "overlaps: an interval alone overlaps nothing");
}

void test_apportion(void)
{
    shares();
    not_known();
    notes();
    overlaps();
}
