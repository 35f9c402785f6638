/* An exec report's launches as a part (gpuprof/report_parts.h): text's --launches table, CSV's
 * row per launch and JSON's exec.launches, one row per gp_exec_launch. What depends on what
 * was measured (each view's metric columns) and what no cell holds (JSON's grid and block
 * arrays, how and passes; text's how with its note's number) stay the views'. Where the views
 * write a value differently (text's grid "256", CSV's "256x1x1"; CSV's profiled "yes", JSON's
 * true; CSV's source the program, JSON's the merged report's file) the part has a column per
 * place, each in its views. */
#include "gpuprof/report_parts.h"

#include "gpuprof/origin_names.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

size_t gp_launch_program(const gp_report *r, const gp_exec_launch *l)
{
    if (!r->n_sources)
        return 0;
    return l->input < r->n_sources ? l->input : r->n_sources;
}

/* CSV's shape: "256x1x1"; empty for a library call's (CUB's own, not captured). */
static gp_cell csv_dim(gp_dim3 d, char *buf, size_t len)
{
    gp_dim_csv(buf, len, d);
    return GP_CELL_TEXT(buf);
}

/* Text's shape: "256", "64x4" where it has a second or third dimension (the third not
 * shown), "-" for a library call's. */
static gp_cell text_dim(gp_dim3 d, char *buf, size_t len)
{
    gp_dim_text(buf, len, d, d.z > 1);
    return GP_CELL_TEXT(buf);
}

/* Unknown (below 0 in the launch): null in JSON, empty in CSV, "-" for people. */
static const char *set_duration(void *row, const gp_cell *v, char *why, size_t len)
{
    gp_exec_launch *l = row;
    const char *bad = gp_part_at_least(v, 0, &l->duration_ms, why, len);
    if (!bad && isnan(l->duration_ms))
        l->duration_ms = -1.0;
    return bad;
}

/* A code as a string of its decimal digits (a JSON number is exact only below 2^53). */
static gp_cell get_code(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_launch *l = row;
    (void)ctx;
    if (!l->code)
        return GP_CELL_ABSENT;
    snprintf(buf, len, "%" PRIu64, l->code);
    return GP_CELL_TEXT(buf);
}

/* Text's graph node: "3:12", its graph's id and its own; "-" for a launch of the program's. */
static gp_cell get_graph_text(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_exec_launch *l = row;
    (void)ctx;
    if (!l->graph_node)
        return GP_CELL_NUMBER(NAN);
    snprintf(buf, len, "%" PRIu64 ":%" PRIu64, l->graph, l->graph_node);
    return GP_CELL_TEXT(buf);
}

GP_PART_TEXT_GETTER(get_kind, void, void, "kernel")
GP_PART_TEXT_GETTER(get_program, gp_exec_launch, gp_launches_context,
                    c->programs[gp_launch_program(c->r, r)])
/* A merged report's: the index of the launch's file, unless a merge of an older gpuprof lost
 * it. */
GP_PART_GETTER(get_source, gp_exec_launch, gp_launches_context,
               c->r->n_sources && r->input != GP_INPUT_UNKNOWN ? GP_CELL_NUMBER(r->input)
                                                               : GP_CELL_ABSENT)
GP_PART_NUMBER_GETTER(get_pid, gp_exec_launch, void, r->pid)
GP_PART_WHOLE_SETTER(set_pid, gp_exec_launch, r->pid, 0, INT_MAX)
GP_PART_NUMBER_GETTER(get_id, gp_exec_launch, void, r->id)
GP_PART_WHOLE_SETTER(set_id, gp_exec_launch, r->id, 0, UINT64_MAX)
GP_PART_TEXT_GETTER(get_kernel, gp_exec_launch, void, r->kernel)
GP_PART_TEXT_SETTER(set_kernel, gp_exec_launch, r->kernel)
/* Unknown: empty in CSV, null in JSON. */
GP_PART_GETTER(get_mangled, gp_exec_launch, void,
               r->mangled ? GP_CELL_TEXT(r->mangled) : GP_CELL_NUMBER(NAN))
GP_PART_NUMBER_GETTER(get_device, gp_exec_launch, void, r->device)
GP_PART_WHOLE_SETTER(set_device, gp_exec_launch, r->device, 0, INT_MAX)
GP_PART_NUMBER_GETTER(get_context, gp_exec_launch, void, r->context)
GP_PART_WHOLE_SETTER(set_context, gp_exec_launch, r->context, 0, UINT_MAX)
GP_PART_NUMBER_GETTER(get_stream, gp_exec_launch, void, r->stream)
GP_PART_WHOLE_SETTER(set_stream, gp_exec_launch, r->stream, 0, UINT_MAX)
GP_PART_GETTER(get_grid, gp_exec_launch, void, csv_dim(r->grid, buf, len))
GP_PART_GETTER(get_block, gp_exec_launch, void, csv_dim(r->block, buf, len))
GP_PART_GETTER(get_grid_text, gp_exec_launch, void, text_dim(r->grid, buf, len))
GP_PART_GETTER(get_block_text, gp_exec_launch, void, text_dim(r->block, buf, len))
GP_PART_NUMBER_GETTER(get_shared, gp_exec_launch, void, r->shared_bytes)
GP_PART_WHOLE_SETTER(set_shared, gp_exec_launch, r->shared_bytes, 0, SIZE_MAX)
GP_PART_NUMBER_GETTER(get_duration, gp_exec_launch, void,
                      r->duration_ms >= 0 ? r->duration_ms : NAN)
