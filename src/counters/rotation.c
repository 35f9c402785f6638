/* The choices of gpuprof/rotation.h.
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/rotation.h"

static bool lacks_group(const gp_signature_state *s, size_t g)
{
    return s->whole == 0 && s->in_group[g] == 0;
}

/* The first group the signature lacks, or -1. */
static int first_lacking(const gp_rotation *r, const gp_signature_state *s)
{
    for (size_t g = 0; g < r->n_groups; g++)
        if (lacks_group(s, g))
            return (int)g;
    return -1;
}

/* Keep the latest group when the signature lacks nothing, or in its first round when it
 * lacks that group too (no change of configuration); else the first group lacking, or after
 * the whole set the last group. A later round takes its groups in their order, so that it
 * ends in the last, uninstrumented one. */
static int rotate(const gp_rotation *r, const gp_signature_state *s, int latest)
{
    const int lacking = first_lacking(r, s);
    if (latest >= 0 && (size_t)latest < r->n_groups &&
        (lacking < 0 || (s->round == 0 && lacks_group(s, (size_t)latest))))
        return latest;
    return lacking >= 0 ? lacking : (int)r->n_groups - 1;
}

static bool never_profiled(const gp_rotation *r, const gp_signature_state *s)
{
    for (size_t g = 0; g < r->n_groups; g++)
        if (s->in_group[g])
            return false;
    return s->whole == 0 && s->round == 0;
}

int gp_rotation_choose(const gp_rotation *r, const gp_signature_state *s, int latest)
{
    if (r->n_groups == 0 || r->mode == GP_EXEC_REPLAY_KERNEL)
        return GP_SET_WHOLE;
    if (r->mode == GP_EXEC_REPLAY_APPLICATION)
        return r->app_pass < r->n_groups ? (int)r->app_pass : GP_SET_NONE;
    if (r->mode == GP_EXEC_REPLAY_AUTO && never_profiled(r, s))
        return GP_SET_WHOLE; /* its first profiled launch: every pass, by kernel replay */
    return rotate(r, s, latest);
}

bool gp_rotation_lacks(const gp_rotation *r, const gp_signature_state *s)
{
    if (r->n_groups == 0 || r->mode == GP_EXEC_REPLAY_KERNEL)
        return s->whole == 0;
    if (r->mode == GP_EXEC_REPLAY_APPLICATION)
        return r->app_pass < r->n_groups && lacks_group(s, r->app_pass);
    return first_lacking(r, s) >= 0;
}

uint32_t gp_rotation_next_round(uint32_t round)
{
    uint64_t at = GP_RECOLLECT_FIRST;
    for (uint32_t k = 0; k < round && at <= UINT32_MAX; k++)
        at *= GP_RECOLLECT_FACTOR;
    return at <= UINT32_MAX ? (uint32_t)at : 0;
}

void gp_rotation_count(const gp_rotation *r, gp_signature_state *s, int set)
{
    if (set == GP_SET_WHOLE)
        s->whole++;
    else if (set >= 0 && set < GP_MAX_GROUPS)
        s->in_group[set]++;
    s->profiled++;
    if (!r->recollect || r->n_groups == 0 || s->profiled != gp_rotation_next_round(s->round))
        return;
    s->round++;
    s->whole = 0;
    for (size_t g = 0; g < GP_MAX_GROUPS; g++)
        s->in_group[g] = 0;
}

gp_group_mask gp_rotation_groups(const gp_rotation *r, int set)
{
    if (set == GP_SET_WHOLE)
        return r->n_groups ? (gp_group_mask)((1ull << r->n_groups) - 1) : 0;
    return set >= 0 ? (gp_group_mask)1 << set : 0;
}
