/* Inline SVG charts: horizontal bars and lines, laid out in a viewBox (the page scales them)
 * with text widths estimated from character counts, as no font can be measured here. */
#include "render/svg.h"

#include <math.h>
#include <string.h>

/* An average glyph of the 12 px sans-serif the page uses, wide enough for digits. */
#define CHAR_W 6.8
#define LABEL_MAX 44                 /* characters of a bar's label before it is cut */
#define SIDE_SHARE 0.35              /* of a bar chart's width, at most, for labels or values */
#define BAR_H 15.0
#define PALETTE 8                    /* series classes s0..s7, then dashed lines */
#define MAX_TICKS 40                 /* whatever the numbers, an axis ends */

static bool utf8_start(char c)
{
    return (unsigned char)c >> 6 != 2;
}

static size_t char_count(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += utf8_start(*s);
    return n;
}

/* Where the k-th character (not byte) of s starts, or its end. */
static const char *utf8_at(const char *s, size_t k)
{
    for (; *s; s++)
        if (utf8_start(*s) && k-- == 0)
            break;
    return s;
}

static void escape_bytes(FILE *out, const char *s, const char *end)
{
    for (; s < end; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters are not allowed in HTML text: shown as U+FFFD. */
            if (((unsigned char)*s < 0x20 && !strchr("\t\n\r", *s)) || *s == 0x7f)
                fputs("\xef\xbf\xbd", out);
            else
                fputc(*s, out);
        }
    }
}

/* The cut is in the middle: a name's start and its end ("... [2]", "... #6") both tell. */
void gp_html_escape_cut(FILE *out, const char *s, size_t max)
{
    if (!s)
        return;
    const size_t n = char_count(s);
    if (n <= max || max < 2) {
        escape_bytes(out, s, s + strlen(s));
        return;
    }
    const size_t tail = max / 3, head = max - tail - 1;
    escape_bytes(out, s, utf8_at(s, head));
    fputs("\xe2\x80\xa6", out);
    const char *from = utf8_at(s, n - tail);
    escape_bytes(out, from, from + strlen(from));
}

void gp_html_escape(FILE *out, const char *s)
{
    gp_html_escape_cut(out, s, (size_t)-1);
}

