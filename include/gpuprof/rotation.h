/* Which counters each profiled launch of a program collects: the whole set, or one of the
 * one-pass groups (counters/pass_groups.c) that exec rotates over a kernel's launches so that
 * no launch needs replay (--replay). Pure decisions on counts, linked into the injected
 * library, which follows them, and into gpuprof, whose unit tests hold them.
 *
 * A change of group costs a fresh range profiler (about 200 ms on the H100, against 0.5 ms
 * a launch inside an open pass; counters/profiler.c), so a context keeps the group it has
 * until a launch's signature lacks another: each signature collects every group once, in
 * the groups' order (those of SASS counters first, whose instrumentation slows a kernel), and
 * then stays in the last, whose launches run uninstrumented and keep their times. */
#ifndef GPUPROF_ROTATION_H
#define GPUPROF_ROTATION_H

#include "gpuprof/collector.h"
#include "gpuprof/exec_request.h"

#include <stdbool.h>
#include <stdint.h>

/* The set a launch collects: a group's index, or one of these. */
#define GP_SET_WHOLE (-1)   /* every counter: kernel replay, or one pass when it takes one */
#define GP_SET_NONE (-2)    /* no pass yet on the context */

typedef struct {
    gp_exec_replay mode;
    size_t n_groups;        /* one-pass groups; 0: the whole set takes one pass */
    unsigned app_pass;      /* application: the group this run collects */
} gp_rotation;

/* What a kernel signature (device, name, grid, block, dynamic shared memory) collected. */
typedef struct {
    uint32_t whole;                       /* launches with every counter */
    uint32_t in_group[GP_MAX_GROUPS];     /* launches of each group */
} gp_signature_state;

/* The set this launch collects, given the set of the context's latest pass. */
int gp_rotation_choose(const gp_rotation *r, const gp_signature_state *s, int latest);
/* Whether the signature still lacks what the mode collects of it: such a launch is
 * profiled beyond its --per-kernel quota. */
bool gp_rotation_lacks(const gp_rotation *r, const gp_signature_state *s);
/* Count one launch of the set. */
void gp_rotation_count(gp_signature_state *s, int set);
/* The groups a set holds: every group for the whole set. */
gp_group_mask gp_rotation_groups(const gp_rotation *r, int set);

#endif
