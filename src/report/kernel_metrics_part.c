/* exec's metric table of gpuprof/report_parts.h: a row per kernel, a column per metric (made
 * for the report: which metrics it has), the kernel's #N and label last. */
#include "gpuprof/report_parts.h"

#include <stdio.h>
#include <string.h>

const gp_metric_stats *gp_kernel_metric(const gp_exec_kernel *k, const char *key)
{
    for (size_t m = 0; m < k->n_metrics; m++)
        if (strcmp(k->metrics[m].average.key, key) == 0)
            return &k->metrics[m];
    return NULL;
}

bool gp_kernel_metric_marked(const gp_metric_stats *s)
{
    return s->average.note[0] || (s->combined && s->average.valid);
}

static const gp_exec_kernel *kernel_of(const void *row)
{
    return *(const gp_exec_kernel *const *)row;
}

static const gp_kernel_metrics_context *context_of(const void *ctx)
{
    return ctx;
}

/* The kernel's average of the column's metric, "*" after it where marked; "-" where the
 * kernel has no such metric. */
static gp_cell get_metric(const void *row, const void *ctx, size_t at, char *buf, size_t len)
{
    const gp_metric_stats *s = gp_kernel_metric(kernel_of(row), context_of(ctx)->keys[at]);
    if (!s)
        return GP_CELL_TEXT("-");
    gp_metric_value_text(buf, len, &s->average);
    const size_t used = strlen(buf);
    if (gp_kernel_metric_marked(s) && used + 1 < len)
        snprintf(buf + used, len - used, "*");
    return GP_CELL_TEXT(buf);
}

/* "#3 " (with a merged report's files, "#3 [1,2] ") kept whole before the label. */
static gp_cell get_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_kernel *k = kernel_of(row);
    const gp_kernel_labels *kl = context_of(ctx)->labels;
    const size_t number = gp_kernel_labels_number(kl, k->kernel, k->variant);
    const char *from = gp_kernel_labels_from(kl, k->kernel, k->variant);
    if (number)
        snprintf(buf, len, "#%zu %s%s", number, from, from[0] ? " " : "");
    else
        buf[0] = '\0';
    return (gp_cell){.text = gp_kernel_labels_name(kl, k->kernel, k->variant), .tag = buf};
}

enum { METRIC, LABEL };

static const gp_part_column columns[] = {
    [METRIC] = {.key = "metric", .align = GP_ALIGN_RIGHT, .gap = 1, .in = GP_IN_TEXT,
                .get_at = get_metric,
                .legend = "a metric: the kernel's average over its profiled launches"},
    [LABEL] = {.key = "label", .header = "kernel", .align = GP_ALIGN_NAME, .gap = 2,
               .in = GP_IN_TEXT, .get = get_label, .legend = "the kernel's #N and label"},
};

const gp_part gp_kernel_metrics_part =
    GP_PART_DECLARE("kernel_metrics", columns, 0, const gp_exec_kernel *, -1);

void gp_kernel_metrics_table_of(gp_kernel_metrics_table *t, const char *const *headers,
                                size_t n)
{
    n = n < GP_KERNEL_METRICS_COLUMNS ? n : GP_KERNEL_METRICS_COLUMNS;
    for (size_t i = 0; i < n; i++) {
        t->columns[i] = columns[METRIC];
        t->columns[i].header = headers[i];
        t->columns[i].at = i;
        t->columns[i].gap = i ? 1 : 0;
    }
    t->columns[n] = columns[LABEL];
    t->part = gp_kernel_metrics_part;
    t->part.columns = t->columns;
    t->part.n_columns = n + 1;
}
