/*
 * svg.h - the two charts of the HTML report, written as inline SVG.
 *
 * flagscope draws them itself rather than calling gnuplot: the charts are
 * simple (bars with whiskers, one scatter), the report must stay one
 * self-contained file with no tool needed at report time, and every drawn
 * element carries a class ("bar", "whisker", "point", "front") so a test
 * can check in the DOM that a chart has exactly the marks it should.
 *
 * All text is escaped for XML; NaN values are skipped, never drawn.
 */
#ifndef FLAGSCOPE_SVG_H
#define FLAGSCOPE_SVG_H

#include <stdio.h>

#include "analysis/stats.h"

/* Write s with &, <, >, " and ' escaped (for HTML text and attributes). */
void svg_escape(FILE *out, const char *s);

struct svg_bar {
	const char *label;
	double value, lo, hi; /* lo/hi NAN: no whisker */
	enum verdict verdict; /* colours the bar: improved, regressed, neither */
};

/* Horizontal bars of ratios drawn from the reference line at 1 (so the
 * direction and size of a difference is what the eye sees), each with an
 * interval whisker; the axis includes 1 and spans at least 0.1, so a tiny
 * difference looks tiny; the label column is as wide as the longest label
 * (the chart grows).  id names the <svg> element. */
void svg_ratio_bars(FILE *out, const char *id, const char *title, const struct svg_bar *bars,
		    size_t n);

struct svg_point {
	const char *label;
	double x, y;
	int front; /* on the Pareto front: filled and joined by the front line */
};

/* A scatter of points with the Pareto front (lower-left is better).  Both
 * axes are ratios: each includes 1 and spans at least 0.1, and a note says
 * where they start (not at 0); point labels stay inside the chart. */
void svg_scatter(FILE *out, const char *id, const char *title, const char *xlabel,
		 const char *ylabel, const struct svg_point *p, size_t n);

#endif