GP_PART_TEXT_GETTER(get_profiled_word, gp_exec_launch, void, r->profiled ? "yes" : "no")
GP_PART_NUMBER_GETTER(get_profiled, gp_exec_launch, void, r->profiled)
GP_PART_FLAG_SETTER(set_profiled, gp_exec_launch, r->profiled)
GP_PART_NUMBER_GETTER(get_graph, gp_exec_launch, void, r->graph)
GP_PART_WHOLE_SETTER(set_graph, gp_exec_launch, r->graph, 0, UINT64_MAX)
GP_PART_NUMBER_GETTER(get_graph_node, gp_exec_launch, void, r->graph_node)
GP_PART_WHOLE_SETTER(set_graph_node, gp_exec_launch, r->graph_node, 0, UINT64_MAX)
GP_PART_TEXT_GETTER(get_how, gp_exec_launch, void,
                    (gp_origins_join(r->origins, "+", buf, len), buf))
GP_PART_TEXT_GETTER(get_note, gp_exec_launch, void, r->note ? r->note : "")
GP_PART_NUMBER_GETTER(get_kernel_id, gp_exec_launch, gp_launches_context,
                      gp_kernel_labels_number(c->labels, r->kernel, r->variant))
/* Empty for a kernel that ran one code. */
GP_PART_NUMBER_GETTER(get_variant, gp_exec_launch, void, r->variant ? r->variant : NAN)
/* Its kernel's label as text names it (gpuprof/kernel_labels.h). */
GP_PART_TEXT_GETTER(get_label, gp_exec_launch, gp_launches_context,
                    c && c->labels ? gp_kernel_labels_name(c->labels, r->kernel, r->variant)
                                    : r->kernel)
/* --nvtx: its NVTX range path; left out when none was open or recorded (the loader reads it
 * apart, as an optional key). */
GP_PART_GETTER(get_range, gp_exec_launch, void,
               r->range ? GP_CELL_TEXT(r->range) : GP_CELL_ABSENT)
/* A copy's or memset's (a row of gp_activities_part under this header); a kernel's: empty. */
GP_PART_NUMBER_GETTER(get_no_bytes, gp_exec_launch, void, NAN)
GP_PART_TEXT_GETTER(get_no_host_memory, gp_exec_launch, void, "")

static bool when_graphs(const void *ctx)
{
    return ((const gp_launches_context *)ctx)->graphs;
}

enum {
    KIND, PROGRAM, PID, ID, KERNEL, MANGLED, DEVICE, CONTEXT, STREAM, GRID, BLOCK, SHARED,
    DURATION, PROFILED_WORD, GRAPH, GRAPH_NODE, HOW, NOTE, KERNEL_ID, VARIANT,
    SOURCE, CODE, PROFILED, GRAPH_TEXT, GRID_TEXT, BLOCK_TEXT, LABEL, BYTES, HOST_MEMORY,
    RANGE
};
_Static_assert((int)HOW == (int)GP_LAUNCH_CSV_METRICS_AT, "CSV's metrics go before how");

#define CSV_JSON (GP_IN_CSV | GP_IN_JSON)
#define ALL (GP_IN_TEXT | GP_IN_CSV | GP_IN_JSON)

