/* How an exec launch's metrics were obtained (gpuprof/report.h's GP_ORIGIN_* bits): the
 * names the JSON report's "how" lists, the CSV joins with '+' and the text shows. One table,
 * in src/report/origin_names.c, so the renderers and the report's reader agree. */
#ifndef GPUPROF_ORIGIN_NAMES_H
#define GPUPROF_ORIGIN_NAMES_H

#include "gpuprof/report.h"

#include <stdbool.h>
#include <stddef.h>

#define GP_ORIGINS 4   /* the GP_ORIGIN_* bits */

/* "range", "shadow", "sampled", "graph": the name of bit i (GP_ORIGIN_* == 1u << i). */
extern const char *const gp_origin_names[GP_ORIGINS];

/* The names of the bits set in `origins`, lowest bit first, into names[] (room for
 * GP_ORIGINS); their count. Bits beyond the table are passed over. */
size_t gp_origins_to_list(unsigned origins, const char *names[GP_ORIGINS]);
/* The GP_ORIGIN_* bit of a name; false for another name. */
bool gp_origin_from_name(const char *name, unsigned *bit);
/* The names of `origins` joined by `sep` ("shadow+sampled"); "" for none. */
void gp_origins_join(unsigned origins, const char *sep, char *buf, size_t len);

#endif
