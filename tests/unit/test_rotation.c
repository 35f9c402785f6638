/* exec's rotation (src/counters/rotation.c): which counters each launch collects in every
 * --replay mode, on two one-pass groups as GH100's default set has. */
#include "tap.h"

#include "gpuprof/rotation.h"

#include <string.h>

/* Launch a signature `n` times from `latest`; the sets chosen in turn into sets[]; the last
 * set chosen is returned. */
static int launch(const gp_rotation *r, gp_signature_state *s, int latest, int n, int *sets)
{
    for (int i = 0; i < n; i++) {
        latest = gp_rotation_choose(r, s, latest);
        gp_rotation_count(r, s, latest);
        sets[i] = latest;
    }
    return latest;
}

static bool sets_are(const int *got, const int *want, int n)
{
    return memcmp(got, want, (size_t)n * sizeof *got) == 0;
}

static void modes(void)
{
    int sets[8];
    gp_signature_state s;
    gp_rotation r = {.mode = GP_EXEC_REPLAY_AUTO, .n_groups = 2};

    memset(&s, 0, sizeof s);
    launch(&r, &s, GP_SET_NONE, 4, sets);
    tap_ok(sets_are(sets, (int[]){GP_SET_WHOLE, 1, 1, 1}, 4),
           "auto: the first launch replays the whole set, the later ones stay in the last group");
    tap_ok(!gp_rotation_lacks(&r, &s), "auto: after the whole set, nothing lacks");

    r.mode = GP_EXEC_REPLAY_ROTATE;
    memset(&s, 0, sizeof s);
    launch(&r, &s, GP_SET_NONE, 4, sets);
    tap_ok(sets_are(sets, (int[]){0, 1, 1, 1}, 4),
           "rotate: group 0, then group 1 once it has 0, then stays");
    memset(&s, 0, sizeof s);
    tap_ok(gp_rotation_lacks(&r, &s), "rotate: a new signature lacks groups");
    launch(&r, &s, 1, 3, sets);
    tap_ok(sets_are(sets, (int[]){1, 0, 0}, 3),
           "rotate: a new signature takes the open group first (no change of configuration)");
    tap_ok(!gp_rotation_lacks(&r, &s), "rotate: with both groups nothing lacks");

    r.mode = GP_EXEC_REPLAY_KERNEL;
    memset(&s, 0, sizeof s);
    launch(&r, &s, GP_SET_NONE, 3, sets);
    tap_ok(sets_are(sets, (int[]){GP_SET_WHOLE, GP_SET_WHOLE, GP_SET_WHOLE}, 3),
           "kernel: every launch the whole set");

    r.mode = GP_EXEC_REPLAY_APPLICATION;
    r.app_pass = 1;
    memset(&s, 0, sizeof s);
    tap_ok(gp_rotation_lacks(&r, &s), "application: lacks its run's group at first");
    launch(&r, &s, GP_SET_NONE, 2, sets);
    tap_ok(sets_are(sets, (int[]){1, 1}, 2) && !gp_rotation_lacks(&r, &s),
           "application: every launch the run's group");

    r = (gp_rotation){.mode = GP_EXEC_REPLAY_ROTATE, .n_groups = 0};
    memset(&s, 0, sizeof s);
    launch(&r, &s, GP_SET_NONE, 2, sets);
    tap_ok(sets_are(sets, (int[]){GP_SET_WHOLE, GP_SET_WHOLE}, 2),
           "a set of one pass: every mode collects it whole, no rotation");
}