/* In CSV's order; text and JSON have theirs (below). */
static const gp_part_column columns[] = {
    [KIND] = {.key = "kind", .in = GP_IN_CSV, .get = get_kind,
              .legend = "kernel; a copy's or memset's row (in issue order among the "
                        "launches): memcpy HtoD, ..., memset"},
    [PROGRAM] = {.key = "source", .in = GP_IN_CSV, .get = get_program,
                 .legend = "the program's command line"},
    [PID] = {.key = "pid", .header = "pid", .format = GP_NUMBER_COUNT, .in = ALL,
             .get = get_pid, .set = set_pid, .legend = "its process"},
    [ID] = {.key = "id", .header = "id", .format = GP_NUMBER_COUNT, .gap = 1, .in = ALL,
            .get = get_id, .set = set_id,
            .legend = "CUPTI's correlation id: launch order within the process"},
    [KERNEL] = {.key = "kernel", .in = CSV_JSON, .get = get_kernel, .set = set_kernel,
                .legend = "its demangled name"},
    [MANGLED] = {.key = "mangled", .in = CSV_JSON, .get = get_mangled,
                 .legend = "its mangled name; null when not known"},
    [DEVICE] = {.key = "device", .header = "dev", .format = GP_NUMBER_COUNT, .gap = 1,
                .in = ALL, .get = get_device, .set = set_device},
    [CONTEXT] = {.key = "context", .format = GP_NUMBER_COUNT, .in = CSV_JSON,
                 .get = get_context, .set = set_context},
    [STREAM] = {.key = "stream", .header = "stream", .format = GP_NUMBER_COUNT, .gap = 1,
                .in = ALL, .get = get_stream, .set = set_stream},
    [GRID] = {.key = "grid", .in = GP_IN_CSV, .get = get_grid},
    [BLOCK] = {.key = "block", .in = GP_IN_CSV, .get = get_block},
    [SHARED] = {.key = "shared_bytes", .header = "smem", .unit = "bytes",
                .format = GP_NUMBER_COUNT, .gap = 1, .in = ALL, .get = get_shared,
                .set = set_shared, .legend = "dynamic shared memory"},
    [DURATION] = {.key = "duration_ms", .header = "time", .unit = "ms", .format = GP_NUMBER_MS,
                  .gap = 1, .in = ALL, .get = get_duration, .set = set_duration,
                  .legend = "its time from CUPTI's activity record; null when not timed"},
    [PROFILED_WORD] = {.key = "profiled", .in = GP_IN_CSV, .get = get_profiled_word},
    [GRAPH] = {.key = "graph", .format = GP_NUMBER_COUNT, .in = CSV_JSON, .get = get_graph,
               .set = set_graph},
    [GRAPH_NODE] = {.key = "graph_node", .format = GP_NUMBER_COUNT, .in = CSV_JSON,
                    .get = get_graph_node, .set = set_graph_node,
                    .legend = "the CUDA graph node it ran as; 0: launched directly"},
    [HOW] = {.key = "how", .in = GP_IN_CSV, .get = get_how,
             .legend = "how its metrics were obtained: range, shadow, sampled, graph"},
    [NOTE] = {.key = "note", .in = GP_IN_CSV, .get = get_note,
              .legend = "why a metric is approximate or missing"},
    [KERNEL_ID] = {.key = "kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV,
                   .get = get_kernel_id, .legend = "the kernel's #N of the other views"},
    [VARIANT] = {.key = "variant", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV,
                 .get = get_variant,
                 .legend = "its code's variant of the kernel; empty when it ran one code"},
    [SOURCE] = {.key = "source", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
                .get = get_source, .legend = "a merged report's: the index of its file"},
    [CODE] = {.key = "code", .in = GP_IN_JSON, .get = get_code,
              .legend = "the code it ran: its cubin's CRC, decimal digits; absent unknown"},
    [PROFILED] = {.key = "profiled", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
                  .get = get_profiled, .set = set_profiled,
                  .legend = "its counters were collected"},
    [GRAPH_TEXT] = {.key = "graph_label", .header = "graph", .gap = 1, .in = GP_IN_TEXT,
                    .get = get_graph_text, .when = when_graphs},
    [GRID_TEXT] = {.key = "grid_label", .header = "grid", .gap = 1, .in = GP_IN_TEXT,
                   .get = get_grid_text},
    [BLOCK_TEXT] = {.key = "block_label", .header = "block", .gap = 1, .in = GP_IN_TEXT,
                    .get = get_block_text},
    /* CSV's last, so that no earlier column moves. */
    [LABEL] = {.key = "label", .in = GP_IN_CSV, .get = get_label,
               .legend = "the kernel's label as text names it after its #N; a copy's or "
                         "memset's kind: [CUDA memcpy HtoD], ..."},
    [BYTES] = {.key = "bytes", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_no_bytes,
               .legend = "a copy's or memset's bytes; empty for a kernel"},
    [HOST_MEMORY] = {.key = "host_memory", .in = GP_IN_CSV, .get = get_no_host_memory,
                     .legend = "a copy's host side's memory: pageable, pinned, managed; empty "
                               "otherwise"},
    [RANGE] = {.key = "range", .in = GP_IN_JSON, .get = get_range,
               .legend = "--nvtx: the NVTX range path it was launched in, outermost first "
                         "(start/end ranges, then the thread's push/pop ranges, DOMAIN@label "
                         "for a domain's); absent when none was open"},
};

const gp_part gp_launch_part = {
    .key = "launches", .columns = columns, .n_columns = sizeof columns / sizeof *columns,
    .row_size = sizeof(gp_exec_launch), .json_keyed_by = -1,
    .order = {[GP_VIEW_TEXT] = GP_PART_ORDER(PID, ID, DEVICE, STREAM, GRAPH_TEXT, GRID_TEXT,
                                             BLOCK_TEXT, SHARED, DURATION),
              [GP_VIEW_JSON] = GP_PART_ORDER(SOURCE, PID, ID, KERNEL, MANGLED, CODE, DEVICE,
                                             CONTEXT, STREAM, SHARED, DURATION, PROFILED,
                                             GRAPH, GRAPH_NODE, RANGE)},
};
