/* The hash map: strings and integer structs as keys, values zeroed when added, growth that
 * keeps every entry, sets of no value, iteration over all. */
#include "tap.h"

#include "gpuprof/hashmap.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    int pid;
    unsigned long long number;
} pid_number;

static void strings(void)
{
    gp_hashmap m;
    gp_hashmap_init(&m, sizeof(long));
    tap_ok(gp_hashmap_find_str(&m, "a") == NULL, "hashmap: an empty map finds nothing");
    bool added = false;
    long *v = gp_hashmap_add_str(&m, "kernel", &added);
    tap_ok(v && added && *v == 0, "hashmap: a new key is added with a zeroed value");
    *v = 42;
    v = gp_hashmap_add_str(&m, "kernel", &added);
    tap_ok(v && !added && *v == 42, "hashmap: adding a present key gives its value");
    tap_ok(gp_hashmap_find_str(&m, "kerne") == NULL && gp_hashmap_find_str(&m, "kernels") == NULL,
           "hashmap: keys of another length are other keys");
    char name[32];
    for (long i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "k%ld", i);
        long *x = gp_hashmap_add_str(&m, name, NULL);
        if (x)
            *x = i;
    }
    bool all = m.count == 5001;
    for (long i = 0; i < 5000 && all; i++) {
        snprintf(name, sizeof name, "k%ld", i);
        const long *x = gp_hashmap_find_str(&m, name);
        all = x && *x == i;
    }
    tap_ok(all, "hashmap: 5000 keys added through growth are all found with their values");
    tap_ok(m.n_slots >= 2 * m.count, "hashmap: at most half full (%zu of %zu)", m.count,
           m.n_slots);
    size_t cursor = 0, seen = 0, key_len = 0;
    const void *key = NULL;
    long sum = 0;
    for (long *x; (x = gp_hashmap_next(&m, &cursor, &key, &key_len)) != NULL; seen++)
        sum += *x;
    tap_ok(seen == 5001 && sum == 42 + 4999L * 5000 / 2, "hashmap: iteration visits every entry");
    gp_hashmap_free(&m);
    tap_ok(m.count == 0 && gp_hashmap_find_str(&m, "kernel") == NULL,
           "hashmap: freed, it is empty again");
}

static void structs_and_sets(void)
{
    gp_hashmap m;
    gp_hashmap_init(&m, sizeof(const char *));
    pid_number a = {7, 1}, b = {7, 2}, c = {8, 1};
    *(const char **)gp_hashmap_add(&m, &a, sizeof a, NULL) = "first";
    *(const char **)gp_hashmap_add(&m, &b, sizeof b, NULL) = "second";
    const char **got_c = gp_hashmap_find(&m, &c, sizeof c);
    const char **got_b = gp_hashmap_find(&m, &b, sizeof b);
    tap_ok(!got_c && got_b && strcmp(*got_b, "second") == 0,
           "hashmap: struct keys are told apart by every field");
    gp_hashmap_free(&m);

    gp_hashmap set;
    gp_hashmap_init(&set, 0);
    unsigned id = 5;
    bool added = false;
    tap_ok(gp_hashmap_add(&set, &id, sizeof id, &added) != NULL && added,
           "hashmap: a set (no value) adds a key");
    gp_hashmap_add(&set, &id, sizeof id, &added);
    unsigned other = 6;
    tap_ok(!added && gp_hashmap_find(&set, &id, sizeof id) != NULL &&
               gp_hashmap_find(&set, &other, sizeof other) == NULL,
           "hashmap: a set holds each key once and knows what it holds");
    gp_hashmap_free(&set);
}

/* Keys of a fixed part and a name: the same name under two codes is two keys, a long name
 * (past the stack buffer) as good as a short one. */
static void named(void)
{
    gp_hashmap m;
    gp_hashmap_init(&m, sizeof(int));
    char long_name[2000];
    memset(long_name, 'k', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    const uint64_t a = 7, b = 9;
    bool added = false;
    int *x = gp_hashmap_add_named(&m, &a, sizeof a, "jit", &added);
    const bool first = x && added;
    if (x)
        *x = 1;
    int *y = gp_hashmap_add_named(&m, &b, sizeof b, "jit", &added);
    const bool second = y && added;
    if (y)
        *y = 2;
    int *z = gp_hashmap_add_named(&m, &a, sizeof a, long_name, &added);
    if (z)
        *z = 3;
    const int *fa = gp_hashmap_find_named(&m, &a, sizeof a, "jit");
    const int *fb = gp_hashmap_find_named(&m, &b, sizeof b, "jit");
    const int *fl = gp_hashmap_find_named(&m, &a, sizeof a, long_name);
    gp_hashmap_add_named(&m, &a, sizeof a, "jit", &added);
    tap_ok(first && second && fa && *fa == 1 && fb && *fb == 2 && fl && *fl == 3 && !added &&
               m.count == 3 && !gp_hashmap_find_named(&m, &b, sizeof b, long_name),
           "hashmap: a fixed part and a name make one key, long names too");
    gp_hashmap_free(&m);
}

void test_hashmap(void)
{
    named();
    strings();
    structs_and_sets();
}