double gp_svg_tick_step(double max)
{
    if (!(max > 0) || !isfinite(max))
        return 1;
    const double raw = max / 8;
    const double mag = pow(10, floor(log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

/* The axis' end: the data's maximum rounded up to a whole tick. */
static double axis_end(double max)
{
    if (!(max > 0))
        return 1;
    if (!isfinite(max * 1.02))
        return max;
    const double step = gp_svg_tick_step(max * 1.02);
    return ceil(max * 1.02 / step) * step;
}

static double text_w(const char *s)
{
    return CHAR_W * (double)char_count(s);
}

static void svg_open(FILE *out, double w, double h, const char *title, const char *cls)
{
    fprintf(out, "<svg class=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
                 "role=\"img\"><title>", cls, w, h, w, h);
    gp_html_escape(out, title);
    fputs("</title>\n", out);
}

void gp_svg_text(FILE *out, double x, double y, const char *cls, const char *anchor,
                 const char *s)
{
    fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y,
            anchor);
    gp_html_escape(out, s);
    fputs("</text>\n", out);
}

/* A centred text that stays inside the chart: labels are estimated, not measured. */
static void text_centred(FILE *out, double x, double y, double width, const char *cls,
                         const char *s)
{
    const double half = text_w(s) / 2;
    if (x + half > width - 4)
        x = width - 4 - half;
    gp_svg_text(out, x - half < 4 ? 4 + half : x, y, cls, "middle", s);
}

static void grid_line(FILE *out, double x1, double x2, double y1, double y2)
{
    fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
            x1, x2, y1, y2);
}

/* An axis of values from 0 to its end: the bar charts' along x, the line charts' up y. */
typedef struct {
    double end;                      /* the value at the axis' end */
    bool up;                         /* along y, numbered on the left; else along x, below */
    double at_zero, at_end;          /* where 0 and the end stand along the axis */
    double across_lo, across_hi;     /* where the grid lines start and end across it */
} value_axis;

/* At each tick, a grid line across the plot and the tick's number beside the axis. A tick
 * stands where bar_x or line_y puts its value: the same arithmetic (line_y's subtractions are
 * these with their signs turned, which IEEE rounding keeps to the bit). */
static void value_ticks(FILE *out, const value_axis *a)
{
    const double step = gp_svg_tick_step(a->end);
    for (int k = 0; k <= MAX_TICKS && k * step <= a->end * (1 + 1e-9); k++) {
        const double v = k * step, at = a->at_zero + (a->at_end - a->at_zero) * v / a->end;
        char tick[32];
        snprintf(tick, sizeof tick, "%g", v);
        if (a->up) {
            grid_line(out, a->across_lo, a->across_hi, at, at);
            gp_svg_text(out, a->across_lo - 6, at + 4, "tick", "end", tick);
        } else {
            grid_line(out, at, at, a->across_lo, a->across_hi);
            gp_svg_text(out, at, a->across_hi + 15, "tick", "middle", tick);
        }
    }
}

static void series_class(char *buf, size_t len, size_t k)
{
    snprintf(buf, len, "s%zu%s", k % PALETTE, k >= PALETTE ? " dashed" : "");
}

/* ---- bar charts ----------------------------------------------------------------------- */

typedef struct {
    double x0, x1;                   /* the plot's left and right edges */
    double top, bottom;              /* of the rows */
    double max;                      /* the axis' end */
    double width, height;
} bar_layout;

static double bar_x(const bar_layout *l, double v)
{
    return l->x0 + (l->x1 - l->x0) * (v > 0 ? v : 0) / l->max;
}

static size_t label_chars(const gp_svg_bars *c);

/* A label longer than a line takes two (bar_label): its row is tall enough for both. */
static bool label_wraps(const gp_svg_bars *c, const gp_svg_row *row)
{
    return char_count(row->label) > label_chars(c);
}

static double row_height(const gp_svg_bars *c, const gp_svg_row *row)
{
    if (row->heading)
        return 24;
    const double bars = (double)c->n_series * (BAR_H + 2) + 8;
    return label_wraps(c, row) && bars < 32 ? 32 : bars;
}

static double data_max(const gp_svg_bars *c)
{
    double m = 0;
    for (size_t i = 0; i < c->n_rows; i++)
        for (size_t s = 0; s < c->n_series && !c->rows[i].heading; s++)
            m = fmax(m, fmax(isfinite(c->rows[i].values[s]) ? c->rows[i].values[s] : 0,
                             isfinite(c->rows[i].hi[s]) ? c->rows[i].hi[s] : 0));
    for (size_t i = 0; i < c->n_lines; i++)
        if (isfinite(c->lines[i].value) && c->lines[i].value > m)
            m = c->lines[i].value;
    return m;
}

static double chart_width(const gp_svg_bars *c)
{
    return c->width > 0 ? c->width : 1000;
}

/* Room on the right for the longest value text and marker. */
static double value_room(const gp_svg_bars *c)
{
    double w = 60;
    for (size_t i = 0; i < c->n_rows; i++) {
        double row = 0;
        for (size_t s = 0; s < c->n_series; s++)
            if (text_w(c->rows[i].value_text[s]) > row)
                row = text_w(c->rows[i].value_text[s]);
        row += c->rows[i].marker ? text_w(c->rows[i].marker) + 14 : 0;
        if (row + 12 > w)
            w = row + 12;
    }
    return fmin(w, SIDE_SHARE * chart_width(c));
}

/* Labels longer than this are cut, so that a narrow chart keeps room for its bars. */
static size_t label_chars(const gp_svg_bars *c)
{
    const double fit = (SIDE_SHARE * chart_width(c) - 14) / CHAR_W - 1;
    return fit < LABEL_MAX ? (size_t)fit : LABEL_MAX;
}

static double label_room(const gp_svg_bars *c)
{
    const double most = CHAR_W * (double)(label_chars(c) + 1);
    double w = 90;
    for (size_t i = 0; i < c->n_rows; i++) {
        const double t = fmin(text_w(c->rows[i].label), most);
        if (!c->rows[i].heading && t + 14 > w)
            w = t + 14;
    }
    return w;
}

static bar_layout bar_layout_of(const gp_svg_bars *c)
{
    bar_layout l;
    l.width = chart_width(c);
    l.x0 = label_room(c);
    l.x1 = l.width - value_room(c);
    l.top = (c->n_series > 1 ? 26 : 6) + 16.0 * (double)c->n_lines;
    l.bottom = l.top;
    for (size_t i = 0; i < c->n_rows; i++)
        l.bottom += row_height(c, &c->rows[i]);
    l.height = l.bottom + 44;
    l.max = c->max > 0 ? c->max : axis_end(data_max(c));
    return l;
}

static void bar_axis(FILE *out, const gp_svg_bars *c, const bar_layout *l)
{
    const value_axis a = {.end = l->max, .up = false, .at_zero = l->x0, .at_end = l->x1,
                          .across_lo = l->top - 2, .across_hi = l->bottom};
    value_ticks(out, &a);
    text_centred(out, (l->x0 + l->x1) / 2, l->bottom + 36, l->width, "axis-title",
                 c->axis_title);
}

static void bar_legend(FILE *out, const gp_svg_bars *c, const bar_layout *l)
{
    if (c->n_series < 2)
        return;
    double total = 0;
    for (size_t s = 0; s < c->n_series; s++)
        total += 19 + text_w(c->series[s]) + 24;
    double x = l->x0 + total > l->width ? l->width - total : l->x0;
    x = x < 4 ? 4 : x;
    for (size_t s = 0; s < c->n_series; s++) {
        fprintf(out, "<rect class=\"swatch s%zu\" x=\"%.1f\" y=\"6\" width=\"14\" "
                     "height=\"12\"/>\n", s, x);
        gp_svg_text(out, x + 19, 16, "legend", "start", c->series[s]);
        x += 19 + text_w(c->series[s]) + 24;
    }
}

/* Vertical lines across the rows, each labelled above the plot on a line of its own so
 * that close values (peak and copy bandwidth) do not overwrite each other. */
static void bar_reflines(FILE *out, const gp_svg_bars *c, const bar_layout *l)
{
    for (size_t i = 0; i < c->n_lines; i++) {
        const gp_svg_refline *r = &c->lines[i];
        const double x = bar_x(l, r->value);
        const double y = l->top - 16.0 * (double)(c->n_lines - i) + 11;
        fprintf(out, "<line class=\"ref %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                     "y2=\"%.1f\"/>\n", r->cls, x, x, y + 3, l->bottom);
        const bool right = x > (l->x0 + l->x1) / 2;
        char cls[48];
        snprintf(cls, sizeof cls, "ref-label %s", r->cls);
        gp_svg_text(out, right ? x - 4 : x + 4, y, cls, right ? "end" : "start", r->label);
    }
}

/* Where a label may break: after a space, a comma, '_' or "::", before '<' or '('. */
static bool break_before(const char *s, const char *at)
{
    return at > s && (at[-1] == ' ' || at[-1] == ',' || at[-1] == '_' ||
                      (at[-1] == ':' && at[0] != ':') ||
                      at[0] == '<' || at[0] == '(');
}

/* The end of a label's first line of at most `cut` characters: the last readable break in
 * its second half, else the `cut`-th character. */
static const char *first_line_end(const char *s, size_t cut)
{
    const char *hard = utf8_at(s, cut), *best = NULL;
    for (const char *p = utf8_at(s, cut / 2); p <= hard && *p; p++)
        if (utf8_start(*p) && break_before(s, p))
            best = p;
    return best ? best : hard;
}

/* The label right-aligned at x: on one line when it fits, else on two, broken at a readable
 * boundary, the second cut in the middle when still too long; the whole text on hover. */
static void bar_label(FILE *out, const gp_svg_row *row, size_t cut, double x, double y)
{
    fprintf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>", x,
            y);
    gp_html_escape(out, row->full ? row->full : row->label);
    fputs("</title>", out);
    if (char_count(row->label) <= cut) {
        gp_html_escape(out, row->label);
        fputs("</text>\n", out);
        return;
    }
    const char *end = first_line_end(row->label, cut), *rest = end;
    while (*rest == ' ')
        rest++;
    fprintf(out, "<tspan x=\"%.1f\" y=\"%.1f\">", x, y - 6.5);
    escape_bytes(out, row->label, end);
    fprintf(out, "</tspan><tspan x=\"%.1f\" y=\"%.1f\">", x, y + 6.5);
    gp_html_escape_cut(out, rest, cut);
    fputs("</tspan></text>\n", out);
}

