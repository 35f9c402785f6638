/* exec's --launches in text: a row per launch in the order the program issued them, the copies
 * and memsets among them (text_activities.c), each row ending in its kernel's #N and label
 * (gpuprof/kernel_labels.h), in every part of a table wider than the page; the launch part's
 * columns (gpuprof/report_parts.h), then how its metrics were obtained and its metrics. Under
 * the table one legend, of exactly the columns it has, then the launches' notes. */
#include "render/text_launches.h"

#include "gpuprof/exec_graph.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/report_parts.h"
#include "gpuprof/status.h"
#include "render/cells.h"
#include "render/part.h"
#include "render/text_activities.h"
#include "render/text_graph.h"
#include "render/text_layout.h"

#include <stdlib.h>
#include <string.h>

#define MAX_METRIC_COLUMNS 256

/* A launch's tag before its kernel's name: "#3 ", in a merged report with its file's index,
 * "#3 [2] ". */
static void launch_tag(char *buf, size_t len, const gp_report *r, const gp_kernel_labels *kl,
                       const gp_exec_launch *l)
{
    const size_t number = gp_kernel_labels_number(kl, l->kernel, l->variant);
    char from[32];
    gp_launch_source_tag(r, l, from, sizeof from);
    size_t used = number ? (size_t)snprintf(buf, len, "#%zu ", number)
                         : (size_t)snprintf(buf, len, "%s", "");
    if (from[0] && used < len)
        snprintf(buf + used, len - used, "%s ", from);
}

/* How its metrics were obtained (gpuprof/exec_graph.h: "yes", "shadow+sampled", "timed"),
 * or for a launch profiled with rotation the passes it carries: "p0", "p1", "all". */
static void how_cell(char *buf, size_t len, const gp_report *r, const gp_exec_launch *l)
{
    const int groups = r->profiler.pass_groups;
    if (!l->profiled || !gp_exec_rotated(&r->profiler) || !l->passes ||
        (l->origins & ~GP_ORIGIN_RANGE))
        gp_launch_how(buf, len, l);
    else if (l->passes == (uint32_t)((1ull << groups) - 1))
        snprintf(buf, len, "all");
    else
        for (int g = 0, used = 0; g < groups && used < (int)len; g++)
            if (l->passes & (1u << g))
                used += snprintf(buf + used, len - (size_t)used, "%sp%d", used ? "," : "", g);
}

/* The launch's notes: a footnote's number after its "how" ("shadow+sampled [1]"). */
static void add_how(gp_text_table *t, const gp_report *r, const gp_exec_launch *l,
                    gp_text_notes *notes)
{
    char how[64];
    how_cell(how, sizeof how, r, l);
    const size_t note = l->note ? gp_text_note_number(notes, l->note) : 0;
    if (note)
        gp_table_cellf(t, "%s [%zu]", how, note);
    else
        gp_table_cell(t, how);
}

/* What the rows of the launch table share. */
typedef struct {
    gp_launches_context part;    /* the part's columns', before the table's own */
    const gp_text_metric *cols;  /* the metric columns */
    size_t n;
    gp_text_notes notes;         /* the launches' notes, numbered as met */
} launch_table;

/* The part's cells, then how its metrics were obtained, its metrics and its kernel. */
static void add_launch_row(gp_text_table *t, launch_table *lt, const gp_exec_launch *l)
{
    char tag[64];
    gp_part_text_row(t, &gp_launch_part, l, &lt->part);
    add_how(t, lt->part.r, l, &lt->notes);
    for (size_t i = 0; i < lt->n; i++) {
        char cell[48];
        gp_metric_value_text(cell, sizeof cell,
                             gp_metric_set_value(&l->metrics, lt->cols[i].key));
        gp_table_cell(t, cell);
    }
    launch_tag(tag, sizeof tag, lt->part.r, lt->part.labels, l);
    gp_table_name_cell(t, tag, gp_kernel_labels_name(lt->part.labels, l->kernel, l->variant));
}

/* The metric columns over every launch. */
static size_t launch_metrics(const gp_report *r, gp_text_metric *cols)
{
    const gp_exec_info *e = &r->exec;
    const gp_metric_set **sets = calloc(e->n_launches ? e->n_launches : 1, sizeof *sets);
    if (!sets)
        return 0;
    for (size_t i = 0; i < e->n_launches; i++)
        sets[i] = &e->launches[i].metrics;
    const bool every = strcmp(r->profiler.metric_set, "default") != 0;
    const size_t n = gp_text_table_metrics(sets, e->n_launches,
                                           every ? GP_EVERY_METRIC : GP_TABLE_METRICS, cols,
                                           MAX_METRIC_COLUMNS);
    free(sets);
    return n;
}

/* ---- the legend --------------------------------------------------------------------------- */

/* Appends to a legend being written (its `used` bytes of `len`). */
static void say(char *legend, size_t len, size_t *used, const char *fmt, const char *word)
{
    if (*used < len)
        *used += (size_t)snprintf(legend + *used, len - *used, fmt, word);
}

