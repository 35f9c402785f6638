/* What the JSON renderers share (render/json_out.h): numbers JSON can hold, and a document
 * printed whole. The other half of the JSON layer beside report/json_in.c: it knows JSON,
 * not a schema (the renderers lay the documents out). */
#include "render/json_out.h"

#include "gpuprof/status.h"

#include <math.h>

/* NaN and infinities are not JSON numbers: they become null. */
void gp_json_add_number(cJSON *o, const char *key, double v)
{
    cJSON_AddItemToObject(o, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

int gp_json_print(FILE *out, cJSON *root)
{
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return gp_fail(GP_ERR_RUNTIME, "out of memory while writing JSON");
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return GP_OK;
}

void gp_json_add_string_or_null(cJSON *o, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

void gp_json_add_code(cJSON *o, const char *key, uint64_t code)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)code);
    if (code)
        cJSON_AddStringToObject(o, key, digits);
}

void gp_json_add_count_or_null(cJSON *o, const char *key, long long n)
{
    if (n)
        cJSON_AddNumberToObject(o, key, (double)n);
    else
        cJSON_AddNullToObject(o, key);
}

void gp_json_add_strings(cJSON *o, const char *key, const char *const *s, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(s[i]));
}

cJSON *gp_json_bits(uint32_t mask, int bits, bool values)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < bits; k++)
        if (mask & (1u << k))
            cJSON_AddItemToArray(a, cJSON_CreateNumber(values ? (double)(1u << k) : k));
    return a;
}
