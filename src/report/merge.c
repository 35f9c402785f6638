/* gpuprof report A.json B.json …: several reports made one, each result remembering which
 * file it came from, so that results of different GPUs or gpuprof versions stay labelled. */
#include "gpuprof/report.h"

#include "gpuprof/ranks.h"
#include "gpuprof/exec_summary.h"
#include "gpuprof/status.h"
#include "report/merge.h"

#include <stdlib.h>
#include <string.h>

static int add_source(gp_report *into, const gp_report_source *from)
{
    gp_report_source *bigger = realloc(into->sources, (into->n_sources + 1) * sizeof *bigger);
    if (!bigger)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    into->sources = bigger;
    gp_report_source *s = &bigger[into->n_sources];
    *s = *from;
    s->program = NULL;
    s->program_len = 0;
    s->file = strdup(from->file);
    into->n_sources++;  /* counted now, so that gp_report_free frees what was copied */
    if (!s->file)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    return gp_report_source_set_program(s, from->program_len, from->program);
}

/* The part's own sources when it was merged already, else the part itself (an exec
 * report's with its program). */
static int add_sources(gp_report *into, const gp_report *part, const char *file)
{
    for (size_t i = 0; i < part->n_sources; i++)
        GP_TRY(add_source(into, &part->sources[i]));
    if (part->n_sources)
        return GP_OK;
    gp_report_source s = {.file = (char *)file, .has_device = part->has_device,
                          .device = part->device, .program = part->exec.argv,
                          .program_len = part->exec.argc};
    snprintf(s.tool_version, sizeof s.tool_version, "%s", part->tool_version);
    snprintf(s.command, sizeof s.command, "%s", part->command);
    return add_source(into, &s);
}

/* Freeing what `to` held costs the merge nothing (its first part finds `into` empty) and lets
 * the rank view take a lower rank's header over the one it had. */
void gp_merge_move_words(char ***to, size_t *to_len, char ***from, size_t *from_len)
{
    for (size_t i = 0; i < *to_len; i++)
        free((*to)[i]);
    free(*to);
    *to = *from;
    *to_len = *from_len;
    *from = NULL;
    *from_len = 0;
}

void gp_merge_take_header(gp_report *into, gp_report *part)
{
    snprintf(into->tool_version, sizeof into->tool_version, "%s", part->tool_version);
    snprintf(into->command, sizeof into->command, "%s", part->command);
    gp_merge_move_words(&into->command_line, &into->command_line_len, &part->command_line,
                        &part->command_line_len);
    into->has_device = part->has_device;
    into->device = part->device;
    into->profiler = part->profiler;
}

/* The first report gives the merged one its header: what it ran and how. */
static void take_header(gp_report *into, gp_report *part)
{
    gp_merge_take_header(into, part);
    into->repeat = part->repeat;
    into->warmup = part->warmup;
    into->seed = part->seed;
    into->max_noise_pct = part->max_noise_pct;
    into->is_exec = part->is_exec;
    into->exit_status = part->exit_status;
}

static int move_results(gp_report *into, gp_report *part, size_t first_source)
{
    if (part->n_results == 0)
        return GP_OK;
    gp_result *first;
    GP_TRY(gp_report_add_results(into, part->n_results, &first));
    memcpy(first, part->results, part->n_results * sizeof *first);
    for (size_t i = 0; i < part->n_results; i++)
        first[i].input += first_source;
    free(part->results);  /* their metric sets and launches now belong to `into` */
    part->results = NULL;
    part->n_results = 0;
    return GP_OK;
}

/* Each warning says which file it came from. */
static int move_warnings(gp_report *into, const gp_report *part, const char *file)
{
    for (size_t i = 0; i < part->n_warnings; i++) {
        const size_t len = strlen(file) + strlen(part->warnings[i]) + 3;
        char *text = malloc(len);
        if (!text)
            return gp_fail(GP_ERR_RUNTIME, "out of host memory");
        snprintf(text, len, "%s: %s", file, part->warnings[i]);
        int rc = gp_report_add_warning(into, text);
        free(text);
        GP_TRY(rc);
    }
    return GP_OK;
}

static bool has_device(const gp_exec_info *e, const gp_device_info *d)
{
    for (size_t i = 0; i < e->n_devices; i++)
        if (e->devices[i].index == d->index && strcmp(e->devices[i].name, d->name) == 0)
            return true;
    return false;
}

int gp_merge_add_processes(gp_exec_info *into, const gp_exec_info *part)
{
    into->processes += part->processes;
    for (size_t i = 0; i < part->n_devices; i++)
        if (!has_device(into, &part->devices[i]))
            GP_TRY(gp_exec_add_device(into, &part->devices[i]));
    return GP_OK;
}

/* Their copies and memsets (after the others', as their pids tell the programs apart), and
 * the unified-memory counters summed. */
static int move_activities(gp_exec_info *into, const gp_exec_info *part)
{
    for (size_t i = 0; i < part->n_activities; i++) {
        gp_exec_activity *a;
        GP_TRY(gp_exec_add_activity(into, &a));
        *a = part->activities[i];
    }
    for (int c = 0; c < GP_UM_COUNTERS; c++) {
        const gp_um_stats *p = &part->unified[c];
        gp_um_stats *s = &into->unified[c];
        if (!p->events)
            continue;
        s->min = s->events == 0 || p->min < s->min ? p->min : s->min;
        s->max = p->max > s->max ? p->max : s->max;
        s->events += p->events;
        s->total += p->total;
        s->time_ns += p->time_ns;
    }
    return GP_OK;
}

/* --source's views, each with the index of its source as the launches (moved: the part is
 * left with none). */
