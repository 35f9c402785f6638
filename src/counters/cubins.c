/* The cubins of gpuprof/sass_source.h: a copy of each cubin the driver loaded, by the CRC
 * CUPTI's SASS metrics name it with, for the SASS-to-source correlation, which needs the cubin
 * itself (a module-load callback's pointer is valid only during the callback). The callbacks
 * that hand them over are their users' (src/inject/source_pass.c, src/runner/source_lines.c):
 * CUPTI's subscriptions stay out of this layer.
 * Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/sass_source.h"

#include "counters/cupti_call.h"
#include "gpuprof/hashmap.h"
#include "gpuprof/status.h"

#include <cupti.h>
#include <cupti_pcsampling.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    void *bytes;
    size_t size;
} cubin_copy;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* Guard: none, it is the lock */
static gp_hashmap cubins;            /* cubin_copy by the CRC's low 32 bits. Guard: lock */
static bool ready;                   /* cubins initialised. Guard: lock */

/* SASS metrics records carry the CRC in 32 bits: the table is keyed by those. */
static uint32_t key_of(uint64_t crc)
{
    return (uint32_t)crc;
}

int gp_cubins_add(const void *cubin, size_t size)
{
    if (!cubin || size == 0)
        return GP_OK;
    CUpti_GetCubinCrcParams p = {.size = CUpti_GetCubinCrcParamsSize};
    p.cubin = cubin;
    p.cubinSize = size;
    CUPTI(cuptiGetCubinCrc(&p));
    const uint32_t key = key_of(p.cubinCrc);
    int rc = GP_OK;
    pthread_mutex_lock(&lock);
    if (!ready) {
        gp_hashmap_init(&cubins, sizeof(cubin_copy));
        ready = true;
    }
    bool added = false;
    cubin_copy *c = gp_hashmap_add(&cubins, &key, sizeof key, &added);
    if (!c)
        rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    else if (added) {
        c->bytes = malloc(size);
        c->size = c->bytes ? size : 0;
        if (c->bytes)
            memcpy(c->bytes, cubin, size);
        else
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static bool correlate(const cubin_copy *c, const char *function, uint32_t pc, char **file,
                      uint32_t *line)
{
    CUpti_GetSassToSourceCorrelationParams p = {.size = CUpti_GetSassToSourceCorrelationParamsSize};
    p.cubin = c->bytes;
    p.cubinSize = c->size;
    p.functionName = function;
    p.pcOffset = pc;
    if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS)
        return false;
    const bool known = p.fileName && p.fileName[0] && p.lineNumber > 0;
    if (known) {
        const bool dir = p.dirName && p.dirName[0] && p.fileName[0] != '/';
        const size_t len = (dir ? strlen(p.dirName) + 1 : 0) + strlen(p.fileName) + 1;
        *file = malloc(len);
        if (*file)
            snprintf(*file, len, "%s%s%s", dir ? p.dirName : "", dir ? "/" : "", p.fileName);
        *line = p.lineNumber;
    }
    free(p.fileName);
    free(p.dirName);
    return known && *file;
}

bool gp_cubins_line(uint64_t crc, const char *function, uint32_t pc, char **file,
                    uint32_t *line)
{
    *file = NULL;
    *line = 0;
    const uint32_t key = key_of(crc);
    pthread_mutex_lock(&lock);
    const cubin_copy *c = ready ? gp_hashmap_find(&cubins, &key, sizeof key) : NULL;
    const bool known = c && c->bytes && correlate(c, function, pc, file, line);
    pthread_mutex_unlock(&lock);
    return known;
}

void gp_cubins_clear(void)
{
    pthread_mutex_lock(&lock);
    if (ready) {
        size_t cursor = 0;
        const void *key;
        size_t key_len;
        for (cubin_copy *c; (c = gp_hashmap_next(&cubins, &cursor, &key, &key_len));)
            free(c->bytes);
        gp_hashmap_free(&cubins);
        ready = false;
    }
    pthread_mutex_unlock(&lock);
}
