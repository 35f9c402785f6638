/* The lines of numbers of records/read_lines.h: each kind's tag, fields, range check and
 * reader in one table. */
#include "records/read_lines.h"
#include "records/read_ranges.h"

#include "gpuprof/record_format.h"
#include "gpuprof/status.h"
#include "records/launch_table.h"
#include "records/read_graphs.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* The name of the first field of a kernel line that its launch's type cannot hold, or NULL. */
static const char *out_of_range(const uint64_t *k)
{
    static const int dims[] = {GP_K_GX, GP_K_GY, GP_K_GZ, GP_K_BX, GP_K_BY, GP_K_BZ};
    if (k[GP_K_PID] > INT_MAX)
        return "pid";
    if (k[GP_K_DEVICE] > INT_MAX)
        return "device";
    if (k[GP_K_CONTEXT] > UINT_MAX || k[GP_K_STREAM] > UINT_MAX)
        return "context or stream";
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (k[dims[i]] > UINT_MAX)
            return "grid or block";
    return NULL;
}

/* A kernel that ran: the time of the launch it belongs to (a graph node's: of its shadow
 * launch, which keeps the time and stream of this, the program's own run), or a launch of its
 * own (a graph node not shadow-launched, or any kernel when nothing was profiled and no
 * launch was recorded). A kernel said to end before it starts has no known time. */
static int read_kernel(reader *rd, const uint64_t *k)
{
    const double ms = k[GP_K_END] >= k[GP_K_START] ? (double)(k[GP_K_END] - k[GP_K_START]) * 1e-6 : -1.0;
    GP_TRY(gp_records_kernel_time(rd, k));
    const uint64_t key[2] = {k[GP_K_PID], k[GP_K_NAME]};
    const numbered_name *name = gp_hashmap_find(&rd->numbered, key, sizeof key);
    gp_exec_launch *l =
        gp_records_find_launch(rd, (int)k[GP_K_PID], k[GP_K_ID], k[GP_K_NODE]);
    if (!l && k[GP_K_NODE])
        l = gp_records_adopt_shadow(rd, k, name);
    rd->last_kernel = l;
    if (l && l->graph_node) {
        l->duration_ms = ms;
        l->stream = (unsigned)k[GP_K_STREAM];
        return GP_OK;
    }
    if (l) {
        if (!l->profiled)
            l->duration_ms = ms;
        return GP_OK;
    }
    GP_TRY(gp_exec_add_launch(&rd->report->exec, &l));
    rd->last_kernel = l;
    *l = (gp_exec_launch){.pid = (int)k[GP_K_PID], .id = k[GP_K_ID],
                          .context = (unsigned)k[GP_K_CONTEXT], .device = (int)k[GP_K_DEVICE],
                          .stream = (unsigned)k[GP_K_STREAM],
                          .grid = {(unsigned)k[GP_K_GX], (unsigned)k[GP_K_GY], (unsigned)k[GP_K_GZ]},
                          .block = {(unsigned)k[GP_K_BX], (unsigned)k[GP_K_BY], (unsigned)k[GP_K_BZ]},
                          .shared_bytes = (size_t)k[GP_K_SMEM], .duration_ms = ms,
                          .graph = k[GP_K_GRAPH], .graph_node = k[GP_K_NODE],
                          .code = name ? name->code : 0};
    return gp_records_name_launch(rd, l, name && name->name[0] ? name->name : "?");
}

/* ---- copies, memsets, unified memory: the `M`, `S` and `U` lines ---------------------------- */

/* The name of the first field of a copy line that the report cannot hold, or NULL. */
static const char *copy_out_of_range(const uint64_t *m)
{
    if (m[GP_M_PID] > INT_MAX || m[GP_M_DEVICE] > INT_MAX)
        return "pid or device";
    if (m[GP_M_CONTEXT] > UINT_MAX || m[GP_M_STREAM] > UINT_MAX)
        return "context or stream";
    if (m[GP_M_KIND] >= GP_ACTIVITY_MEMSET)
        return "copy kind";
    if (m[GP_M_SRC] >= GP_MEMORY_KINDS || m[GP_M_DST] >= GP_MEMORY_KINDS)
        return "memory kind";
    return NULL;
}

static const char *memset_out_of_range(const uint64_t *s)
{
    if (s[GP_S_PID] > INT_MAX || s[GP_S_DEVICE] > INT_MAX)
        return "pid or device";
    if (s[GP_S_CONTEXT] > UINT_MAX || s[GP_S_STREAM] > UINT_MAX)
        return "context or stream";
    return s[GP_S_MEMORY] >= GP_MEMORY_KINDS ? "memory kind" : NULL;
}

static const char *unified_out_of_range(const uint64_t *u)
{
    if (u[GP_U_PID] > INT_MAX)
        return "pid";
    return u[GP_U_COUNTER] == GP_UM_UNKNOWN || u[GP_U_COUNTER] >= GP_UM_COUNTERS ? "counter"
                                                                                  : NULL;
}

