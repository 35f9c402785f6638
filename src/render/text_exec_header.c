/* The lines an exec report's text header and a rank view's share (render/text.h): what ran
 * and on which GPUs; and a merged exec report's files, each with the program it profiled, so
 * that no program but the first goes unnamed (the header line names the first). */
#include "render/text.h"

#include "render/cells.h"

#include <stdlib.h>

size_t gp_text_exec_program(char *line, size_t len, const gp_report *r)
{
    const gp_exec_info *e = &r->exec;
    size_t used = (size_t)snprintf(line, len, "gpuprof %s  exec", r->tool_version);
    for (size_t i = 0; i < e->argc && i < 8 && used < len; i++)
        used += (size_t)snprintf(line + used, len - used, " %s", e->argv[i]);
    if (e->argc > 8 && used < len)
        used += (size_t)snprintf(line + used, len - used, " ...");
    return used;
}

size_t gp_text_exec_gpus(char *line, size_t len, const gp_exec_info *e)
{
    size_t used = 0;
    for (size_t i = 0; i < e->n_devices && used < len; i++) {
        const gp_device_info *d = &e->devices[i];
        used += (size_t)snprintf(line + used, len - used, "%sGPU %d: %s (sm_%d%d, %.1f GB/s "
                                 "peak)", i ? "; " : "", d->index, d->name, d->cc_major,
                                 d->cc_minor, d->peak_gbps);
    }
    if (e->n_devices == 0)
        used = (size_t)snprintf(line, len, "no GPU recorded");
    return used < len ? used : len - 1;
}

/* "[1] FILE: PROGRAM", the program wrapped within the width: the file is the path the user
 * gave, so its length is theirs (never broken, the program on the next line if need be). */
void gp_text_exec_sources(FILE *out, const gp_report *r, size_t width)
{
    if (!r->n_sources)
        return;
    fprintf(out, "report of %zu files:\n", r->n_sources);
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *s = &r->sources[i];
        char *program = s->program ? gp_command_line_text(s->program, s->program_len) : NULL;
        const int lead = fprintf(out, "  [%zu] %s:", i + 1, s->file);
        gp_text_paragraph_from(out, lead > 0 ? (size_t)lead : 0,
                               program ? program
                                       : "program not recorded (merged by an older gpuprof)",
                               width, 6);
        free(program);
    }
}
