/* A collector's counters split into groups that one pass collects each, so that exec can
 * collect a different group on each launch of a kernel and never replay one (rotation).
 * Units that should stay together (one metric's inputs, so that each launch can give the
 * metric; the clock counters; each counter of a metric's notes alone) are placed in catalogue order into the first group they fit
 * in, asking the chip's host API for the passes of each candidate: SASS counters and
 * hardware counters never share a pass, and which hardware counters do is the chip's to
 * say. Counters layer: never prints, never exits, never links cudart. */
#include "gpuprof/collector.h"

#include "gpuprof/status.h"

#include <string.h>

/* Counters that must be collected together, by index in the collector's list. */
typedef struct {
    size_t counters[GP_METRIC_MAX_INPUTS + 4];
    size_t n;
} unit;

static size_t index_of(const gp_collector *c, const char *name)
{
    size_t i = 0;
    while (i < c->n_counters && strcmp(c->counters[i], name) != 0)
        i++;
    return i;
}

static bool holds(const size_t *list, size_t n, size_t counter)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == counter)
            return true;
    return false;
}

static void add_to_unit(unit *u, const gp_collector *c, const char *name)
{
    const size_t i = index_of(c, name);
    if (i < c->n_counters && !holds(u->counters, u->n, i) &&
        u->n < sizeof u->counters / sizeof u->counters[0])
        u->counters[u->n++] = i;
}

static void add_to_group(gp_counter_group *g, const gp_collector *c, const unit *u)
{
    for (size_t k = 0; k < u->n; k++)
        if (!holds(g->counters, g->n_counters, u->counters[k])) {
            g->counters[g->n_counters] = u->counters[k];
            g->names[g->n_counters++] = c->counters[u->counters[k]];
        }
}

static bool group_holds_unit(const gp_counter_group *g, const unit *u)
{
    for (size_t k = 0; k < u->n; k++)
        if (!holds(g->counters, g->n_counters, u->counters[k]))
            return false;
    return true;
}

/* The passes the group would take with the unit added. */
static int passes_with(const gp_collector *c, const gp_counter_group *g, const unit *u,
                       int *passes)
{
    gp_counter_group trial = *g;
    add_to_group(&trial, c, u);
    return gp_profiler_count_passes(c->profiler, trial.names, trial.n_counters, passes);
}

/* Into the first one-pass group that holds it or can take it in one pass. */
static int try_existing(gp_collector *c, const unit *u, bool *placed)
{
    *placed = false;
    for (size_t g = 0; g < c->n_groups && !*placed; g++)
        *placed = c->groups[g].passes == 1 && group_holds_unit(&c->groups[g], u);
    for (size_t g = 0; g < c->n_groups && !*placed; g++) {
        int passes = 0;
        if (c->groups[g].passes != 1)
            continue;
        GP_TRY(passes_with(c, &c->groups[g], u, &passes));
        if (passes == 1) {
            add_to_group(&c->groups[g], c, u);
            *placed = true;
        }
    }
    return GP_OK;
}

static int new_group(gp_collector *c, const unit *u, int passes)
{
    if (c->n_groups == GP_MAX_GROUPS)
        return gp_fail(GP_ERR_RUNTIME, "the metrics need more than %d one-pass groups",
                       GP_MAX_GROUPS);
    gp_counter_group *g = &c->groups[c->n_groups++];
    memset(g, 0, sizeof *g);
    g->passes = passes;
    add_to_group(g, c, u);
    return GP_OK;
}

/* Where no group takes the unit, a group of its own; a unit that takes several passes on
 * its own (SASS counters with the duration, say) is split into its counters, each placed
 * alone, and its metric is then derived from launches of different passes combined. Only a
 * counter that takes several passes by itself makes a group that needs replay. */
