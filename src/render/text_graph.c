/* CUDA-graph kernel nodes in exec's text (render/text_graph.h). */
#include "render/text_graph.h"

#include "gpuprof/exec_graph.h"

#include <stdlib.h>
#include <string.h>

void gp_text_graph_mode(FILE *out, const gp_exec_info *e, size_t width)
{
    char summary[1024], line[1100];
    if (!gp_exec_graph_summary(summary, sizeof summary, e))
        return;
    snprintf(line, sizeof line, "CUDA graphs: %s", summary);
    gp_text_paragraph(out, line, width, 2);
}

/* ---- notes ----------------------------------------------------------------------------- */

void gp_text_notes_init(gp_text_notes *n)
{
    memset(n, 0, sizeof *n);
    gp_hashmap_init(&n->numbers, sizeof(size_t));
}

void gp_text_notes_free(gp_text_notes *n)
{
    gp_hashmap_free(&n->numbers);
    free(n->notes);
    memset(n, 0, sizeof *n);
}

size_t gp_text_note_number(gp_text_notes *n, const char *note)
{
    bool added;
    size_t *number = gp_hashmap_add_str(&n->numbers, note, &added);
    if (!number || !added)
        return number ? *number : 0;
    const char **slot = gp_append_zeroed(&n->notes, &n->n, &n->capacity, sizeof *slot);
    if (!slot)
        return 0;
    *slot = note;
    return *number = n->n;
}

void gp_text_notes_print(FILE *out, const gp_text_notes *n, size_t width)
{
    for (size_t i = 0; i < n->n; i++) {
        const size_t len = strlen(n->notes[i]) + 32;
        char *line = malloc(len);
        if (!line)
            return;
        snprintf(line, len, "[%zu] %s", i + 1, n->notes[i]);
        gp_text_paragraph(out, line, width, 4);
        free(line);
    }
}
