/* Cells of the renderers' tables: metric values, launch shapes, metric columns, CSV fields,
 * a compared row's metrics, a kernel's total time and the legend of its estimate mark; a
 * problem's heading. */
#include "render/cells.h"

#include "gpuprof/exec_summary.h"
#include "gpuprof/group.h"
#include "gpuprof/metrics.h"
#include "gpuprof/report_parts.h"
#include "render/text_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gp_text_kernel_name(char *buf, size_t len, const char *kernel, gp_kernel_name_style style)
{
    gp_kernel_name_format(kernel, style, buf, len);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* A time in the unit that suits it, as nvprof printed them: "850ns", "3.80us", "1.23ms". */
void gp_text_format_time(char *buf, size_t len, double ms)
{
    static const struct {
        const char *unit;
        double per_ms;
    } units[] = {{"ns", 1e6}, {"us", 1e3}, {"ms", 1.0}, {"s", 1e-3}};
    const size_t n = sizeof units / sizeof units[0];
    if (!isfinite(ms) || ms < 0) {
        snprintf(buf, len, "-");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const double v = ms * units[i].per_ms;
        if (i == 0 && round(v) < 1000.0) {
            snprintf(buf, len, "%.0f%s", v, units[i].unit);
            return;
        }
        if (i > 0 && (round(v * 100.0) < 100000.0 || i == n - 1)) {
            snprintf(buf, len, "%.2f%s", v, units[i].unit);
            return;
        }
    }
}

/* In the decimal unit that keeps the value at least 1, the unit of the GB/s beside them
 * (nvprof printed binary megabytes next to decimal GB/s). */
void gp_text_format_bytes(char *buf, size_t len, double bytes)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
    if (!isfinite(bytes) || bytes < 0) {
        snprintf(buf, len, "-");
        return;
    }
    size_t u = 0;
    while (bytes >= 1000 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1000;
        u++;
    }
    snprintf(buf, len, u ? "%.2f%s" : "%.0f%s", bytes, units[u]);
}

void gp_text_format_total(char *buf, size_t len, double ms, bool estimated)
{
    char time[32];
    gp_text_format_time(time, sizeof time, ms);
    snprintf(buf, len, "%s%s", estimated && isfinite(ms) ? "~" : "", time);
}

void gp_text_estimate_note(FILE *out, size_t width)
{
    gp_text_paragraph(out, "~: " GP_EXEC_ESTIMATE_NOTE, width, 3);
}

/* Whether a catalogue metric is a column of the table. */
static bool shown(const gp_metric_def *m, gp_metric_columns which)
{
    if (which == GP_EVERY_METRIC || m->in_table)
        return true;
    const gp_metric_def *of = m->ideal_of ? gp_find_metric(m->ideal_of) : NULL;
    return which == GP_TABLE_METRICS_IDEALS && of && of->in_table;
}

size_t gp_text_metric_columns(const gp_metric_set *s, bool listed, const char **keys,
                              const char **labels)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_metrics && n < GP_TEXT_MAX_COLUMNS; i++) {
        const char *key = s->metrics[i].key;
        const gp_metric_def *def = gp_find_metric(key);
        if (!listed && !(def && shown(def, GP_TABLE_METRICS_IDEALS)))
            continue;
        keys[n] = key;
        labels[n++] = def ? def->label : key;
    }
    return n;
}

/* Whether any of the sets has a metric of this key; with_value: one with a value (a kernel
 * used the metric's path). */
static bool measured(const gp_metric_set *const *sets, size_t n_sets, const char *key,
                     bool with_value)
{
    for (size_t i = 0; i < n_sets; i++) {
        const gp_metric_value *v = sets[i] ? gp_metric_set_value(sets[i], key) : NULL;
        if (v && (v->valid || !with_value))
            return true;
    }
    return false;
}

static bool listed(const gp_text_metric *cols, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(cols[i].key, key) == 0)
            return true;
    return false;
}

size_t gp_text_table_metrics(const gp_metric_set *const *sets, size_t n_sets,
                             gp_metric_columns which, gp_text_metric *cols, size_t max)
{
    const bool every = which == GP_EVERY_METRIC;
    size_t n_cat, n = 0;
    const gp_metric_def *cat = gp_metric_catalogue(&n_cat);
    for (size_t c = 0; c < n_cat && n < max; c++)
        if ((shown(&cat[c], which) && measured(sets, n_sets, cat[c].key, false)) ||
            (cat[c].where_used && measured(sets, n_sets, cat[c].key, true)))
            cols[n++] = (gp_text_metric){cat[c].key, cat[c].label, cat[c].description};
    for (size_t i = 0; every && i < n_sets; i++)
        for (size_t k = 0; sets[i] && k < sets[i]->n_metrics && n < max; k++) {
            const char *key = sets[i]->metrics[k].key;
            if (!gp_find_metric(key) && !listed(cols, n, key))
                cols[n++] = (gp_text_metric){key, key, "PerfWorks metric"};
        }
    return n;
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

/* `word` after the list's others (", " between), unless the list has it already. */
static void list_add(char *list, size_t len, const char *word)
{
    const size_t n = strlen(word);
    for (const char *at = list; *at;) {
        const size_t item = strcspn(at, ",");
        if (item == n && strncmp(at, word, n) == 0)
            return;
        at += item;
        at += *at ? 2 : 0; /* past ", " */
    }
    const size_t used = strlen(list);
    if (used < len)
        snprintf(list + used, len - used, "%s%s", used ? ", " : "", word);
}

void gp_text_metric_note_add(gp_text_metric_notes *n, const char *note, const char *key,
                             size_t number)
{
    size_t i = 0;
    while (i < n->n && strcmp(n->note[i], note) != 0)
        i++;
    if (i == n->n) {
        if (n->n == GP_TEXT_MAX_NOTES)
            return;
        n->note[i] = note;
        n->keys[i][0] = n->kernels[i][0] = '\0';
        n->n++;
    }
    char tag[32];
    snprintf(tag, sizeof tag, "#%zu", number);
    if (number)
        list_add(n->kernels[i], sizeof n->kernels[i], tag);
    list_add(n->keys[i], sizeof n->keys[i], key);
}

void gp_text_metric_notes_add(gp_text_metric_notes *n, const gp_metric_value *v)
{
    if (v->note[0])
        gp_text_metric_note_add(n, v->note, v->key, 0);
}

void gp_text_metric_note_line(const gp_text_metric_notes *n, size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "* %s%s%s: %s", n->kernels[i], n->kernels[i][0] ? " " : "",
             n->keys[i], n->note[i]);
}

void gp_text_metric_notes_rows(gp_text_metric_notes *n, gp_text_table *t, int indent)
{
    for (size_t i = 0; i < n->n; i++) {
        char line[sizeof n->keys[i] + sizeof n->kernels[i] + GP_TEXT_LEN + 8];
        gp_text_metric_note_line(n, i, line, sizeof line);
        gp_table_note(t, line, indent);
    }
    n->n = 0;
}

void gp_problem_text(char *buf, size_t len, const gp_problem_span *pr, const char *size)
{
    const gp_result *res = &pr->report->results[pr->first];
    size_t used = (size_t)snprintf(buf, len, "%s %s, %s, %.1f MB moved at least", res->family,
                                   res->type, size, (double)res->bytes_moved / 1e6);
    for (size_t i = 0; i < res->n_params && used < len; i++) {
        const gp_param *p = &res->params[i];
        if (!isnan(p->value) && !gp_problem_param_varies(pr, p->name))
            used += (size_t)snprintf(buf + used, len - used, ", %s %.10g", p->name, p->value);
    }
}
