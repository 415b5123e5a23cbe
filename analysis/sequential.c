/* sequential.c - see sequential.h */
#include "analysis/sequential.h"

#include <math.h>
#include <stdlib.h>

#include "base/util.h"
#include "flagsets/study.h"

/* x with erfc(x) = p, for 0 < p < 1 (erfc falls from 1 at 0 to 0) */
static double erfc_inverse(double p)
{
	double lo = 0, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		*(erfc(mid) > p ? &lo : &hi) = mid;
	}
	return (lo + hi) / 2;
}

double seq_spent(int rule, double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	if (rule == STABLE_POCOCK)
		return alpha * log(1 + (M_E - 1) * t);
	/* 2 - 2 Phi(x) = erfc(x / sqrt 2), and erfc(z_{1-alpha/2} / sqrt 2) = alpha */
	return erfc(erfc_inverse(alpha) / sqrt(t));
}

int seq_spending(int rule, int looks, int max_repeat)
{
	return looks > 1 && rule != STABLE_BONFERRONI && max_repeat >= looks;
}

/* The share of the normal distribution above x */
static double upper_tail(double x)
{
	return erfc(x / M_SQRT2) / 2;
}

#define GRID_STEP 0.02 /* of the Brownian motion's scale (sd 1 at t = 1) */
#define GRID_LOW -8.0  /* below this a look's sub-density is taken as 0 */

/* One look's sub-density of S (the statistic before it crossed a boundary)
 * on the points top - j h, j = 0..n - 1: the boundary is a grid point, so
 * the trapezoid rule stays second order up to it. */
struct grid {
	double top, *g;
	size_t n;
};

static double trapezoid_weight(const struct grid *gr, size_t j)
{
	return j == 0 || j + 1 == gr->n ? GRID_STEP / 2 : GRID_STEP;
}

/* The probability that S moves from below the last boundary (sub-density
 * gr) to above u within time dt */
static double crossing(const struct grid *gr, double u, double dt)
{
	double p = 0, sd = sqrt(dt);
	for (size_t j = 0; j < gr->n; j++)
		p += trapezoid_weight(gr, j) * gr->g[j] * upper_tail((u - (gr->top - (double)j * GRID_STEP)) / sd);
	return p;
}

/* The sub-density below u after time dt more; gr is replaced.  The
 * normal kernel between new point k and old point j depends on k - j
 * only, so it is computed once per offset. */
static void advance(struct grid *gr, double u, double dt)
{
	size_t n = u > GRID_LOW ? (size_t)((u - GRID_LOW) / GRID_STEP) + 2 : 2;
	double *g = xcalloc(n, sizeof(*g)), sd = sqrt(dt);
	double *kernel = xcalloc(n + gr->n, sizeof(*kernel)); /* [k - j + gr->n - 1] */
	for (size_t m = 0; m < n + gr->n - 1; m++) {
		double d = (u - gr->top - ((double)m - (double)(gr->n - 1)) * GRID_STEP) / sd;
		kernel[m] = exp(-d * d / 2) / (sd * sqrt(2 * M_PI));
	}
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < gr->n; j++)
			g[k] += trapezoid_weight(gr, j) * gr->g[j] * kernel[k + gr->n - 1 - j];
	free(kernel);
	free(gr->g);
	*gr = (struct grid){.top = u, .g = g, .n = n};
}

/* Lan-DeMets: the boundary u (on S's scale) of the next look, dt after the
 * last, such that S first crosses there with probability target */
static double next_boundary(const struct grid *gr, double target, double dt)
{
	double lo = GRID_LOW, hi = 40;
	for (int i = 0; i < 50; i++) {
		double mid = (lo + hi) / 2;
		*(crossing(gr, mid, dt) > target ? &lo : &hi) = mid;
	}
	return (lo + hi) / 2;
}

/* The nominal one-sided level of each of the looks at rounds first..max:
 * a statistic that moves like a Brownian motion in t = n / max (a
 * cumulative mean, S = Z sqrt(t)) first crosses the level at look k with
 * probability spent(t_k) - spent(t_{k-1}) when nothing differs; a look
 * at n gets 1 - Phi(u / sqrt(t)). */
static void nominal_levels(int rule, double alpha, int first, int max, double *level)
{
	double t0 = (double)first / max;
	level[0] = seq_spent(rule, alpha, t0);
	double u = sqrt(t0) * M_SQRT2 * erfc_inverse(2 * level[0]);
	/* S's density at the first look, below its boundary */
	struct grid gr = {.top = u, .n = u > GRID_LOW ? (size_t)((u - GRID_LOW) / GRID_STEP) + 2 : 2};
	gr.g = xcalloc(gr.n, sizeof(*gr.g));
	for (size_t j = 0; j < gr.n; j++) {
		double s = (u - (double)j * GRID_STEP) / sqrt(t0);
		gr.g[j] = exp(-s * s / 2) / sqrt(2 * M_PI * t0);
	}
	for (int n = first + 1; n <= max; n++) {
		double t = (double)n / max, dt = 1.0 / max;
		double target = seq_spent(rule, alpha, t) - seq_spent(rule, alpha, t - dt);
		u = next_boundary(&gr, target, dt);
		level[n - first] = upper_tail(u / sqrt(t));
		if (n < max)
			advance(&gr, u, dt);
	}
	free(gr.g);
}

double seq_level(int rule, double alpha, int looks, int max_repeat, size_t n)
{
	if (looks <= 1)
		return alpha;
	if (!seq_spending(rule, looks, max_repeat))
		return alpha / looks;
	int first = max_repeat - looks + 1;
	/* a look before the design's first has no earlier look to share with */
	if (n < (size_t)first)
		return seq_spent(rule, alpha, (double)n / max_repeat);
	/* the last design's levels: the ranking asks for one per verdict */
	static struct {
		int rule, looks, max;
		double alpha, *level;
	} last;
	if (!last.level || last.rule != rule || last.looks != looks || last.max != max_repeat ||
	    last.alpha != alpha) {
		free(last.level);
		last.level = xcalloc((size_t)looks, sizeof(*last.level));
		last.rule = rule, last.looks = looks, last.max = max_repeat, last.alpha = alpha;
		nominal_levels(rule, alpha, first, max_repeat, last.level);
	}
	/* a look past the last (merged shards) counts as the last */
	return last.level[(n > (size_t)max_repeat ? (size_t)max_repeat : n) - (size_t)first];
}
