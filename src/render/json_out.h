/* Writing JSON (render/json_out.c), the other half of reading it (report/json_in.h): what
 * the JSON renderers (src/render/json*.c) build their documents with. */
#ifndef GPUPROF_RENDER_JSON_OUT_H
#define GPUPROF_RENDER_JSON_OUT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* o[key] = v, or null when v is NaN or infinite (JSON has no such numbers). */
void gp_json_add_number(cJSON *o, const char *key, double v);
/* o[key] = s, or null when s is NULL. */
void gp_json_add_string_or_null(cJSON *o, const char *key, const char *s);
/* o[key] = a code (a cubin's CRC) as a string of its decimal digits (a JSON number is exact
 * only below 2^53); nothing when it is 0 (not known). */
void gp_json_add_code(cJSON *o, const char *key, uint64_t code);
/* o[key] = n, or null when n is 0 (a count or id that 0 means unknown: a world size, a
 * signal). */
void gp_json_add_count_or_null(cJSON *o, const char *key, long long n);
/* o[key] = the words s[0..n) as an array ([] for none: s may then be NULL). */
void gp_json_add_strings(cJSON *o, const char *key, const char *const *s, size_t n);
/* The bits set in a mask as an array, each as its index (`values` false) or its value
 * (1 << index), of the `bits` lowest. */
cJSON *gp_json_bits(uint32_t mask, int bits, bool values);
/* Print the document (NULL: out of memory) and free it. */
int gp_json_print(FILE *out, cJSON *root);

#endif
