/* One hash map for every table gpuprof keeps by name or number: keys are byte strings
 * (a name with its terminating NUL, or a struct of integers), copied into the map; values
 * are fixed-size records, zeroed when added, stored in the map. Open addressing with linear
 * probing, at most half full. No locking: a map shared between threads is the caller's to
 * lock. Lives in counters/ because the injected library uses it too: it never prints. */
#ifndef GPUPROF_HASHMAP_H
#define GPUPROF_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t hash;
    void *key;                 /* NULL: a free slot */
    size_t key_len;
} gp_hashmap_slot;

typedef struct {
    gp_hashmap_slot *slots;
    unsigned char *values;     /* value_size bytes per slot */
    size_t n_slots, count, value_size;
} gp_hashmap;

/* An empty map of values of `value_size` bytes (0: a set). Allocates nothing yet. */
void gp_hashmap_init(gp_hashmap *m, size_t value_size);
/* Free the keys, values and slots; the map is empty again. */
void gp_hashmap_free(gp_hashmap *m);

/* The value stored under the key, or NULL. */
void *gp_hashmap_find(const gp_hashmap *m, const void *key, size_t key_len);
/* The value stored under the key, added (zeroed, *added true) when it was not there; NULL
 * when memory ran out. Adding may move every value: pointers from earlier calls are stale. */
void *gp_hashmap_add(gp_hashmap *m, const void *key, size_t key_len, bool *added);

/* Visit every entry: start with *cursor 0; NULL when there are no more. The order is the
 * slots', not the insertions'. */
void *gp_hashmap_next(const gp_hashmap *m, size_t *cursor, const void **key, size_t *key_len);

/* Keys of a fixed part (a struct of integers: a code, a context, a shape) followed by a name
 * (without its NUL), built on the stack when short: what tells one kernel's launches apart.
 * NULL as gp_hashmap_find and gp_hashmap_add give it, or when memory ran out. */
void *gp_hashmap_find_named(const gp_hashmap *m, const void *fixed, size_t fixed_len,
                            const char *name);
void *gp_hashmap_add_named(gp_hashmap *m, const void *fixed, size_t fixed_len,
                           const char *name, bool *added);

/* Strings as keys (the terminating NUL included, so a key read back is a C string). */
static inline void *gp_hashmap_find_str(const gp_hashmap *m, const char *key)
{
    size_t n = 0;
    while (key[n])
        n++;
    return gp_hashmap_find(m, key, n + 1);
}

static inline void *gp_hashmap_add_str(gp_hashmap *m, const char *key, bool *added)
{
    size_t n = 0;
    while (key[n])
        n++;
    return gp_hashmap_add(m, key, n + 1, added);
}

#endif
