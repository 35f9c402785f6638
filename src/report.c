/* Ownership of report data: results, launches, metric sets, warnings. */
#include "gpuprof/report.h"

#include "gpuprof/status.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void gp_report_init(gp_report *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->tool_version, sizeof r->tool_version, "%s", GPUPROF_VERSION);
    r->device.copy_gbps = -1.0;
}

void gp_metric_set_free(gp_metric_set *s)
{
    free(s->counters);
    free(s->metrics);
    memset(s, 0, sizeof *s);
}

static void result_free(gp_result *res)
{
    gp_metric_set_free(&res->metrics);
    for (size_t i = 0; i < res->n_launches; i++)
        gp_metric_set_free(&res->launches[i].metrics);
    free(res->launches);
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void gp_report_free(gp_report *r)
{
    for (size_t i = 0; i < r->n_results; i++)
        result_free(&r->results[i]);
    free(r->results);
    free_strings(r->command_line, r->command_line_len);
    free_strings(r->warnings, r->n_warnings);
    memset(r, 0, sizeof *r);
}

/* Grow *items (of size elem) by one zeroed element. */
static void *grow(void **items, size_t *count, size_t elem)
{
    void *p = realloc(*items, (*count + 1) * elem);
    if (!p)
        return NULL;
    *items = p;
    void *slot = (char *)p + *count * elem;
    memset(slot, 0, elem);
    (*count)++;
    return slot;
}

int gp_report_add_result(gp_report *r, gp_result **out)
{
    gp_result *res = grow((void **)&r->results, &r->n_results, sizeof *res);
    if (!res)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    res->pad = -1;
    res->sm_clock_ghz = res->dram_clock_ghz = -1.0;
    *out = res;
    return GP_OK;
}

int gp_result_add_launch(gp_result *res, gp_launch_record **out)
{
    gp_launch_record *l = grow((void **)&res->launches, &res->n_launches, sizeof *l);
    if (!l)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    l->median_ms = -1.0;
    *out = l;
    return GP_OK;
}

static int push_string(char ***v, size_t *n, const char *text)
{
    char *copy = strdup(text);
    char **slot = copy ? grow((void **)v, n, sizeof *slot) : NULL;
    if (!slot) {
        free(copy);
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    }
    *slot = copy;
    return GP_OK;
}

int gp_report_add_warning(gp_report *r, const char *text)
{
    return push_string(&r->warnings, &r->n_warnings, text);
}

int gp_report_set_command_line(gp_report *r, int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        GP_TRY(push_string(&r->command_line, &r->command_line_len, argv[i]));
    return GP_OK;
}

static const char *const check_names[] = {"passed", "FAILED", "skipped"};

const char *gp_check_status_name(gp_check_status s)
{
    return s <= GP_CHECK_SKIPPED ? check_names[s] : "?";
}

bool gp_check_status_from_name(const char *name, gp_check_status *s)
{
    for (int i = 0; i <= GP_CHECK_SKIPPED; i++)
        if (strcasecmp(name, check_names[i]) == 0) {
            *s = (gp_check_status)i;
            return true;
        }
    return false;
}

const char *gp_dtype_name(gp_dtype t)
{
    return t == GP_INT32 ? "int32" : "float32";
}

bool gp_dtype_from_name(const char *name, gp_dtype *t)
{
    if (strcmp(name, "int32") == 0)
        *t = GP_INT32;
    else if (strcmp(name, "float32") == 0)
        *t = GP_FLOAT32;
    else
        return false;
    return true;
}

const gp_metric_value *gp_result_metric(const gp_result *r, const char *key)
{
    for (size_t i = 0; i < r->metrics.n_metrics; i++)
        if (strcmp(r->metrics.metrics[i].key, key) == 0)
            return &r->metrics.metrics[i];
    return NULL;
}
