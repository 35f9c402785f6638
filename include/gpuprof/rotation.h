/* Which counters each profiled launch of a program collects: the whole set, or one of the
 * one-pass groups (counters/pass_groups.c) that exec rotates over a kernel's launches so that
 * no launch needs replay (--replay). Pure decisions on counts, linked into the injected
 * library, which follows them, and into gpuprof, whose unit tests hold them.
 *
 * A change of group costs a fresh range profiler (about 200 ms on the H100, against 0.5 ms
 * a launch inside an open pass; counters/profiler.c), so a context keeps the group it has
 * until a launch's signature lacks another: each signature collects every group once, in
 * the groups' order (those of SASS counters first, whose instrumentation slows a kernel), and
 * then stays in the last, whose launches run uninstrumented and keep their times.
 *
 * A signature is a kernel's code and launch shape (inject/codes.h). One code and shape may
 * still count different instructions from launch to launch, when its arguments change its
 * work (a loop bound): so a signature collects every group again in later rounds, the first
 * at its GP_RECOLLECT_FIRST-th profiled launch, each next one after GP_RECOLLECT_FACTOR times
 * as many. A round costs two changes of group (about 0.4 s on the H100, shared by the
 * signatures whose rounds fall together, as a loop's kernels' do), so at most one per 192
 * profiled launches of a signature (bench/README.md, Code identity). */
#ifndef GPUPROF_ROTATION_H
#define GPUPROF_ROTATION_H

#include "gpuprof/collector.h"
#include "gpuprof/exec_request.h"

#include <stdbool.h>
#include <stdint.h>

/* The set a launch collects: a group's index, or one of these. */
#define GP_SET_WHOLE (-1)   /* every counter: kernel replay, or one pass when it takes one */
#define GP_SET_NONE (-2)    /* no pass yet on the context */

#define GP_RECOLLECT_FIRST 256u
#define GP_RECOLLECT_FACTOR 4u

typedef struct {
    gp_exec_replay mode;
    size_t n_groups;        /* one-pass groups; 0: the whole set takes one pass */
    unsigned app_pass;      /* application: the group this run collects */
    bool recollect;         /* later rounds: for launches that rotate (auto and rotate, not a
                               graph's shadow launches, whose rounds would save the graph's
                               memory again) */
} gp_rotation;

/* What a kernel signature (device, name, code, grid, block, dynamic shared memory)
 * collected. */
typedef struct {
    uint32_t whole;                       /* this round's launches with every counter */
    uint32_t in_group[GP_MAX_GROUPS];     /* this round's launches of each group */
    uint32_t profiled;                    /* launches with counters, every round */
    uint32_t round;                       /* 0: the first */
} gp_signature_state;

/* The set this launch collects, given the set of the context's latest pass. */
int gp_rotation_choose(const gp_rotation *r, const gp_signature_state *s, int latest);
/* Whether the signature still lacks what the mode collects of it: such a launch is
 * profiled beyond its --per-kernel quota. */
bool gp_rotation_lacks(const gp_rotation *r, const gp_signature_state *s);
/* Count one launch of the set; a later round begins when the signature's profiled launches
 * reach the next round's start. */
void gp_rotation_count(const gp_rotation *r, gp_signature_state *s, int set);
/* The profiled launches at which round `round` + 1 begins: GP_RECOLLECT_FIRST times
 * GP_RECOLLECT_FACTOR^round; 0 beyond 32 bits. */
uint32_t gp_rotation_next_round(uint32_t round);
/* The groups a set holds: every group for the whole set. */
gp_group_mask gp_rotation_groups(const gp_rotation *r, int set);

#endif
