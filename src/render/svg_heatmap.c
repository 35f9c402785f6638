/* Inline SVG heatmaps (render/svg.h): a grid of cells coloured by value on a sequential scale
 * (viridis, which reads in grey and to colour-blind readers), the value written in each cell
 * in black or white, whichever its colour lets through, and a legend of the scale's steps.
 * No gradients: a gradient is referenced by url(), which the pages never write. */
#include "render/svg.h"

#include <math.h>
#include <string.h>

#define CELL_W 72.0
#define CELL_H 30.0
#define CHAR_W 6.8                   /* as svg.c: an average glyph of the page's 12 px font */
#define LEGEND_STEPS 8

/* viridis at 0, 1/8, …, 1. */
static const unsigned char VIRIDIS[9][3] = {
    {68, 1, 84},    {71, 44, 122},  {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
    {39, 173, 129}, {92, 200, 99},  {170, 220, 50}, {253, 231, 37},
};

/* The colour at t in [0, 1], interpolated between the palette's stops. */
static void colour_at(double t, unsigned char rgb[3])
{
    t = isfinite(t) ? fmin(fmax(t, 0), 1) : 0;
    const double x = t * 8;
    const int k = x >= 8 ? 7 : (int)x;
    const double f = x - k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(VIRIDIS[k][c] + f * (VIRIDIS[k + 1][c] - VIRIDIS[k][c]));
}

/* Dark text on a light cell, light text on a dark one (relative luminance, sRGB). */
static bool light(const unsigned char rgb[3])
{
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] > 140;
}

static double scale_t(const gp_svg_heatmap *h, double v)
{
    return h->hi > h->lo ? (v - h->lo) / (h->hi - h->lo) : 1;
}

static double longest(const char *const *s, size_t n, const char *also)
{
    double w = CHAR_W * (double)strlen(also);
    for (size_t i = 0; i < n; i++)
        w = fmax(w, CHAR_W * (double)strlen(s[i]));
    return w;
}

typedef struct {
    double x0, y0;                   /* the grid's top left */
    double width, height;
} heat_layout;

static heat_layout heat_layout_of(const gp_svg_heatmap *h)
{
    heat_layout l;
    l.x0 = longest(h->rows, h->n_rows, h->row_title) + 16;
    l.y0 = 50;
    l.width = fmax(l.x0 + CELL_W * (double)h->n_cols, 30 + LEGEND_STEPS * 28 + 60) + 12;
    l.height = l.y0 + CELL_H * (double)h->n_rows + 62;
    return l;
}

static void heat_axes(FILE *out, const gp_svg_heatmap *h, const heat_layout *l)
{
    const double grid_w = CELL_W * (double)h->n_cols;
    gp_svg_text(out, l->x0 + grid_w / 2, 16, "axis-title", "middle", h->col_title);
    for (size_t c = 0; c < h->n_cols; c++)
        gp_svg_text(out, l->x0 + CELL_W * ((double)c + 0.5), l->y0 - 8, "tick", "middle",
                    h->cols[c]);
    gp_svg_text(out, l->x0 - 8, l->y0 - 8, "axis-title", "end", h->row_title);
    for (size_t r = 0; r < h->n_rows; r++)
        gp_svg_text(out, l->x0 - 8, l->y0 + CELL_H * ((double)r + 0.5) + 4, "tick", "end",
                    h->rows[r]);
}

static void heat_cell(FILE *out, const gp_svg_heatmap *h, const heat_layout *l, size_t r,
                      size_t c)
{
    const double v = h->values[r * h->n_cols + c];
    const double x = l->x0 + CELL_W * (double)c, y = l->y0 + CELL_H * (double)r;
    if (!isfinite(v)) {
        fprintf(out, "<rect class=\"cell none\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\"/>\n", x, y, CELL_W - 2, CELL_H - 2);
        return;
    }
    unsigned char rgb[3];
    colour_at(scale_t(h, v), rgb);
    fprintf(out, "<g class=\"cell\"><rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\" fill=\"#%02x%02x%02x\"><title>", x, y, CELL_W - 2,
            CELL_H - 2, rgb[0], rgb[1], rgb[2]);
    gp_html_escape(out, h->row_title);
    fputc('=', out);
    gp_html_escape(out, h->rows[r]);
    fputs(", ", out);
    gp_html_escape(out, h->col_title);
    fputc('=', out);
    gp_html_escape(out, h->cols[c]);
    fprintf(out, ": %.1f ", v);
    gp_html_escape(out, h->unit);
    fprintf(out, "</title></rect><text class=\"cell-value%s\" x=\"%.1f\" y=\"%.1f\" "
                 "text-anchor=\"middle\">%.0f</text></g>\n", light(rgb) ? "" : " on-dark",
            x + (CELL_W - 2) / 2, y + CELL_H / 2 + 3, v);
}

/* The scale: its steps as swatches, the lowest and highest value at its ends. */
static void heat_legend(FILE *out, const gp_svg_heatmap *h, const heat_layout *l)
{
    const double y = l->y0 + CELL_H * (double)h->n_rows + 14, x0 = 30;
    fputs("<g class=\"legend\">\n", out);
    for (int k = 0; k < LEGEND_STEPS; k++) {
        unsigned char rgb[3];
        colour_at((k + 0.5) / LEGEND_STEPS, rgb);
        fprintf(out, "<rect class=\"step\" x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"12\" "
                     "fill=\"#%02x%02x%02x\"/>\n", x0 + 28.0 * k, y, rgb[0], rgb[1], rgb[2]);
    }
    char end[64];
    snprintf(end, sizeof end, "%.0f", h->lo);
    gp_svg_text(out, x0, y + 26, "tick", "start", end);
    snprintf(end, sizeof end, "%.0f %s", h->hi, h->unit);
    gp_svg_text(out, x0 + 28.0 * LEGEND_STEPS, y + 26, "tick", "end", end);
    fputs("</g>\n", out);
}

void gp_svg_heatmap_chart(FILE *out, const gp_svg_heatmap *h)
{
    const heat_layout l = heat_layout_of(h);
    fprintf(out, "<svg class=\"heatmap\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
                 "height=\"%.0f\" role=\"img\"><title>", l.width, l.height, l.width, l.height);
    gp_html_escape(out, h->title);
    fputs("</title><desc>", out);
    gp_html_escape(out, h->desc);
    fputs("</desc>\n", out);
    heat_axes(out, h, &l);
    for (size_t r = 0; r < h->n_rows; r++)
        for (size_t c = 0; c < h->n_cols; c++)
            heat_cell(out, h, &l, r, c);
    heat_legend(out, h, &l);
    fputs("</svg>\n", out);
}