static int place(gp_collector *c, const unit *u)
{
    bool placed = false;
    if (u->n == 0)
        return GP_OK;
    GP_TRY(try_existing(c, u, &placed));
    if (placed)
        return GP_OK;
    const gp_counter_group none = {.n_counters = 0};
    int passes = 0;
    GP_TRY(passes_with(c, &none, u, &passes));
    if (passes == 1 || u->n == 1)
        return new_group(c, u, passes);
    for (size_t k = 0; k < u->n; k++) {
        const unit one = {.counters = {u->counters[k]}, .n = 1};
        GP_TRY(place(c, &one));
    }
    return GP_OK;
}

static unit metric_unit(const gp_collector *c, const gp_selected_metric *s)
{
    unit u = {.n = 0};
    if (s->missing)
        return u;
    if (!s->def) {
        add_to_unit(&u, c, s->raw_name);
        return u;
    }
    for (size_t k = 0; k < s->def->n_inputs; k++)
        add_to_unit(&u, c, s->def->inputs[k]);
    return u;
}

/* The counters of the metric's notes the collector has, each a unit of its own: a launch
 * that collected one can say what the metric misses, whatever else it collected. */
static int place_note_counters(gp_collector *c, const gp_selected_metric *s)
{
    if (!s->def || s->missing)
        return GP_OK;
    const char *names[GP_METRIC_MAX_INPUTS];
    const size_t n = gp_metric_note_counters(s->def, names);
    for (size_t k = 0; k < n; k++) {
        unit u = {.n = 0};
        add_to_unit(&u, c, names[k]);
        GP_TRY(place(c, &u));
    }
    return GP_OK;
}

static unit clock_unit(const gp_collector *c)
{
    unit u = {.n = 0};
    for (size_t i = 0; i < gp_n_clock_counters; i++)
        add_to_unit(&u, c, gp_clock_counters[i]);
    return u;
}

static bool has_sass(const gp_collector *c, const gp_counter_group *g)
{
    for (size_t k = 0; k < g->n_counters; k++)
        if (gp_counter_is_sass(c->counters[g->counters[k]]))
            return true;
    return false;
}

bool gp_collector_has_sass(const gp_collector *c)
{
    for (size_t i = 0; i < c->n_counters; i++)
        if (gp_counter_is_sass(c->counters[i]))
            return true;
    return false;
}

/* Groups of SASS counters first, the others after, each in the order made: a launch of a
 * SASS group runs instrumented and slower, so exec collects those first and stays in an
 * uninstrumented group afterwards (gpuprof/rotation.h). */
static void sass_first(gp_collector *c)
{
    /* A stable partition in place: this runs on the program's thread inside exec, whose
     * stack may be small. */
    size_t placed = 0;
    for (size_t g = 0; g < c->n_groups; g++) {
        if (!has_sass(c, &c->groups[g]))
            continue;
        const gp_counter_group sass = c->groups[g];
        memmove(&c->groups[placed + 1], &c->groups[placed], (g - placed) * sizeof sass);
        c->groups[placed++] = sass;
    }
}

int gp_collector_split(gp_collector *c)
{
    if (c->n_groups > 0)
        return GP_OK;
    for (size_t i = 0; i < c->n_metrics; i++) {
        const unit u = metric_unit(c, &c->metrics[i]);
        GP_TRY(place(c, &u));
    }
    for (size_t i = 0; i < c->n_metrics; i++)
        GP_TRY(place_note_counters(c, &c->metrics[i]));
    const unit clocks = clock_unit(c);
    GP_TRY(place(c, &clocks));
    sass_first(c);
    for (size_t g = 0; g < c->n_groups; g++) {
        gp_counter_group *grp = &c->groups[g];
        grp->sass = has_sass(c, grp);
        int passes = 0;
        grp->config = gp_profiler_configurations(c->profiler);
        GP_TRY(gp_profiler_configure(c->profiler, grp->names, grp->n_counters, &passes));
    }
    return GP_OK;
}

void gp_collector_collected(const gp_collector *c, gp_group_mask mask, bool *collected)
{
    memset(collected, 0, c->n_counters * sizeof *collected);
    for (size_t g = 0; g < c->n_groups; g++)
        if (mask & ((gp_group_mask)1 << g))
            for (size_t k = 0; k < c->groups[g].n_counters; k++)
                collected[c->groups[g].counters[k]] = true;
}
