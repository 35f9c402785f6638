/* exec --stalls' parts (gpuprof/report_parts.h): the kernels and a kernel's lines as people
 * read them (text, Markdown, the page) and as CSV's row per kernel and line; what the run
 * sampled and each sampled instruction as JSON holds them. A kernel and a line both hold
 * their counts first (gpuprof/exec_stalls.h), so that one getter of a share reads either. */
#include "gpuprof/report_parts.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static const gp_stall_context *context(const void *ctx)
{
    return ctx;
}

static const gp_stall_counts *counts_of(const void *row)
{
    return row;
}

/* ---- cells of either row -------------------------------------------------------------- */

GP_PART_NUMBER_GETTER(get_share, gp_stall_counts, void, r->share)
GP_PART_NUMBER_GETTER(get_samples, gp_stall_counts, void, r->samples)

/* Group `at`'s share of the row's samples ("-": too few, or none). */
static gp_cell get_group(const void *row, const void *ctx, size_t at, char *buf, size_t len)
{
    (void)ctx, (void)buf, (void)len;
    return GP_CELL_NUMBER(gp_stall_group_share(counts_of(row), (gp_stall_group)at));
}

/* The row's top reason `at` with its share. */
static gp_cell get_top(const void *row, const void *ctx, size_t at, char *buf, size_t len)
{
    gp_stall_describe_top(counts_of(row), context(ctx)->summary->stalls, at, buf, len);
    return GP_CELL_TEXT(buf);
}

static bool wide(const void *ctx)
{
    return context(ctx)->wide;
}

#define PEOPLE (GP_IN_TEXT | GP_IN_HTML)

/* The columns of both parts: a kernel's and a line's counts, for people (and CSV, in its
 * order), then the line part's own place of the line in CSV. */
enum {
    SHARE, SAMPLES, GROUP, TOP = GROUP + GP_STALL_GROUPS, LABEL = TOP + GP_STALL_TOP,
    KERNEL_ID, KERNEL, NAME, CODE, FILE_NAME, LINE
};

/* A group's share, in the views `SHOWN`, as the group table names it. */
#define GROUP_COLUMN(id, key_, header_, name_, reasons_, fix_)                                 \
    [GROUP + (id)] = {.key = key_, .header = header_, .html = header_,                        \
                      .format = GP_NUMBER_PERCENT1, .gap = (id) ? 1 : 2, .in = SHOWN,          \
                      .get_at = get_group, .at = (id), .legend = fix_},
#define TOP_COLUMNS                                                                            \
    [TOP] = {.key = "top_reason", .header = "top reason", .html = "top reason",              \
             .align = GP_ALIGN_LEFT, .gap = 2, .in = PEOPLE, .get_at = get_top, .at = 0,       \
             .legend = "the reason of the most samples (ncu's name) and its share"},           \
    [TOP + 1] = {.key = "second_reason", .header = "2nd", .html = "2nd",                       \
                 .align = GP_ALIGN_LEFT, .gap = 1, .in = PEOPLE, .get_at = get_top, .at = 1,   \
                 .when = wide},                                                                \
    [TOP + 2] = {.key = "third_reason", .header = "3rd", .html = "3rd",                        \
                 .align = GP_ALIGN_LEFT, .gap = 1, .in = PEOPLE, .get_at = get_top, .at = 2,   \
                 .when = wide}

/* ---- the kernels ---------------------------------------------------------------------- */

/* "#3 " (a merged report's files too: "#3 [1,2] ") before the name in the view's style; an
 * unnumbered kernel (one the summary lacks) by its full name. */
static gp_cell get_kernel_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_stall_kernel *k = row;
    const gp_kernel_labels *kl = context(ctx)->labels;
    if (!kl || !k->number)
        return (gp_cell){.text = k->name, .tag = ""};
    const char *from = gp_kernel_labels_from_number(kl, k->number);
    snprintf(buf, len, "#%zu %s%s", k->number, from, from[0] ? " " : "");
    return (gp_cell){.text = gp_kernel_labels_label(kl, k->number), .tag = buf};
}

#define SHOWN PEOPLE
static const gp_part_column kernel_columns[] = {
    [SHARE] = {.key = "share", .header = "%samples", .html = "% of samples",
               .format = GP_NUMBER_PERCENT1, .in = PEOPLE, .get = get_share,
               .legend = "the kernel's share of every sample in the program's kernels"},
    [SAMPLES] = {.key = "samples", .header = "samples", .format = GP_NUMBER_COUNT, .gap = 1,
                 .in = PEOPLE, .get = get_samples},
    GP_STALL_GROUP_TABLE(GROUP_COLUMN)
    TOP_COLUMNS,
    [LABEL] = {.key = "kernel", .header = "kernel", .html = "kernel", .align = GP_ALIGN_NAME,
               .gap = 2, .in = PEOPLE, .get = get_kernel_label},
};
#undef SHOWN