/* A line from lo to hi across the bar's end, with caps: the spread of the value. */
static double bar_whisker(FILE *out, const bar_layout *l, const gp_svg_row *row, size_t s,
                          double y)
{
    const double lo = row->lo[s], hi = row->hi[s];
    if (!(isfinite(lo) && isfinite(hi) && lo < hi))
        return l->x0;
    const double x0 = bar_x(l, lo), x1 = bar_x(l, hi), mid = y + BAR_H / 2;
    fputs("<g class=\"whisker\"><title>", out);
    gp_html_escape(out, row->full ? row->full : row->label);
    fputs(": ", out);
    gp_html_escape(out, row->whisker_text[s]);
    fprintf(out, "</title><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/></g>\n",
            x0, x1, mid, mid, x0, x0, mid - 4, mid + 4, x1, x1, mid - 4, mid + 4);
    return x1;
}

/* One series' bar of a row and its value; returns where the value's text ends. */
static double bar_one(FILE *out, const gp_svg_bars *c, const bar_layout *l,
                      const gp_svg_row *row, size_t s, double y)
{
    const double v = row->values[s];
    if (!isfinite(v)) {
        gp_svg_text(out, l->x0 + 4, y + BAR_H - 3.5, "value na", "start", "n/a");
        return l->x0 + 4 + text_w("n/a");
    }
    const double x = bar_x(l, v);
    fprintf(out, "<rect class=\"bar s%zu\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\"><title>", s, l->x0, y, x - l->x0, BAR_H);
    gp_html_escape(out, row->full ? row->full : row->label);
    if (c->n_series > 1) {
        fputs(", ", out);
        gp_html_escape(out, c->series[s]);
    }
    fputs(": ", out);
    gp_html_escape(out, row->value_text[s]);
    fputs("</title></rect>\n", out);
    const double past = fmax(x, bar_whisker(out, l, row, s, y));
    gp_svg_text(out, past + 4, y + BAR_H - 3.5, "value", "start", row->value_text[s]);
    return past + 4 + text_w(row->value_text[s]);
}

