/* A long run's progress on a terminal (gpuprof/render.h): one line written over itself with
 * a carriage return and erase-line, so that it never scrolls the results away. Its caller
 * writes it only to a terminal: in a pipe or a file these bytes would be noise. */
#include "gpuprof/render.h"

#define ERASE_LINE "\r\033[K"

void gp_render_progress(FILE *term, const char *what)
{
    fprintf(term, ERASE_LINE "%s", what);
    fflush(term);
}

void gp_render_progress_clear(FILE *term)
{
    fputs(ERASE_LINE, term);
    fflush(term);
}
