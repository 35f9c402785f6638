/* A merged report's inputs (gpuprof report A.json B.json) as a part (gpuprof/report_parts.h):
 * each file with its gpuprof, command and GPU, as the page's table of inputs and JSON's
 * "sources" show them. The rows are the report's own sources; the context is the report,
 * so that a row knows its number. */
#include "gpuprof/report_parts.h"

#include <stdio.h>

void gp_device_describe(char *buf, size_t len, const gp_device_info *d)
{
    char copy[64] = "";
    if (d->copy_gbps >= 0)
        snprintf(copy, sizeof copy, ", measured copy %.1f GB/s", d->copy_gbps);
    snprintf(buf, len, "%s (sm_%d%d, %d SMs, peak %.1f GB/s%s)", d->name, d->cc_major,
             d->cc_minor, d->multiprocessors, d->peak_gbps, copy);
}

/* "[2]": the file's number as the rows name it when the files differ. */
static gp_cell get_number(const void *row, const void *ctx, char *buf, size_t len)
{
    const gp_report *r = ctx;
    snprintf(buf, len, "[%zu]", (size_t)((const gp_report_source *)row - r->sources) + 1);
    return GP_CELL_TEXT(buf);
}

/* The GPU described, or that the file recorded none. */
static gp_cell get_device(const void *row, const void *ctx, char *buf, size_t len)
{
    (void)ctx;
    const gp_report_source *s = row;
    if (s->has_device)
        gp_device_describe(buf, len, &s->device);
    else
        snprintf(buf, len, "no GPU");
    return GP_CELL_TEXT(buf);
}

GP_PART_TEXT_GETTER(get_file, gp_report_source, void, r->file)
GP_PART_TEXT_GETTER(get_tool_version, gp_report_source, void, r->tool_version)
GP_PART_TEXT_GETTER(get_command, gp_report_source, void, r->command)

/* The page's columns and JSON's keys: one order serves both. JSON's device object and
 * program array follow its keys, written by the view (they are not cells). */
static const gp_part_column columns[] = {
    {.key = "number", .html = "#", .in = GP_IN_HTML, .get = get_number},
    {.key = "file", .in = GP_IN_HTML | GP_IN_JSON, .get = get_file, .html_class = "wrap",
     .legend = "the file as named on the command line (the page breaks a long one anywhere)"},
    {.key = "tool_version", .html = "gpuprof", .in = GP_IN_HTML | GP_IN_JSON,
     .get = get_tool_version, .legend = "the gpuprof that wrote it"},
    {.key = "command", .in = GP_IN_HTML | GP_IN_JSON, .get = get_command,
     .legend = "the command that made it"},
    {.key = "device", .in = GP_IN_HTML, .get = get_device},
};

const gp_part gp_sources_part = GP_PART_DECLARE("sources", columns, 1, gp_report_source, -1);