/* What the profiled column's words are in this report: yes and no, a graph node's ways
 * (their notes under the table), and under rotation the one-pass groups a launch carries. */
static void say_profiled(char *legend, size_t len, size_t *used, const launch_table *lt)
{
    const gp_report *r = lt->part.r;
    say(legend, len, used, "%s", "; profiled: yes, its metrics collected, or no, timed only");
    if (lt->notes.n)
        say(legend, len, used, "%s", ", [N] after it: the note of that number below");
    if (lt->part.graphs)
        say(legend, len, used, "%s", "; a graph's kernel node: shadow (launched alone for its "
                                     "counters), sampled (its DRAM traffic sampled in the "
                                     "graph's run) or graph (one range over the graph launch), "
                                     "joined by +, or timed: timed only");
    if (gp_exec_rotated(&r->profiler))
        say(legend, len, used, "; under --replay=%s, the one-pass groups of counters it "
                               "collected: p0, p1, ..., numbered from 0 as in JSON's "
                               "exec.launches[].passes, or all: every group",
            gp_exec_replay_name(r->profiler.replay));
}

/* One legend, of exactly the table's columns: the part's, the graph node where shown, how the
 * metrics were obtained, each metric's abbreviation (its key; --wide heads the column with
 * it), the kernel, a copy's row, and the units its numbers are in. */
static void print_legend(FILE *out, const launch_table *lt, bool wide, size_t width)
{
    const gp_report *r = lt->part.r;
    char legend[MAX_METRIC_COLUMNS * 64 + 2048];
    size_t used = 0;
    say(legend, sizeof legend, &used, "%s", "legend: pid: its process; id: CUPTI's "
                                            "correlation id, the launch order in its process; "
                                            "dev: the GPU; stream: the CUDA stream");
    if (lt->part.graphs)
        say(legend, sizeof legend, &used, "%s", "; graph: the CUDA graph and kernel node it "
                                                "ran as, graph:node (-: launched directly)");
    say(legend, sizeof legend, &used, "%s", "; grid, block: the launch shape; smem: dynamic "
                                            "shared memory, bytes; time: from CUPTI's activity "
                                            "record (-: not timed)");
    say_profiled(legend, sizeof legend, &used, lt);
    for (size_t i = 0; !wide && i < lt->n; i++) {
        say(legend, sizeof legend, &used, i ? ", %s" : "; %s", lt->cols[i].label);
        say(legend, sizeof legend, &used, " = %s", lt->cols[i].key);
    }
    say(legend, sizeof legend, &used, "%s", "; kernel: the kernel's #N and label, as the "
                                            "summary gives them");
    if (r->n_sources)
        say(legend, sizeof legend, &used, "%s", ", after #N the number of its file");
    if (r->exec.n_activities)
        say(legend, sizeof legend, &used, "%s", "; a copy or memset: its kind, bytes and host "
                                                "memory where the kernel stands, - where it "
                                                "has no value");
    if (r->exec.n_activities || lt->n)
        say(legend, sizeof legend, &used, "; %s", GP_TEXT_UNITS);
    gp_text_paragraph(out, legend, width, 2);
}

/* ---- the table ---------------------------------------------------------------------------- */

int gp_text_launches(FILE *out, const gp_report *r, const gp_kernel_labels *kl,
                     const gp_render_options *o)
{
    gp_text_metric *cols = calloc(MAX_METRIC_COLUMNS, sizeof *cols);
    if (!cols)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    const bool wide = o && o->wide;
    const size_t width = gp_text_width(o);
    gp_text_table t;
    gp_table_init(&t, 2);
    t.tail_every_part = true;    /* each row of every part names its kernel */
    launch_table lt = {.part = {.r = r, .labels = kl,
                                .graphs = gp_exec_has_graph_nodes(&r->exec)},
                       .cols = cols, .n = launch_metrics(r, cols)};
    gp_part_text_columns(&t, &gp_launch_part, &lt.part);
    gp_table_column(&t, "profiled", GP_COLUMN_RIGHT, 1);
    for (size_t i = 0; i < lt.n; i++)
        gp_table_column(&t, wide ? cols[i].key : cols[i].label, GP_COLUMN_RIGHT, i ? 1 : 2);
    gp_table_column(&t, "kernel", GP_COLUMN_NAME, 2);
    size_t copies = 0; /* the copies and memsets among the launches, in issue order */
    gp_text_notes_init(&lt.notes);
    for (size_t i = 0; i < r->exec.n_launches; i++) {
        gp_text_launch_activities(&t, r, &copies, &r->exec.launches[i], lt.n);
        add_launch_row(&t, &lt, &r->exec.launches[i]);
    }
    gp_text_launch_activities(&t, r, &copies, NULL, lt.n);
    fputc('\n', out);
    const int rc = gp_table_print(out, &t, width);
    if (rc == GP_OK) {
        print_legend(out, &lt, wide, width);
        gp_text_notes_print(out, &lt.notes, width);
    }
    free(cols);
    gp_text_notes_free(&lt.notes);
    gp_table_free(&t);
    return rc;
}