static void bar_row(FILE *out, const gp_svg_bars *c, const bar_layout *l,
                    const gp_svg_row *row, double y)
{
    if (row->heading) {
        gp_svg_text(out, 4, y + 17, "group", "start", row->label);
        return;
    }
    fprintf(out, "<g class=\"row%s%s\">\n", row->row_class ? " " : "",
            row->row_class ? row->row_class : "");
    bar_label(out, row, label_chars(c), l->x0 - 6,
              y + 4 + (double)c->n_series * (BAR_H + 2) / 2 + 2);
    double end = l->x0;
    for (size_t s = 0; s < c->n_series; s++) {
        const double e = bar_one(out, c, l, row, s, y + 4 + (double)s * (BAR_H + 2));
        end = e > end ? e : end;
    }
    if (row->marker)
        gp_svg_text(out, end + 10, y + 4 + (double)c->n_series * (BAR_H + 2) / 2 + 2,
                    "marker", "start", row->marker);
    fputs("</g>\n", out);
}

void gp_svg_bar_chart(FILE *out, const gp_svg_bars *c)
{
    const bar_layout l = bar_layout_of(c);
    svg_open(out, l.width, l.height, c->title, "bars");
    bar_legend(out, c, &l);
    bar_axis(out, c, &l);
    /* Under the rows, so that no line crosses a value or marker (their text has a halo). */
    bar_reflines(out, c, &l);
    double y = l.top;
    for (size_t i = 0; i < c->n_rows; i++) {
        bar_row(out, c, &l, &c->rows[i], y);
        y += row_height(c, &c->rows[i]);
    }
    fputs("</svg>\n", out);
}

