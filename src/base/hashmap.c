/* The hash map of include/gpuprof/hashmap.h: FNV-1a over the key's bytes, linear probing in
 * a power-of-two table kept at most half full, doubled when it would be fuller.
 * Base layer: never prints, never exits, never links cudart. */
#include "gpuprof/hashmap.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_SLOTS 64

static uint64_t hash_bytes(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

void gp_hashmap_init(gp_hashmap *m, size_t value_size)
{
    memset(m, 0, sizeof *m);
    m->value_size = value_size;
}

void gp_hashmap_free(gp_hashmap *m)
{
    for (size_t i = 0; i < m->n_slots; i++)
        free(m->slots[i].key);
    free(m->slots);
    free(m->values);
    gp_hashmap_init(m, m->value_size);
}

/* The slot that holds the key, or the free slot where it would go. */
static size_t slot_of(const gp_hashmap *m, uint64_t hash, const void *key, size_t len)
{
    const size_t mask = m->n_slots - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const gp_hashmap_slot *s = &m->slots[i];
        if (!s->key || (s->hash == hash && s->key_len == len && memcmp(s->key, key, len) == 0))
            return i;
    }
}

static void *value_at(const gp_hashmap *m, size_t i)
{
    return m->values + i * m->value_size;
}

static bool grow(gp_hashmap *m)
{
    const size_t n = m->n_slots ? 2 * m->n_slots : FIRST_SLOTS;
    gp_hashmap bigger = {.n_slots = n, .count = m->count, .value_size = m->value_size};
    bigger.slots = calloc(n, sizeof *bigger.slots);
    bigger.values = calloc(n, m->value_size ? m->value_size : 1);
    if (!bigger.slots || !bigger.values) {
        free(bigger.slots);
        free(bigger.values);
        return false;
    }
    for (size_t i = 0; i < m->n_slots; i++) {
        const gp_hashmap_slot *s = &m->slots[i];
        if (!s->key)
            continue;
        const size_t j = slot_of(&bigger, s->hash, s->key, s->key_len);
        bigger.slots[j] = *s;
        memcpy(value_at(&bigger, j), value_at(m, i), m->value_size);
    }
    free(m->slots);
    free(m->values);
    *m = bigger;
    return true;
}

void *gp_hashmap_find(const gp_hashmap *m, const void *key, size_t key_len)
{
    if (m->count == 0)
        return NULL;
    const size_t i = slot_of(m, hash_bytes(key, key_len), key, key_len);
    return m->slots[i].key ? value_at(m, i) : NULL;
}

void *gp_hashmap_add(gp_hashmap *m, const void *key, size_t key_len, bool *added)
{
    if (added)
        *added = false;
    const uint64_t hash = hash_bytes(key, key_len);
    if (m->n_slots) {
        const size_t i = slot_of(m, hash, key, key_len);
        if (m->slots[i].key)
            return value_at(m, i);
    }
    if (2 * (m->count + 1) > m->n_slots && !grow(m))
        return NULL;
    void *copy = malloc(key_len ? key_len : 1);
    if (!copy)
        return NULL;
    memcpy(copy, key, key_len);
    const size_t i = slot_of(m, hash, key, key_len);
    m->slots[i] = (gp_hashmap_slot){hash, copy, key_len};
    m->count++;
    if (added)
        *added = true;
    return value_at(m, i); /* zeroed: calloc'd, and a slot's value is never reused */
}

/* The key fixed + name into buf when it fits, else a malloc'd copy (NULL: no memory). */
static unsigned char *named_key(unsigned char *buf, size_t size, const void *fixed,
                                size_t fixed_len, const char *name, size_t *len)
{
    const size_t name_len = strlen(name);
    *len = fixed_len + name_len;
    unsigned char *key = *len <= size ? buf : malloc(*len);
    if (key) {
        memcpy(key, fixed, fixed_len);
        memcpy(key + fixed_len, name, name_len);
    }
    return key;
}

void *gp_hashmap_find_named(const gp_hashmap *m, const void *fixed, size_t fixed_len,
                            const char *name)
{
    unsigned char buf[512];
    size_t len = 0;
    unsigned char *key = named_key(buf, sizeof buf, fixed, fixed_len, name, &len);
    void *value = key ? gp_hashmap_find(m, key, len) : NULL;
    if (key != buf)
        free(key);
    return value;
}

void *gp_hashmap_add_named(gp_hashmap *m, const void *fixed, size_t fixed_len,
                           const char *name, bool *added)
{
    unsigned char buf[512];
    size_t len = 0;
    unsigned char *key = named_key(buf, sizeof buf, fixed, fixed_len, name, &len);
    if (added)
        *added = false;
    void *value = key ? gp_hashmap_add(m, key, len, added) : NULL;
    if (key != buf)
        free(key);
    return value;
}

void *gp_hashmap_next(const gp_hashmap *m, size_t *cursor, const void **key, size_t *key_len)
{
    for (; *cursor < m->n_slots; (*cursor)++) {
        const gp_hashmap_slot *s = &m->slots[*cursor];
        if (!s->key)
            continue;
        if (key)
            *key = s->key;
        if (key_len)
            *key_len = s->key_len;
        return value_at(m, (*cursor)++);
    }
    return NULL;
}