static int read_copy(reader *rd, const uint64_t *m)
{
    gp_exec_activity *a;
    GP_TRY(gp_exec_add_activity(&rd->report->exec, &a));
    *a = (gp_exec_activity){.pid = (int)m[GP_M_PID], .id = m[GP_M_ID],
                            .device = (int)m[GP_M_DEVICE],
                            .context = (unsigned)m[GP_M_CONTEXT],
                            .stream = (unsigned)m[GP_M_STREAM],
                            .kind = (gp_activity_kind)m[GP_M_KIND],
                            .src = (gp_memory_kind)m[GP_M_SRC],
                            .dst = (gp_memory_kind)m[GP_M_DST], .bytes = m[GP_M_BYTES],
                            .start_ns = m[GP_M_START], .end_ns = m[GP_M_END]};
    return GP_OK;
}

static int read_memset(reader *rd, const uint64_t *s)
{
    gp_exec_activity *a;
    GP_TRY(gp_exec_add_activity(&rd->report->exec, &a));
    *a = (gp_exec_activity){.pid = (int)s[GP_S_PID], .id = s[GP_S_ID],
                            .device = (int)s[GP_S_DEVICE],
                            .context = (unsigned)s[GP_S_CONTEXT],
                            .stream = (unsigned)s[GP_S_STREAM], .kind = GP_ACTIVITY_MEMSET,
                            .src = GP_MEMORY_UNKNOWN, .dst = (gp_memory_kind)s[GP_S_MEMORY],
                            .bytes = s[GP_S_BYTES], .start_ns = s[GP_S_START],
                            .end_ns = s[GP_S_END]};
    return GP_OK;
}

/* The counters whose records have a duration (the others' end is to be ignored). */
static bool has_duration(uint64_t counter)
{
    return counter == GP_UM_BYTES_HTOD || counter == GP_UM_BYTES_DTOH ||
           counter == GP_UM_BYTES_DTOD || counter == GP_UM_GPU_PAGE_FAULTS ||
           counter == GP_UM_THROTTLING;
}

static int read_unified(reader *rd, const uint64_t *u)
{
    const uint64_t ns = has_duration(u[GP_U_COUNTER]) && u[GP_U_END] >= u[GP_U_START]
                            ? u[GP_U_END] - u[GP_U_START]
                            : 0;
    gp_exec_count_unified(&rd->report->exec.unified[u[GP_U_COUNTER]], u[GP_U_VALUE], ns);
    return GP_OK;
}

/* ---- the lines of numbers ------------------------------------------------------------------ */

/* Each kind of line: its tag, its number of fields, the field out of range, its reader. */
static const struct {
    char tag;
    size_t fields;
    const char *(*out_of_range)(const uint64_t *numbers);
    int (*read)(reader *rd, const uint64_t *numbers);
    const char *what;
} number_lines[] = {
    {GP_KERNEL_TAG, GP_K_FIELDS, out_of_range, read_kernel, "kernel"},
    {GP_COPY_TAG, GP_M_FIELDS, copy_out_of_range, read_copy, "copy"},
    {GP_MEMSET_TAG, GP_S_FIELDS, memset_out_of_range, read_memset, "memset"},
    {GP_UNIFIED_TAG, GP_U_FIELDS, unified_out_of_range, read_unified, "unified memory"},
    {GP_SAMPLE_TAG, GP_P_FIELDS, gp_records_sample_out_of_range, gp_records_read_sample,
     "DRAM sample"},
    {GP_RANGE_TAG, GP_R_FIELDS, gp_records_range_out_of_range, gp_records_read_range_line,
     "NVTX range"},
};
#define N_NUMBER_LINES (sizeof number_lines / sizeof number_lines[0])
#define MOST_FIELDS GP_K_FIELDS

/* The kind of a line of numbers by its first character; N_NUMBER_LINES: a JSON record. */
static size_t number_line_kind(char tag)
{
    size_t i = 0;
    while (i < N_NUMBER_LINES && number_lines[i].tag != tag)
        i++;
    return i;
}

/* "T n n n ...\n", n decimal (one past UINT64_MAX stays there), `fields` of them: false for
 * a line that is not whole (a crash cut it) or not one the library writes. */
static bool parse_numbers(const char *line, size_t len, size_t fields, uint64_t *k)
{
    size_t i = 1;
    for (size_t f = 0; f < fields; f++) {
        if (i >= len || line[i] != ' ')
            return false;
        const size_t first = ++i;
        uint64_t v = 0;
        for (; i < len && line[i] >= '0' && line[i] <= '9'; i++) {
            const unsigned digit = (unsigned)(line[i] - '0');
            v = v > (UINT64_MAX - digit) / 10 ? UINT64_MAX : v * 10 + digit;
        }
        if (i == first)
            return false;
        k[f] = v;
    }
    return i + 1 == len && line[i] == '\n';
}

bool gp_records_is_number_line(char tag)
{
    return number_line_kind(tag) < N_NUMBER_LINES;
}

int gp_records_read_number_line(reader *rd, const char *line, size_t len, const char *file,
                                size_t number)
{
    const size_t kind = number_line_kind(line[0]);
    uint64_t k[MOST_FIELDS];
    if (kind == N_NUMBER_LINES)
        return GP_OK;
    if (!parse_numbers(line, len, number_lines[kind].fields, k))
        return GP_OK;
    const char *field = number_lines[kind].out_of_range(k);
    if (!field)
        return number_lines[kind].read(rd, k);
    gp_records_locate(rd, file, number);
    gp_json_fail(&rd->json, "a %s line's %s is out of its range", number_lines[kind].what,
                 field);
    return gp_records_ignore(rd, "the line is ignored");
}