/* Two signatures interleaved, as a loop over two kernels: one change of group in all. */
static void interleaved(void)
{
    gp_rotation r = {.mode = GP_EXEC_REPLAY_ROTATE, .n_groups = 2};
    gp_signature_state a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    int latest = GP_SET_NONE, changes = 0, chosen[12];
    for (int i = 0; i < 12; i++) {
        gp_signature_state *s = i % 2 ? &b : &a;
        const int set = gp_rotation_choose(&r, s, latest);
        changes += latest != GP_SET_NONE && set != latest;
        gp_rotation_count(&r, s, set);
        chosen[i] = latest = set;
    }
    tap_ok(changes == 1 && chosen[11] == 1 && !gp_rotation_lacks(&r, &a) &&
               !gp_rotation_lacks(&r, &b),
           "rotate, two kernels in turn: both get both groups with one change (%d)", changes);
    tap_ok(gp_rotation_groups(&r, GP_SET_WHOLE) == 3 && gp_rotation_groups(&r, 1) == 2,
           "the whole set holds every group, a group itself");
}

/* The sets of launches first .. first + n - 1 of one signature, launched `total` times from
 * a context in group `latest`. */
static void sets_between(const gp_rotation *r, int latest, int total, int first, int n,
                         int *sets)
{
    gp_signature_state s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < total; i++) {
        latest = gp_rotation_choose(r, &s, latest);
        gp_rotation_count(r, &s, latest);
        if (i >= first && i < first + n)
            sets[i - first] = latest;
    }
}

/* Later rounds: one code and shape collects its groups again at its 256th profiled launch,
 * then its 1024th, and returns to the last group. */
static void rounds(void)
{
    tap_ok(gp_rotation_next_round(0) == 256 && gp_rotation_next_round(1) == 1024 &&
               gp_rotation_next_round(2) == 4096 && gp_rotation_next_round(12) == 0,
           "rounds begin at the 256th profiled launch, then every 4 times as many; none "
           "beyond 32 bits");
    int sets[4];
    gp_rotation r = {.mode = GP_EXEC_REPLAY_AUTO, .n_groups = 2, .recollect = true};
    sets_between(&r, GP_SET_NONE, 260, 254, 4, sets);
    tap_ok(sets_are(sets, (int[]){1, 1, 0, 1}, 4),
           "auto: launch 257 collects group 0 again (no replay), 258 returns to group 1");
    sets_between(&r, GP_SET_NONE, 1030, 1022, 4, sets);
    tap_ok(sets_are(sets, (int[]){1, 1, 0, 1}, 4), "auto: and again at launch 1025");
    r.mode = GP_EXEC_REPLAY_ROTATE;
    sets_between(&r, 1, 260, 255, 3, sets);
    tap_ok(sets_are(sets, (int[]){0, 0, 1}, 3),
           "rotate: a signature that ended in group 0 takes its round there, then group 1");
    r.recollect = false;
    sets_between(&r, GP_SET_NONE, 300, 255, 3, sets);
    tap_ok(sets_are(sets, (int[]){1, 1, 1}, 3), "without recollect (a graph's shadow "
                                                 "launches): no later round");
    r = (gp_rotation){.mode = GP_EXEC_REPLAY_KERNEL, .n_groups = 2, .recollect = true};
    sets_between(&r, GP_SET_NONE, 260, 255, 3, sets);
    tap_ok(sets_are(sets, (int[]){GP_SET_WHOLE, GP_SET_WHOLE, GP_SET_WHOLE}, 3),
           "kernel: every launch has every counter, no round needed");

    /* A loop of two kernels whose rounds fall together: two changes of group for both. */
    r = (gp_rotation){.mode = GP_EXEC_REPLAY_AUTO, .n_groups = 2, .recollect = true};
    gp_signature_state a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    int latest = GP_SET_NONE, changes = 0;
    for (int i = 0; i < 2 * 300; i++) {
        gp_signature_state *s = i % 2 ? &b : &a;
        const int set = gp_rotation_choose(&r, s, latest);
        changes += i >= 4 && set != latest;
        gp_rotation_count(&r, s, set);
        latest = set;
    }
    tap_ok(changes == 2 && latest == 1 && a.round == 1 && b.round == 1 &&
               !gp_rotation_lacks(&r, &a) && !gp_rotation_lacks(&r, &b),
           "two kernels in turn: their rounds cost two changes of group in all (%d)", changes);
}

void test_rotation(void)
{
    modes();
    interleaved();
    rounds();
}
