/* CUDA-graph kernel nodes in exec's text (text_graph.c): the --graph-profiling mode's
 * paragraph, and a table's notes as numbered footnotes (the HTML page numbers its notes
 * alike). The facts they show: gpuprof/exec_graph.h. */
#ifndef GPUPROF_RENDER_TEXT_GRAPH_H
#define GPUPROF_RENDER_TEXT_GRAPH_H

#include "gpuprof/hashmap.h"
#include "gpuprof/report.h"
#include "render/text_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The paragraph under exec's header when the program ran graph nodes: how many, and what
 * --graph-profiling did with them. */
void gp_text_graph_mode(FILE *out, const gp_exec_info *e, size_t width);

/* The notes of a table, each distinct note numbered once, in the order first met. */
typedef struct {
    gp_hashmap numbers;          /* note -> size_t: its number */
    const char **notes;          /* by number - 1; point into the report */
    size_t n, capacity;
} gp_text_notes;

void gp_text_notes_init(gp_text_notes *n);
void gp_text_notes_free(gp_text_notes *n);
/* The note's number (1, 2, ...), given the first time it is met; 0 when memory ran out. */
size_t gp_text_note_number(gp_text_notes *n, const char *note);
/* "[1] note" per note under a table, wrapped within the width. */
void gp_text_notes_print(FILE *out, const gp_text_notes *n, size_t width);

#endif