/* ---- a kernel's lines ------------------------------------------------------------------- */

static const gp_stall_kernel *kernel_of(const void *ctx)
{
    return context(ctx)->kernel;
}

GP_PART_GETTER(get_kernel_id, void, gp_stall_context,
               kernel_of(c)->number ? GP_CELL_NUMBER(kernel_of(c)->number) : GP_CELL_ABSENT)
GP_PART_TEXT_GETTER(get_mangled, void, gp_stall_context, kernel_of(c)->mangled)
GP_PART_TEXT_GETTER(get_name, void, gp_stall_context, kernel_of(c)->name)
GP_PART_TEXT_GETTER(get_file, gp_stall_line, void, r->file ? r->file : "")
GP_PART_GETTER(get_line_number, gp_stall_line, void,
               r->file ? GP_CELL_NUMBER(r->line) : GP_CELL_ABSENT)

static gp_cell get_code(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)row;
    const uint64_t code = kernel_of(ctx)->code;
    if (code)
        snprintf(buf, len, "%" PRIu64, code);
    return GP_CELL_TEXT(buf);
}

static gp_cell get_line_label(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_stall_line *l = row;
    gp_stall_describe_line(l, context(ctx)->wide, buf, len);
    return (gp_cell){.text = buf, .title = l->file};
}

#define SHOWN (PEOPLE | GP_IN_CSV)
static const gp_part_column line_columns[] = {
    [SHARE] = {.key = "share", .header = "%kernel", .html = "% of kernel",
               .format = GP_NUMBER_PERCENT1, .in = PEOPLE | GP_IN_CSV, .get = get_share,
               .legend = "the line's share of its kernel's samples"},
    [SAMPLES] = {.key = "samples", .header = "samples", .format = GP_NUMBER_COUNT, .gap = 1,
                 .in = PEOPLE | GP_IN_CSV, .get = get_samples},
    GP_STALL_GROUP_TABLE(GROUP_COLUMN)
    TOP_COLUMNS,
    [LABEL] = {.key = "line", .header = "line", .html = "line", .align = GP_ALIGN_LEFT,
               .gap = 2, .in = PEOPLE, .get = get_line_label},
    [KERNEL_ID] = {.key = "kernel_id", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV,
                   .get = get_kernel_id,
                   .legend = "the kernel's #N in the kernel summary (empty: not there)"},
    [KERNEL] = {.key = "kernel", .in = GP_IN_CSV, .get = get_mangled,
                .legend = "the kernel's mangled name, as CUPTI names it"},
    [NAME] = {.key = "name", .in = GP_IN_CSV, .get = get_name,
              .legend = "the kernel's full name, as the kernel summary gives it"},
    [CODE] = {.key = "code", .in = GP_IN_CSV, .get = get_code,
              .legend = "its code's cubin CRC, in decimal (empty: not known)"},
    [FILE_NAME] = {.key = "file", .in = GP_IN_CSV, .get = get_file,
                   .legend = "the source file (empty: no line information)"},
    [LINE] = {.key = "line", .format = GP_NUMBER_COUNT, .in = GP_IN_CSV, .get = get_line_number},
};
#undef SHOWN

/* ---- what the run sampled, and each instruction (JSON) ---------------------------------- */

/* 0 (not known) or CUPTI's 5 to 31. */
static const char *set_period(void *row, const gp_cell *v, char *why, size_t len)
{
    uint64_t period = 0;
    if (!(v->number == 0 && !v->text) &&
        gp_part_whole(v, GP_STALL_PERIOD_MIN, GP_STALL_PERIOD_MAX, &period, why, len))
        return why;
    ((gp_exec_stalls *)row)->period_log2 = (unsigned)period;
    return NULL;
}
GP_PART_WHOLE_SETTER(set_run_samples, gp_exec_stalls, r->samples, 0, UINT64_MAX)
GP_PART_WHOLE_SETTER(set_dropped, gp_exec_stalls, r->dropped, 0, UINT64_MAX)
GP_PART_WHOLE_SETTER(set_non_user, gp_exec_stalls, r->non_user, 0, UINT64_MAX)
GP_PART_FLAG_SETTER(set_buffer_full, gp_exec_stalls, r->buffer_full)

