/* The table of forward_ops.h: a slot per sequence number modulo the table's size, each the
 * number and a copy of its path. */
#include "inject/forward_ops.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned long long seq;
    char *path; /* NULL: empty */
} slot;

/* Guard: the NVTX model's lock (nvtx_ranges.c), held by every caller. */
static slot slots[GP_FORWARD_OPS_SLOTS];

bool gp_forward_ops_note(unsigned long long seq, const char *path)
{
    slot *s = &slots[seq % GP_FORWARD_OPS_SLOTS];
    if (s->path && s->seq == seq && strcmp(s->path, path) == 0)
        return true;
    char *copy = strdup(path);
    if (!copy)
        return false;
    free(s->path);
    *s = (slot){seq, copy};
    return true;
}

const char *gp_forward_ops_find(unsigned long long seq)
{
    const slot *s = &slots[seq % GP_FORWARD_OPS_SLOTS];
    return s->path && s->seq == seq ? s->path : NULL;
}
