/* Cells of the renderers' tables: metric values, launch shapes, metric columns, CSV fields,
 * a compared row's metrics. */
#include "render/cells.h"

#include "gpuprof/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Metric values as text, with the precision their unit deserves. */
void gp_text_format_value(char *buf, size_t len, const gp_metric_value *m)
{
    if (!m || !m->valid) {
        snprintf(buf, len, "n/a");
        return;
    }
    const char *u = m->unit;
    double v = m->value;
    if (strcmp(u, "%") == 0 || strcmp(u, "GB/s") == 0)
        snprintf(buf, len, "%.1f", v);
    else if (strcmp(u, "fraction") == 0)
        snprintf(buf, len, "%.3f", v);
    else if (strstr(u, "/request") || strstr(u, "/instruction"))
        snprintf(buf, len, "%.2f", v);
    else if (fabs(v) >= 1e15)
        snprintf(buf, len, "%.4g", v);
    else if (v == floor(v))
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

void gp_text_format_dim(char *buf, size_t len, gp_dim3 d, bool two_d)
{
    if (d.x == 0)
        snprintf(buf, len, "-");
    else if (two_d || d.y > 1)
        snprintf(buf, len, "%ux%u", d.x, d.y);
    else
        snprintf(buf, len, "%u", d.x);
}

size_t gp_text_metric_columns(const gp_metric_set *s, bool listed, const char **keys,
                              const char **labels)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_metrics && n < GP_TEXT_MAX_COLUMNS; i++) {
        const char *key = s->metrics[i].key;
        const gp_metric_def *def = gp_find_metric(key);
        if (!listed && !(def && def->in_table))
            continue;
        keys[n] = key;
        labels[n++] = def ? def->label : key;
    }
    return n;
}

int gp_text_column_width(const char *label)
{
    const size_t n = strlen(label);
    return n > 9 ? (int)n : 9;
}

void gp_text_column_titles(FILE *out, const char **labels, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %*s", gp_text_column_width(labels[i]), labels[i]);
    fputc('\n', out);
}

void gp_text_metric_cells(FILE *out, const gp_metric_set *s, const char **keys,
                          const char **labels, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gp_metric_value *m = NULL;
        for (size_t k = 0; k < s->n_metrics && !m; k++)
            if (strcmp(s->metrics[k].key, keys[i]) == 0)
                m = &s->metrics[k];
        char cell[32];
        gp_text_format_value(cell, sizeof cell, m);
        if (m && m->note[0]) /* the note itself: --metrics-detail, or the JSON */
            snprintf(cell + strlen(cell), sizeof cell - strlen(cell), "*");
        fprintf(out, " %*s", gp_text_column_width(labels[i]), cell);
    }
}

void gp_csv_field(FILE *out, const char *s, bool first)
{
    if (!first)
        fputc(',', out);
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

double gp_compare_side_value(const gp_compare_side *s, const char *key)
{
    for (size_t i = 0; i < s->n_metrics; i++)
        if (strcmp(s->metrics[i].key, key) == 0)
            return s->metrics[i].valid ? s->metrics[i].value : NAN;
    return NAN;
}

bool gp_compare_metric_changed(const gp_compare_row *row, const char *key,
                               double threshold_pct, double *base, double *next)
{
    const double b = gp_compare_side_value(&row->base, key);
    const double n = gp_compare_side_value(&row->next, key);
    const double change_pct = b != 0 ? 100.0 * (n - b) / fabs(b) : NAN;
    *base = b;
    *next = n;
    return fabs(change_pct) > threshold_pct || (b == 0 && n != 0);
}

/* A word as a shell reads it back: as is when it holds nothing special, else single-quoted. */
static size_t quote_word(char *buf, const char *w)
{
    const bool plain = w[0] && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_@%+=:,./-") == strlen(w);
    size_t n = 0;
    if (plain) {
        for (; *w; w++, n++)
            if (buf)
                buf[n] = *w;
        return n;
    }
    const char *quoted = "'\\''";
    if (buf)
        buf[n] = '\'';
    n++;
    for (; *w; w++) {
        const char *piece = *w == '\'' ? quoted : (char[]){*w, '\0'};
        for (; *piece; piece++, n++)
            if (buf)
                buf[n] = *piece;
    }
    if (buf)
        buf[n] = '\'';
    return n + 1;
}

char *gp_command_line_text(char *const *argv, size_t argc)
{
    size_t len = 1;
    for (size_t i = 0; i < argc; i++)
        len += quote_word(NULL, argv[i]) + 1;
    char *text = malloc(len);
    if (!text)
        return NULL;
    size_t used = 0;
    for (size_t i = 0; i < argc; i++) {
        if (i)
            text[used++] = ' ';
        used += quote_word(text + used, argv[i]);
    }
    text[used] = '\0';
    return text;
}