/* ---- line charts ---------------------------------------------------------------------- */

typedef struct {
    double x0, x1, y0, y1;           /* the plot: left, right, bottom, top */
    double lo, hi;                   /* x domain (log2 of x when log2_x) */
    double ymax;
    bool log2_x;
    double width, height;
} line_layout;

static double lx_value(const line_layout *l, double x)
{
    return l->log2_x ? log2(x) : x;
}

static double line_x(const line_layout *l, double x)
{
    return l->x0 + (l->x1 - l->x0) * (lx_value(l, x) - l->lo) / (l->hi - l->lo);
}

static double line_y(const line_layout *l, double y)
{
    return l->y0 - (l->y0 - l->y1) * (y > 0 ? y : 0) / l->ymax;
}

static double legend_room(const gp_svg_lines *c)
{
    double w = 0;
    for (size_t s = 0; s < c->n_series; s++)
        if (text_w(c->series[s].name) > w)
            w = text_w(c->series[s].name);
    w += 44;
    return w > 320 ? 320 : w;
}

/* The x domain: the data's, widened a little so points do not sit on the frame. */
static void x_domain(const gp_svg_lines *c, line_layout *l)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->series[s].n; i++) {
            const double v = lx_value(l, c->series[s].x[i]);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
    if (!isfinite(lo) || !isfinite(hi))
        lo = 0, hi = 1;
    if (hi - lo < 1e-9)
        lo -= 1, hi += 1;
    const double pad = (hi - lo) * 0.04;
    l->lo = lo - pad;
    l->hi = hi + pad;
}

static double y_max(const gp_svg_lines *c)
{
    double m = 0;
    for (size_t s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->series[s].n; i++)
            m = isfinite(c->series[s].y[i]) && c->series[s].y[i] > m ? c->series[s].y[i] : m;
    for (size_t i = 0; i < c->n_lines; i++)
        m = isfinite(c->lines[i].value) && c->lines[i].value > m ? c->lines[i].value : m;
    return axis_end(m);
}

static line_layout line_layout_of(const gp_svg_lines *c)
{
    line_layout l;
    l.width = c->width > 0 ? c->width : 1000;
    l.height = c->height > 0 ? c->height : 380;
    l.log2_x = c->log2_x;
    l.x0 = 76;
    l.x1 = l.width - legend_room(c) - 16;
    l.y1 = 14;
    l.y0 = l.height - 50;
    l.ymax = y_max(c);
    x_domain(c, &l);
    return l;
}

static void y_axis(FILE *out, const gp_svg_lines *c, const line_layout *l)
{
    const value_axis a = {.end = l->ymax, .up = true, .at_zero = l->y0, .at_end = l->y1,
                          .across_lo = l->x0, .across_hi = l->x1};
    value_ticks(out, &a);
    fprintf(out, "<text class=\"axis-title\" x=\"0\" y=\"0\" text-anchor=\"middle\" "
                 "transform=\"translate(16 %.1f) rotate(-90)\">", (l->y0 + l->y1) / 2);
    gp_html_escape(out, c->y_title);
    fputs("</text>\n", out);
}

/* 2^k as people read it: 512, 4096, then 2^16 and up as powers. */
static void pow2_label(char *buf, size_t len, int k)
{
    if (k >= 16 || k < 0)
        snprintf(buf, len, "2^%d", k);
    else
        snprintf(buf, len, "%d", 1 << k);
}