static int move_source_views(gp_exec_info *into, gp_exec_info *part, size_t first_source,
                             bool part_merged)
{
    into->request.source = into->request.source || part->request.source;
    for (size_t i = 0; i < part->n_source_views; i++) {
        gp_exec_source_view *v;
        GP_TRY(gp_exec_add_source_view(into, &v));
        *v = part->source_views[i];
        part->source_views[i] = (gp_exec_source_view){0};
        if (!part_merged)
            v->input = first_source;
        else if (v->input != GP_INPUT_UNKNOWN)
            v->input += first_source;
    }
    return GP_OK;
}

/* --stalls: what each run sampled, added up (a period they share, else not known), and every
 * instruction of the part, its reasons mapped by name onto the merged report's, with the
 * index of its source as the launches (moved: the part is left with none). */
static int move_stalls(gp_exec_stalls *into, gp_exec_stalls *part, bool first,
                       size_t first_source, bool part_merged)
{
    if (!part->sampled)
        return GP_OK;
    into->period_log2 = first || !into->sampled || into->period_log2 == part->period_log2
                            ? part->period_log2 : 0;
    into->sampled = true;
    into->samples += part->samples;
    into->dropped += part->dropped;
    into->non_user += part->non_user;
    into->buffer_full = into->buffer_full || part->buffer_full;
    /* Each of the part's reasons, in its order, at its place among the merged report's. */
    size_t *at = malloc((part->n_reasons ? part->n_reasons : 1) * sizeof *at);
    if (!at)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = GP_OK;
    for (size_t r = 0; rc == GP_OK && r < part->n_reasons; r++) {
        const int index = gp_exec_stall_reason(into, part->reasons[r]);
        rc = index < 0 ? gp_fail(GP_ERR_RUNTIME, "out of host memory") : GP_OK;
        at[r] = (size_t)index;
    }
    for (size_t i = 0; rc == GP_OK && i < part->n_pcs; i++) {
        gp_exec_stall_pc *from = &part->pcs[i], *to;
        if (gp_exec_add_stall_pc(into, &to) != 0) {
            rc = gp_fail(GP_ERR_RUNTIME, "out of host memory");
            break;
        }
        uint64_t *samples = to->samples;
        *to = *from;  /* its kernel and file move with it */
        to->samples = samples;
        from->kernel = from->file = NULL;
        to->input = !part_merged ? first_source
                    : from->input != GP_INPUT_UNKNOWN ? from->input + first_source
                                                      : GP_INPUT_UNKNOWN;
        for (size_t r = 0; r < part->n_reasons; r++)
            to->samples[at[r]] = from->samples[r];
    }
    free(at);
    return rc;
}

/* Exec reports: the launches of every program, each with the index of its source (its pid
 * tells the processes of one program apart). */
static int move_exec(gp_exec_info *into, gp_exec_info *part, bool first, size_t first_source,
                     bool part_merged)
{
    if (first) {
        gp_merge_move_words(&into->argv, &into->argc, &part->argv, &part->argc);
        into->pid = part->pid;
        into->exit_status = part->exit_status;
        into->signal = part->signal;
        into->request = part->request;
    }
    GP_TRY(gp_merge_add_processes(into, part));
    for (size_t i = 0; i < part->n_launches; i++) {
        gp_exec_launch *l;
        GP_TRY(gp_exec_add_launch(into, &l));
        *l = part->launches[i];  /* its strings (note too) and metrics move with it */
        if (!part_merged)
            l->input = first_source;
        else if (l->input != GP_INPUT_UNKNOWN)
            l->input += first_source;
    }
    part->n_launches = 0;
    GP_TRY(gp_exec_number_variants(into)); /* a code may be a variant of another file's */
    GP_TRY(move_source_views(into, part, first_source, part_merged));
    GP_TRY(move_stalls(&into->stalls, &part->stalls, first, first_source, part_merged));
    return move_activities(into, part);
}

int gp_report_merge(gp_report *into, gp_report *part, const char *file)
{
    const bool first = into->n_sources == 0;
    if (!first && into->is_exec != part->is_exec)
        return gp_fail(GP_ERR_USAGE, "%s: %s report, %s is %s: they cannot be merged", file,
                       part->is_exec ? "an exec" : "a kernel command's", into->sources[0].file,
                       into->is_exec ? "an exec report" : "a kernel command's report");
    if (!first && gp_report_has_rank(part))
        return gp_fail(GP_ERR_USAGE, "%s: a rank's report among reports without a rank (%s has "
                       "none): a rank view takes each rank's report with its rank (gpuprof exec "
                       "records a rank from --rank=N, or from RANK, OMPI_COMM_WORLD_RANK, "
                       "PMI_RANK or SLURM_PROCID)", file, into->sources[0].file);
    if (first)
        take_header(into, part);
    const size_t first_source = into->n_sources;
    GP_TRY(add_sources(into, part, file));
    GP_TRY(move_results(into, part, first_source));
    GP_TRY(move_warnings(into, part, file));
    return part->is_exec ? move_exec(&into->exec, &part->exec, first, first_source,
                                     part->n_sources > 0)
                         : GP_OK;
}

static bool same_source(const gp_report_source *a, const gp_report_source *b)
{
    return strcmp(a->tool_version, b->tool_version) == 0 && a->has_device == b->has_device &&
           strcmp(a->device.name, b->device.name) == 0;
}

bool gp_report_sources_differ(const gp_report *r)
{
    for (size_t i = 1; i < r->n_sources; i++)
        if (!same_source(&r->sources[0], &r->sources[i]))
            return true;
    return false;
}
