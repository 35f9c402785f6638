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
    const char *label;                              /* escaped by the chart; wrapped onto a
                                                       second line, then cut, when long */
    const char *full;                               /* the hover text (<title>) of the label
                                                       and bars; NULL: the label */
    bool heading;
    double values[GP_SVG_MAX_SERIES];               /* NAN: no value, "n/a" is written */
    double lo[GP_SVG_MAX_SERIES], hi[GP_SVG_MAX_SERIES];   /* a whisker from lo to hi across
                                                       the bar's end (the noise); none
                                                       unless lo < hi */
    char value_text[GP_SVG_MAX_SERIES][GP_SVG_VALUE_LEN];   /* at the end of each bar */
    const char *row_class;                          /* added to the row's classes, or NULL */
    const char *marker;                             /* after the row's bars, or NULL */
    char whisker_text[GP_SVG_MAX_SERIES][GP_SVG_VALUE_LEN];   /* the whisker's <title> */
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

/* A <text> of the class at (x, y), anchored "start", "middle" or "end"; `s` escaped. */
void gp_svg_text(FILE *out, double x, double y, const char *cls, const char *anchor,
                 const char *s);

/* A heatmap (svg_heatmap.c): a cell per pair of two parameters' values, coloured on one
 * scale from lo to hi with a legend, its value written in it; rect.cell, text.cell-value,
 * g.legend. */
typedef struct {
    const char *title;                              /* <title>: the chart's name */
    const char *desc;                               /* <desc>: what it shows, in words */
    const char *row_title, *col_title;              /* the parameters: "block", "pad" */
    const char *const *rows, *const *cols;          /* their values, as written */
    size_t n_rows, n_cols;
    const double *values;                           /* n_rows × n_cols by rows; NAN: none */
    const char *unit;                               /* "GB/s" */
    double lo, hi;                                  /* the colour scale's ends */
} gp_svg_heatmap;

void gp_svg_heatmap_chart(FILE *out, const gp_svg_heatmap *h);

/* Round numbers for an axis from 0 to at least `max`: the step between ticks. */
double gp_svg_tick_step(double max);

#endif