static void x_tick(FILE *out, const line_layout *l, double x, const char *label)
{
    grid_line(out, x, x, l->y1, l->y0);
    gp_svg_text(out, x, l->y0 + 16, "tick", "middle", label);
}

static void x_axis(FILE *out, const gp_svg_lines *c, const line_layout *l)
{
    char label[32];
    if (l->log2_x) {
        const int step = (int)ceil((l->hi - l->lo) / 12);
        for (int k = (int)ceil(l->lo); k <= (int)floor(l->hi); k += step) {
            pow2_label(label, sizeof label, k);
            x_tick(out, l, l->x0 + (l->x1 - l->x0) * (k - l->lo) / (l->hi - l->lo), label);
        }
    } else {
        const double step = gp_svg_tick_step(l->hi - l->lo);
        const double first = ceil(l->lo / step) * step;
        for (int k = 0; k <= MAX_TICKS && first + k * step <= l->hi; k++) {
            const double v = first + k * step;
            snprintf(label, sizeof label, "%g", fabs(v) < step * 1e-9 ? 0 : v);
            x_tick(out, l, line_x(l, v), label);
        }
    }
    text_centred(out, (l->x0 + l->x1) / 2, l->y0 + 40, l->width, "axis-title", c->x_title);
}

static void line_reflines(FILE *out, const gp_svg_lines *c, const line_layout *l)
{
    for (size_t i = 0; i < c->n_lines; i++) {
        const gp_svg_refline *r = &c->lines[i];
        const double y = line_y(l, r->value);
        fprintf(out, "<line class=\"ref %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                     "y2=\"%.1f\"/>\n", r->cls, l->x0, l->x1, y, y);
        char cls[48];
        snprintf(cls, sizeof cls, "ref-label %s", r->cls);
        gp_svg_text(out, l->x1 - 4, y + (i % 2 ? 14 : -5), cls, "end", r->label);
    }
}

static void point(FILE *out, const line_layout *l, const gp_svg_series *s, const char *cls,
                  size_t i)
{
    fprintf(out, "<circle class=\"point %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", cls,
            line_x(l, s->x[i]), line_y(l, s->y[i]));
    gp_html_escape(out, s->name);
    fprintf(out, ": %g, %.1f</title></circle>\n", s->x[i], s->y[i]);
}

static void one_line(FILE *out, const line_layout *l, const gp_svg_series *s, size_t k)
{
    char cls[24];
    series_class(cls, sizeof cls, k);
    fprintf(out, "<polyline class=\"line %s\" points=\"", cls);
    for (size_t i = 0; i < s->n; i++)
        fprintf(out, "%s%.1f,%.1f", i ? " " : "", line_x(l, s->x[i]), line_y(l, s->y[i]));
    fputs("\"/>\n", out);
    for (size_t i = 0; i < s->n; i++)
        point(out, l, s, cls, i);
}

static void line_legend(FILE *out, const gp_svg_lines *c, const line_layout *l)
{
    const double x = l->x1 + 20;
    for (size_t k = 0; k < c->n_series; k++) {
        char cls[24];
        series_class(cls, sizeof cls, k);
        const double y = l->y1 + 8 + 18.0 * (double)k;
        fprintf(out, "<line class=\"line %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
                     "y2=\"%.1f\"/>\n", cls, x, x + 22, y, y);
        fprintf(out, "<circle class=\"swatch %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n", cls,
                x + 11, y);
        gp_svg_text(out, x + 28, y + 4, "legend", "start", c->series[k].name);
    }
}

void gp_svg_line_chart(FILE *out, const gp_svg_lines *c)
{
    const line_layout l = line_layout_of(c);
    svg_open(out, l.width, l.height, c->title, "lines");
    y_axis(out, c, &l);
    x_axis(out, c, &l);
    line_reflines(out, c, &l);
    for (size_t k = 0; k < c->n_series; k++)
        one_line(out, &l, &c->series[k], k);
    line_legend(out, c, &l);
    fputs("</svg>\n", out);
}
