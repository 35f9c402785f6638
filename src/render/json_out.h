/* Writing JSON (render/json_out.c), the other half of reading it (report/json_in.h): what
 * the JSON renderers (src/render/json*.c) build their documents with. */
#ifndef GPUPROF_RENDER_JSON_OUT_H
#define GPUPROF_RENDER_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* o[key] = v, or null when v is NaN or infinite (JSON has no such numbers). */
void gp_json_add_number(cJSON *o, const char *key, double v);
/* Print the document (NULL: out of memory) and free it. */
int gp_json_print(FILE *out, cJSON *root);

#endif
