/* svg.c - see svg.h */
#include "analysis/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void svg_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A linear axis from data range [lo, hi] to pixels [p0, p1], with "nice"
 * tick steps (1, 2 or 5 times a power of ten). */
struct axis {
	double lo, hi, p0, p1, step;
};

static void axis_init(struct axis *a, double lo, double hi, double p0, double p1)
{
	if (!(hi > lo)) {
		double mid = isfinite(lo) ? lo : 1;
		lo = mid - (mid ? fabs(mid) * 0.05 : 1);
		hi = mid + (mid ? fabs(mid) * 0.05 : 1);
	}
	double pad = (hi - lo) * 0.06;
	lo -= pad;
	hi += pad;
	double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;
	a->step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
	a->lo = lo;
	a->hi = hi;
	a->p0 = p0;
	a->p1 = p1;
}

/* Ratio axes include 1 (the baseline) and span at least RATIO_MIN_SPAN:
 * an axis from 0.997 to 1.000 made a 0.3% difference fill the chart. */
#define RATIO_MIN_SPAN 0.1
static void ratio_range(double *lo, double *hi)
{
	*lo = fmin(*lo, 1);
	*hi = fmax(*hi, 1);
	if (*hi - *lo < RATIO_MIN_SPAN) {
		double mid = (*lo + *hi) / 2;
		*lo = mid - RATIO_MIN_SPAN / 2;
		*hi = mid + RATIO_MIN_SPAN / 2;
	}
}

/* Roughly how wide a text of font size 11-12 is: labels are sized to it,
 * never clipped by the chart's edge. */
static double text_px(const char *s)
{
	return 7.2 * (double)strlen(s ? s : "");
}

static double axis_px(const struct axis *a, double v)
{
	return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* Decimals that tell neighbouring ticks apart. */
static int axis_decimals(const struct axis *a)
{
	int d = (int)-floor(log10(a->step) + 1e-9);
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

/* Tick values inside the axis; returns how many were written (<= 32). */
static int axis_ticks(const struct axis *a, double *t)
{
	int n = 0;
	for (double v = ceil(a->lo / a->step) * a->step; v <= a->hi && n < 32; v += a->step)
		t[n++] = fabs(v) < a->step * 1e-9 ? 0 : v;
	return n;
}

/* Grid lines and tick labels of one axis: vertical lines (vertical == 0,
 * an x axis) from `from` to `to` with labels at y = label, or horizontal
 * ones (an y axis) with labels ending at x = label. */
static void svg_grid(FILE *out, const struct axis *a, int vertical, int from, int to, int label)
{
	double t[32];
	int nt = axis_ticks(a, t), d = axis_decimals(a);
	for (int k = 0; k < nt; k++) {
		double v = axis_px(a, t[k]);
		if (!vertical)
			fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				     "y2=\"%d\" stroke=\"#eceff1\"/><text x=\"%.1f\" y=\"%d\" "
				     "font-size=\"11\" text-anchor=\"middle\">%.*f</text>\n",
				v, from, v, to, v, label, d, t[k]);
		else
			fprintf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
				     "y2=\"%.1f\" stroke=\"#eceff1\"/><text x=\"%d\" y=\"%.1f\" "
				     "font-size=\"11\" text-anchor=\"end\">%.*f</text>\n",
				from, v, to, v, label, v + 4, d, t[k]);
	}
}

static const char *verdict_colour(enum verdict v)
{
	return v == VERDICT_IMPROVED ? "#2e7d32" : v == VERDICT_REGRESSED ? "#c62828" : "#90a4ae";
}

/* Inline SVG in HTML5 needs no namespace declaration, so the file names
 * no URL at all. */
static void svg_open(FILE *out, const char *id, const char *kind, int w, int h,
		     const char *title)
{
	fputs("<svg class=\"chart ", out);
	fputs(kind, out);
	fputs("\" id=\"", out);
	svg_escape(out, id);
	fprintf(out, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", w, h,
		w, h);
	fputs("<title>", out);
	svg_escape(out, title);
	/* on the half pixel: a crisp one-pixel frame of exactly this colour,
	 * which is how a screenshot test finds the chart */
	fprintf(out, "</title>\n<rect class=\"frame\" x=\"0.5\" y=\"0.5\" width=\"%d\" "
		     "height=\"%d\" fill=\"#ffffff\" stroke=\"#cfd8dc\"/>\n", w - 1, h - 1);
	fputs("<text x=\"10\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", out);
	svg_escape(out, title);
	fputs("</text>\n", out);
}

