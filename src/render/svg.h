/* Inline SVG charts for the HTML pages (render/html_*.c): horizontal bar charts with one or
 * more series per row, and line charts. Plain data in, markup out; no scripts, nothing
 * fetched. Every element a test or a stylesheet needs has a class: rect.bar, circle.point,
 * polyline.line, line.ref, g.row; series are s0, s1, ... in the order given. */
#ifndef GPUPROF_SVG_H
#define GPUPROF_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GP_SVG_MAX_SERIES 2
#define GP_SVG_VALUE_LEN 64

/* Text for HTML and SVG alike: & < > " ' escaped, so names from users cannot make markup. */
void gp_html_escape(FILE *out, const char *s);
/* The same, cut to at most `max` characters: the start and the end kept, an ellipsis
 * between. Control characters become U+FFFD in both. */
void gp_html_escape_cut(FILE *out, const char *s, size_t max);

/* One row of a bar chart: a bar per series, or a heading that names the rows below it. */
typedef struct {
    const char *label;                              /* escaped by the chart; cut when long */
    bool heading;
    double values[GP_SVG_MAX_SERIES];               /* NAN: no value, "n/a" is written */
    char value_text[GP_SVG_MAX_SERIES][GP_SVG_VALUE_LEN];   /* at the end of each bar */
    const char *row_class;                          /* added to the row's classes, or NULL */
    const char *marker;                             /* after the row's bars, or NULL */
} gp_svg_row;

/* A reference value drawn across the plot: a peak, a measured ceiling. */
typedef struct {
    double value;
    char label[GP_SVG_VALUE_LEN];
    const char *cls;                                /* "peak", "copy" */
} gp_svg_refline;

typedef struct {
    const char *title;                              /* for screen readers and tooltips */
    const char *axis_title;                         /* with its unit */
    const char *series[GP_SVG_MAX_SERIES];          /* legend names; one series: no legend */
    size_t n_series;
    const gp_svg_row *rows;
    size_t n_rows;
    const gp_svg_refline *lines;
    size_t n_lines;
    double max;                                     /* the axis' end; 0: from the data */
    int width;                                      /* of the viewBox; 0: 1000 */
} gp_svg_bars;

void gp_svg_bar_chart(FILE *out, const gp_svg_bars *c);

/* One line of a line chart: its points, in any order (drawn sorted by x). */
typedef struct {
    char name[GP_SVG_VALUE_LEN];
    double *x, *y;
    size_t n;
} gp_svg_series;

typedef struct {
    const char *title;
    const char *x_title, *y_title;                  /* with their units */
    bool log2_x;                                    /* x ticks at powers of two */
    const gp_svg_series *series;
    size_t n_series;
    const gp_svg_refline *lines;                    /* horizontal */
    size_t n_lines;
    int width, height;                              /* 0: 1000 × 380 */
} gp_svg_lines;

void gp_svg_line_chart(FILE *out, const gp_svg_lines *c);

/* Round numbers for an axis from 0 to at least `max`: the step between ticks. */
double gp_svg_tick_step(double max);

#endif