static const gp_part_column run_columns[] = {
    {.key = "period_log2", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stalls, period_log2), .set = set_period,
     .legend = "a sample every 2^period_log2 cycles of each SM sub-partition; 0: not known"},
    {.key = "samples", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stalls, samples), .set = set_run_samples,
     .legend = "CUPTI's total: the user kernels', other kernels' and dropped samples"},
    {.key = "dropped", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stalls, dropped), .set = set_dropped,
     .legend = "samples the hardware lost to back-pressure or overflow"},
    {.key = "non_user", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stalls, non_user), .set = set_non_user,
     .legend = "samples in kernels that are not the program's (no PC given)"},
    {.key = "buffer_full", .format = GP_NUMBER_FLAG, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stalls, buffer_full), .set = set_buffer_full,
     .legend = "the hardware buffer filled at least once: PCs were lost"},
};

/* A merged report's instruction: its input's index, as the launches carry it. */
GP_PART_GETTER(get_source, gp_exec_stall_pc, gp_report,
               c->n_sources && r->input != GP_INPUT_UNKNOWN ? GP_CELL_NUMBER(r->input)
                                                            : GP_CELL_ABSENT)
GP_PART_TEXT_GETTER(get_pc_kernel, gp_exec_stall_pc, void, r->kernel)
GP_PART_GETTER(get_pc_file, gp_exec_stall_pc, void,
               r->file ? GP_CELL_TEXT(r->file) : GP_CELL_ABSENT)
GP_PART_GETTER(get_pc_line, gp_exec_stall_pc, void,
               r->file ? GP_CELL_NUMBER(r->line) : GP_CELL_ABSENT)

/* A code as a string of its decimal digits (a JSON number is exact only below 2^53); absent
 * when not known. */
static gp_cell get_pc_code(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_exec_stall_pc *p = row;
    if (!p->code)
        return GP_CELL_ABSENT;
    snprintf(buf, len, "%" PRIu64, p->code);
    return GP_CELL_TEXT(buf);
}

static const gp_part_column pc_columns[] = {
    {.key = "source", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_source,
     .legend = "a merged report's: the index of its input report in sources"},
    {.key = "pid", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stall_pc, pid)},
    {.key = "kernel", .in = GP_IN_JSON, .get = get_pc_kernel,
     .legend = "the function's mangled name, as CUPTI names it"},
    {.key = "code", .in = GP_IN_JSON, .get = get_pc_code,
     .legend = "its cubin's CRC in decimal digits; absent: not known"},
    {.key = "pc", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stall_pc, pc),
     .legend = "the instruction's offset in the function, bytes"},
    {.key = "file", .in = GP_IN_JSON, .get = get_pc_file,
     .legend = "its source file; absent without line information"},
    {.key = "line", .format = GP_NUMBER_WHOLE, .in = GP_IN_JSON, .get = get_pc_line},
    {.key = "not_issued", .format = GP_NUMBER_COUNT, .in = GP_IN_JSON,
     GP_PART_FIELD(gp_exec_stall_pc, not_issued),
     .legend = "of its samples, those that found the warp not issuing"},
};

/* ---- the declarations ------------------------------------------------------------------- */


/* ---- the declarations ------------------------------------------------------------------- */

const gp_part gp_stall_kernel_part = GP_PART_DECLARE("stall_kernels", kernel_columns, 2,
                                                     gp_stall_kernel, -1);
_Static_assert(GP_STALL_GROUPS == 6, "CSV's order lists each group");
const gp_part gp_stall_line_part = {
    .key = "stall_lines", .columns = line_columns,
    .n_columns = sizeof line_columns / sizeof *line_columns, .n_key = 2,
    .row_size = sizeof(gp_stall_line), .json_keyed_by = -1,
    .order = {[GP_VIEW_CSV] = GP_PART_ORDER(KERNEL_ID, KERNEL, NAME, CODE, FILE_NAME, LINE, SAMPLES,
                                            SHARE, GROUP, GROUP + 1, GROUP + 2, GROUP + 3,
                                            GROUP + 4, GROUP + 5)}};
const gp_part gp_stall_run_part = GP_PART_DECLARE("stalls", run_columns, 0, gp_exec_stalls, -1);
const gp_part gp_stall_pc_part = GP_PART_DECLARE("pcs", pc_columns, 0, gp_exec_stall_pc, -1);