void svg_ratio_bars(FILE *out, const char *id, const char *title, const struct svg_bar *bars,
		    size_t n)
{
	const int row = 26, top = 32, bottom = 34;
	double widest = 0;
	for (size_t i = 0; i < n; i++)
		widest = fmax(widest, text_px(bars[i].label));
	/* the labels' column as wide as the longest label: "gcc O2-v..." was cut */
	const int label_w = (int)fmax(200, widest + 16), w = label_w + 440;
	int h = top + (int)n * row + bottom;
	double lo = 1, hi = 1;
	for (size_t i = 0; i < n; i++) {
		const double v[] = {bars[i].value, bars[i].lo, bars[i].hi};
		for (size_t k = 0; k < ARRAY_SIZE(v); k++)
			if (isfinite(v[k])) {
				lo = fmin(lo, v[k]);
				hi = fmax(hi, v[k]);
			}
	}
	struct axis ax;
	ratio_range(&lo, &hi);
	axis_init(&ax, lo, hi, label_w, w - 20);
	svg_open(out, id, "bars", w, h, title);
	svg_grid(out, &ax, 0, top - 4, h - bottom + 4, h - bottom + 18);
	double one = axis_px(&ax, 1);
	for (size_t i = 0; i < n; i++) {
		const struct svg_bar *b = &bars[i];
		double y = top + (double)i * row;
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">",
			label_w - 8, y + row * 0.65);
		svg_escape(out, b->label);
		fputs("</text>\n", out);
		if (!isfinite(b->value))
			continue;
		double x = axis_px(&ax, b->value);
		fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			     "height=\"%d\" fill=\"%s\"><title>",
			fmin(x, one), y + 5, fmax(fabs(x - one), 1.5), row - 10,
			verdict_colour(b->verdict));
		svg_escape(out, b->label);
		fprintf(out, ": %.4f</title></rect>\n", b->value);
		if (isfinite(b->lo) && isfinite(b->hi) && b->lo < b->hi) {
			double x0 = axis_px(&ax, b->lo), x1 = axis_px(&ax, b->hi), yc = y + row / 2.0;
			fprintf(out, "<g class=\"whisker\" stroke=\"#263238\" stroke-width=\"1.5\">"
				     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
				x0, yc, x1, yc, x0, yc - 6, x0, yc + 6, x1, yc - 6, x1, yc + 6);
		}
	}
	fprintf(out, "<line class=\"reference\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		     "stroke=\"#37474f\" stroke-dasharray=\"4 3\"/>\n</svg>\n",
		one, top - 4, one, h - bottom + 4);
}

static int by_x(const void *a, const void *b)
{
	const struct svg_point *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

void svg_scatter(FILE *out, const char *id, const char *title, const char *xlabel,
		 const char *ylabel, const struct svg_point *p, size_t n)
{
	const int w = 640, h = 420, left = 70, right = 20, top = 32, bottom = 50;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(p[i].x) || !isfinite(p[i].y))
			continue;
		xlo = fmin(xlo, p[i].x);
		xhi = fmax(xhi, p[i].x);
		ylo = fmin(ylo, p[i].y);
		yhi = fmax(yhi, p[i].y);
	}
	struct axis ax, ay;
	ratio_range(&xlo, &xhi);
	ratio_range(&ylo, &yhi);
	axis_init(&ax, xlo, xhi, left, w - right);
	axis_init(&ay, ylo, yhi, h - bottom, top);
	svg_open(out, id, "scatter", w, h, title);
	svg_grid(out, &ax, 0, top, h - bottom, h - bottom + 15);
	svg_grid(out, &ay, 1, left, w - right, left - 6);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">",
		(left + w - right) / 2, h - 12);
	svg_escape(out, xlabel);
	fprintf(out, "</text>\n<text x=\"14\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" "
		     "transform=\"rotate(-90 14 %d)\">",
		(top + h - bottom) / 2, (top + h - bottom) / 2);
	svg_escape(out, ylabel);
	/* ratios, so neither axis starts at 0: say so where the eye looks */
	fprintf(out, "</text>\n<text class=\"axis-note\" x=\"%d\" y=\"18\" font-size=\"11\" "
		     "text-anchor=\"end\">axes from %.*f and %.*f, not 0; 1 is the baseline</text>\n",
		w - right, axis_decimals(&ax), ax.lo, axis_decimals(&ay), ay.lo);
	/* the front as a line through its points in x order */
	struct svg_point *f = xcalloc(n ? n : 1, sizeof(*f));
	size_t nf = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i].front && isfinite(p[i].x) && isfinite(p[i].y))
			f[nf++] = p[i];
	qsort(f, nf, sizeof(*f), by_x);
	fputs("<polyline class=\"front-line\" fill=\"none\" stroke=\"#1565c0\" "
	      "stroke-width=\"1.5\" points=\"", out);
	for (size_t i = 0; i < nf; i++)
		fprintf(out, "%s%.1f,%.1f", i ? " " : "", axis_px(&ax, f[i].x), axis_px(&ay, f[i].y));
	fputs("\"/>\n", out);
	free(f);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(p[i].x) || !isfinite(p[i].y))
			continue;
		double x = axis_px(&ax, p[i].x), y = axis_px(&ay, p[i].y);
		fprintf(out, "<circle class=\"point%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\" "
			     "stroke=\"#263238\"><title>",
			p[i].front ? " front" : "", x, y, p[i].front ? "#1565c0" : "#b0bec5");
		svg_escape(out, p[i].label);
		/* a label that would run past the right edge goes left of its point */
		int left_of = x + 8 + text_px(p[i].label) > w - 4;
		fprintf(out, ": %.4f, %.4f</title></circle>\n<text class=\"point-label\" x=\"%.1f\" "
			     "y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\">",
			p[i].x, p[i].y, left_of ? x - 8 : x + 8, y - 6, left_of ? "end" : "start");
		svg_escape(out, p[i].label);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}
