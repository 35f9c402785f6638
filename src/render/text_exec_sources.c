/* Text of a merged exec report: every file it was made of and the program each profiled, so
 * that no program but the first goes unnamed (the header line names the first). */
#include "render/text.h"

#include "render/cells.h"

#include <stdlib.h>

void gp_text_exec_sources(FILE *out, const gp_report *r)
{
    if (!r->n_sources)
        return;
    fprintf(out, "report of %zu files:\n", r->n_sources);
    for (size_t i = 0; i < r->n_sources; i++) {
        const gp_report_source *s = &r->sources[i];
        char *program = s->program ? gp_command_line_text(s->program, s->program_len) : NULL;
        fprintf(out, "  [%zu] %s: %s\n", i + 1, s->file,
                program ? program : "program not recorded (merged by an older gpuprof)");
        free(program);
    }
}
