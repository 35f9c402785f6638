/* Writing JSON (report/json_out.c), beside reading it (report/json_in.h): what the JSON
 * renderer (src/render/json.c) builds its documents with. */
#ifndef GPUPROF_JSON_OUT_H
#define GPUPROF_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* o[key] = v, or null when v is NaN or infinite (JSON has no such numbers). */
void gp_json_add_number(cJSON *o, const char *key, double v);
/* Print the document (NULL: out of memory) and free it. */
int gp_json_print(FILE *out, cJSON *root);

#endif
