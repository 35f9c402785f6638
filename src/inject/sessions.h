/* A context's profiling sessions, and the records of the launches they profile.
 *
 * Each profiled launch collects a set of counters (gpuprof/rotation.h): the whole set, or one
 * of its one-pass groups. A set of several passes, or of SASS counters, is collected in a
 * session per launch, started at its API entry and decoded at its exit, CUPTI replaying the
 * kernel inside the launch call (once per pass; with one pass the kernel runs once, and no
 * memory is saved). The other sets of one pass need no replay: the program's own run of
 * each kernel is the pass, and one pass holds the consecutive profiled launches of the
 * context that collect that set, a range each, decoded every GP_PASS_RANGES launches, before
 * a launch of another set, before anything that must not become a range runs there (a
 * launch not profiled, a graph), and at the end of the context or process. On the H100 a
 * range inside a pass costs about 0.5 ms, a pass's start and stop about 15 ms, a change of
 * set about 200 ms (bench/README.md, Rotation). */
#ifndef GPUPROF_INJECT_SESSIONS_H
#define GPUPROF_INJECT_SESSIONS_H

#include "inject/inject.h"

#include "gpuprof/rotation.h"
#include "gpuprof/collector.h"
#include "gpuprof/hashmap.h"

#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

/* Ranges of one pass: its start costs more the more it holds (bench/README.md). */
#define GP_PASS_RANGES 32

/* --replay=auto replays a signature's first launch only while CUPTI can save the device
 * memory in use in free device memory (beyond it, CUPTI saves to host memory: 35 s for one
 * launch holding 100 GiB on the H200) and that memory is at most this much: kernel replay
 * costs 3 to 5 ms per GiB held per launch on the H100 (bench/README.md, Rotation), so 16 GiB
 * keeps a replay near 80 ms, under ncu's own cost per launch. Otherwise every launch collects
 * one group, as under rotate. */
#define GP_AUTO_REPLAY_BUDGET (16ull << 30)

/* A profiled launch, as its record says it. */
typedef struct {
    uint32_t id;                       /* correlation id */
    uint32_t stream;
    char *kernel;                      /* mangled name; owned while pending */
    uint64_t code;                     /* its cubin's CRC, 0: not known (inject/codes.h) */
    unsigned grid[3], block[3], smem;
    bool shadow;                       /* a CUDA graph's kernel node launched alone before the
                                          program's graph launch `id` (graph_launches.h) */
    uint32_t graph;                    /* shadow: the executable graph's id, */
    uint64_t node;                     /* and the node's (0: not known) */
    bool whole_graph;                  /* a whole graph launch `id` (graph: its id, node 0) */
    bool collective;                   /* a collective kernel (gpuprof/collectives.h): never
                                          replayed, never shadow-launched */
} gp_launch_info;

typedef struct {
    CUcontext ctx;
    uint32_t uid, device;
    gp_collector *collector;           /* NULL: nothing is profiled on this context */
    gp_rotation rotation;              /* which set each launch collects */
    gp_hashmap signatures;             /* gp_signature_state by launch signature: name, code
                                          and shape */
    int latest;                        /* the set of the latest session or pass */
    bool pass_open;                    /* a pass of `latest` is open */
    gp_launch_info pending[GP_PASS_RANGES];
    size_t n_pending;
    size_t graph_ranges;               /* whole-graph ranges collected (they rotate over the
                                          hardware groups) */
    int auto_replays;                  /* auto's latest decision (its `footprint` record):
                                          1 replay, 0 not, -1 none yet */
    bool refused_collective;           /* --replay=kernel refused a collective (said once) */
    bool collectives;                  /* a collective was launched on the context: its
                                          peers write this device's memory, which a replay
                                          would restore (gp_sessions_saw) */
    bool said_collectives;             /* auto's warning that it replays no more, written */
} gp_sessions;

/* The context's work finished (its launches' kernels complete). Relaxed: another thread's
 * graph capture is not broken by this synchronisation. */
void gp_sessions_synchronise(CUcontext ctx);
/* A `launch` record of a launch neither profiled nor timed (the patched launch of
 * source_pass.h, which has no activity record). */
void gp_sessions_write_unprofiled(const gp_sessions *s, const gp_launch_info *l);

/* Attach an opened collector to the context for the replay mode (split into one-pass groups
 * where the mode rotates and the set takes several passes; application: the group of this
 * run); on success the sessions own it. */
int gp_sessions_attach(gp_sessions *s, gp_collector *c, gp_exec_replay mode, unsigned app_pass);
/* Close the collector and forget the signatures (the context is going). */
void gp_sessions_detach(gp_sessions *s);

/* Every launch on the context, profiled or not, before anything else of it: after a
 * collective, --replay=auto replays nothing more (said in a warning at the first launch it
 * would have replayed) and --replay=kernel profiles nothing more (gp_sessions_refuses): a
 * replay restores device memory that a collective's peers write while it runs. */
void gp_sessions_saw(gp_sessions *s, const gp_launch_info *l);
/* Whether the launch is refused its counters: under --replay=kernel with a set of several
 * passes, a collective or any launch after one (it would be replayed). The first refusal is
 * said in a warning. */
bool gp_sessions_refuses(gp_sessions *s, const gp_launch_info *l);
/* Whether a launch of this signature is still to be profiled beyond its --per-kernel quota
 * (it lacks a group the mode collects). */
bool gp_sessions_lacks(gp_sessions *s, const gp_launch_info *l);
/* At a profiled launch's API entry: the set it collects is chosen, and its session or pass
 * is running once this is true. */
bool gp_sessions_start(gp_sessions *s, const gp_launch_info *l);
/* At its API exit: `ran` when the launch succeeded. Its record is written now (a session of
 * its own) or when its pass ends. True when it has (or will have) counters. */
bool gp_sessions_launched(gp_sessions *s, const gp_launch_info *l, bool ran);
/* Before anything that must not be counted runs on the context: the open pass is stopped,
 * decoded, and its launches written. */
void gp_sessions_end_pass(gp_sessions *s);

/* --graph-profiling=graph: one range around a whole graph launch, of a group of hardware
 * counters (a graph's nodes have no instruction-level counters in a range of their own;
 * successive graph launches rotate over the groups). At the launch's API entry: the set
 * begun, its session started and its range pushed; GP_SET_NONE when the counters have no
 * hardware group or the profiler failed (said in a warning). */
int gp_sessions_graph_begin(gp_sessions *s);
/* At its API exit, the launch finished (`ran`: it succeeded): the range written as the
 * graph launch's record (how "graph"). */
void gp_sessions_graph_end(gp_sessions *s, const gp_launch_info *l, int set, bool ran);

#endif
