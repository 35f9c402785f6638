/* A sampled graph launch's DRAM traffic shared among its kernel nodes (records/dram_shares.h). */
#include "records/dram_shares.h"

#include "gpuprof/order.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The quality of a node's share, the worst reason first as the note gives one. */
static gp_dram_quality quality_of(const gp_dram_sampling *s, uint64_t start_ns,
                                  uint64_t end_ns, bool overlapped)
{
    if (end_ns < start_ns || start_ns < s->start_ns || end_ns > s->end_ns)
        return GP_DRAM_NA_OUTSIDE;
    if (!s->complete)
        return GP_DRAM_NA_LOST;
    const uint64_t ns = end_ns - start_ns;
    if (s->interval_ns == 0 || ns / s->interval_ns < GP_DRAM_MIN_INTERVALS)
        return GP_DRAM_NA_SHORT;
    if (overlapped)
        return GP_DRAM_NA_OVERLAP;
    return ns < GP_DRAM_EXACT_NS ? GP_DRAM_APPROXIMATE : GP_DRAM_SAMPLED;
}

bool gp_dram_is_known(gp_dram_quality q)
{
    return q == GP_DRAM_SAMPLED || q == GP_DRAM_APPROXIMATE;
}

/* The fraction of the sample inside [start_ns, end_ns]. */
static double covered(const gp_dram_sample *p, uint64_t start_ns, uint64_t end_ns)
{
    const uint64_t from = p->start_ns > start_ns ? p->start_ns : start_ns;
    const uint64_t to = p->end_ns < end_ns ? p->end_ns : end_ns;
    if (p->end_ns <= p->start_ns || to <= from)
        return 0.0;
    return (double)(to - from) / (double)(p->end_ns - p->start_ns);
}

gp_dram_share gp_dram_apportion(const gp_dram_sampling *s, uint64_t start_ns, uint64_t end_ns,
                                bool overlapped)
{
    gp_dram_share share = {NAN, NAN, quality_of(s, start_ns, end_ns, overlapped)};
    if (!gp_dram_is_known(share.quality))
        return share;
    share.read_bytes = share.write_bytes = 0.0;
    for (size_t i = 0; i < s->n_samples && s->samples[i].start_ns < end_ns; i++) {
        const double f = covered(&s->samples[i], start_ns, end_ns);
        share.read_bytes += f * s->samples[i].read_bytes;
        share.write_bytes += f * s->samples[i].write_bytes;
    }
    return share;
}

/* Each quality's note: its format and the one number it takes, if any (an argument left
 * over is ignored, C11 7.21.6.1). */
enum note_number { NO_NUMBER, DURATION_US, INTERVAL_US };
static const struct {
    const char *format;
    enum note_number number;
} notes[GP_DRAM_QUALITIES] = {
    [GP_DRAM_SAMPLED] = {"DRAM sampled (%g µs): writes approximate (L2 write-back lands later)",
                         INTERVAL_US},
    [GP_DRAM_APPROXIMATE] = {"DRAM approximate: %.1f µs is under " GP_TEXT(GP_DRAM_EXACT_US)
                             " µs", DURATION_US},
    [GP_DRAM_NA_OUTSIDE] = {"DRAM n/a: it ran outside the sampling window", NO_NUMBER},
    [GP_DRAM_NA_LOST] = {"DRAM n/a: samples were lost", NO_NUMBER},
    [GP_DRAM_NA_SHORT] = {"DRAM n/a: %.1f µs is under " GP_TEXT(GP_DRAM_MIN_INTERVALS)
                          " sampling intervals", DURATION_US},
    [GP_DRAM_NA_OVERLAP] = {"DRAM n/a: overlaps other work on the device", NO_NUMBER},
};

void gp_dram_note(gp_dram_quality q, uint64_t duration_ns, uint64_t interval_ns, char *note,
                  size_t size)
{
    const uint64_t ns = notes[q].number == DURATION_US ? duration_ns : interval_ns;
    snprintf(note, size, notes[q].format, (double)ns / 1e3);
}

/* ---- overlaps ------------------------------------------------------------------------------ */

static int by_device_and_start(const void *a, const void *b)
{
    const gp_busy_interval *x = a, *y = b;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    const int start = gp_order_u64(x->start_ns, y->start_ns);
    return start ? start : gp_order_u64(x->end_ns, y->end_ns);
}

static bool has_time(const gp_busy_interval *v)
{
    return v->end_ns >= v->start_ns;
}

/* Sorted by start, an interval overlaps an earlier one when the latest end before it is past
 * its start, and a later one when the next start is before its end. */
void gp_mark_overlaps(gp_busy_interval *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, by_device_and_start);
    uint64_t latest_end = 0;
    const gp_busy_interval *previous = NULL;  /* the last one with a time on its device */
    for (size_t i = 0; i < n; i++) {
        v[i].overlapped = false;
        if (!has_time(&v[i]))
            continue;
        if (!previous || previous->device != v[i].device)
            latest_end = 0;
        else if (latest_end > v[i].start_ns + GP_OVERLAP_SLACK_NS)
            v[i].overlapped = true;
        for (size_t k = i + 1; k < n && v[k].device == v[i].device; k++)
            if (has_time(&v[k])) {
                v[i].overlapped |= v[k].start_ns + GP_OVERLAP_SLACK_NS < v[i].end_ns;
                break;
            }
        latest_end = v[i].end_ns > latest_end ? v[i].end_ns : latest_end;
        previous = &v[i];
    }
}
